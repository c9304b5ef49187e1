import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rangeFactsAsync } from '../../src/git/snapshot.js';
import { restoreEnvAfterEach, useRepo } from '../helpers/process-env.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';

// Issue 15 (Speed): HEAD, the commits since a base, the work tree's files and status are always git's (issue 27: no cache decides). Every change below is made by
// another process (git, sh) on a real repository, and the next read must see it.

restoreEnvAfterEach();

/** Another process changes the work tree (never this one's fs calls). */
function sh(repo: TempRepo, script: string): void {
  const r = spawnSync('/bin/sh', ['-c', script], { cwd: repo.dir, env: repo.env, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}

function fixture() {
  const repo = makeRepo();
  repo.commit('chore: files', {
    'src/app.ts': 'export const a = 1;\n',
    'test/app.test.ts': '// test\n',
    '.gitignore': 'build/\n*.log\n',
    'build/out.js': 'ignored\n',
  });
  useRepo(repo);
  return { repo };
}

const gitFiles = (repo: TempRepo) =>
  repo.git(['ls-files', '-z', '--cached', '--others', '--exclude-standard']).stdout.split('\0').filter(Boolean).sort();

describe('the commits since a base (src/git/snapshot.ts)', () => {
  it('are what git lists, after another process moves HEAD on and back', async () => {
    const { repo } = fixture();
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.commit('test: one', { 'test/one.test.ts': '1\n' });
    const first = await rangeFactsAsync(repo.dir, base, { commits: true });
    expect(first.count).toBe(1);
    expect(first.commits!.map((c) => c.message.trim())).toEqual(['test: one']);
    sh(repo, 'echo 2 > src/two.ts && git add -A && git commit -q --no-verify -m "feat: two"');
    const moved = await rangeFactsAsync(repo.dir, base, { commits: true });
    expect(moved.commits!.map((c) => c.message.trim())).toEqual(['test: one', 'feat: two']);
    expect(moved.count).toBe(2);
    sh(repo, 'git reset -q --hard HEAD~1');
    expect((await rangeFactsAsync(repo.dir, base, { commits: false })).count).toBe(1);
  });

  it('follow replace refs as git does', async () => {
    const { repo } = fixture();
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    const one = repo.commit('test: one', { 'test/one.test.ts': '1\n' });
    repo.commit('test: two', { 'test/two.test.ts': '2\n' });
    expect((await rangeFactsAsync(repo.dir, base, { commits: false })).count).toBe(2);
    repo.git(['replace', one, base]);
    const count = Number(repo.git(['rev-list', '--count', 'HEAD', `^${base}`]).stdout.trim());
    expect((await rangeFactsAsync(repo.dir, base, { commits: false })).count).toBe(count);
  });
});

describe('content hashes of the protocol gates (src/protocol/facts.ts)', () => {
  it('hashes a binary file and a file larger than 64 KB exactly as node:crypto does', async () => {
    const { createHash } = await import('node:crypto');
    const { factsOf } = await import('../../src/protocol/facts.js');
    const { DEFAULTS } = await import('../../src/config/defaults.js');
    const { workspacePaths } = await import('../../src/paths.js');
    const repo = makeRepo();
    const binary = Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28, 0x0a]);
    const large = Buffer.alloc(200 * 1024, 'x');
    fs.writeFileSync(path.join(repo.dir, 'bin.dat'), binary);
    fs.writeFileSync(path.join(repo.dir, 'large.txt'), large);
    const gate = (id: string, file: string) => ({
      phase: 'P',
      gate: {
        id,
        step: id,
        level: 'MUST' as const,
        blocking: true,
        pre_commit: true,
        check: { type: 'evidence' as const, accepts: ['content_hash' as const], path: file },
      },
    });
    const facts = factsOf(
      {
        paths: workspacePaths(repo.dir),
        config: DEFAULTS as never,
        env: repo.env,
        now: new Date(),
        session_id: '00000000-0000-4000-8000-000000000000',
        started_at: new Date().toISOString(),
        starting_commit: null,
        gates: [gate('bin', 'bin.dat'), gate('large', 'large.txt')],
        evidence: [],
        runCommands: false,
        recorded: {},
      },
      {},
    );
    expect(facts.hashes).toEqual({
      'bin.dat': createHash('sha256').update(binary).digest('hex'),
      'large.txt': createHash('sha256').update(large).digest('hex'),
    });
  });
});

describe('file_exists globs on the hook path (src/protocol/facts.ts)', () => {
  it('a glob a tracked or untracked file on disk satisfies counts, an ignored or deleted one does not (git lists the files)', async () => {
    const { prefetchGitFacts, factsOf } = await import('../../src/protocol/facts.js');
    const { DEFAULTS } = await import('../../src/config/defaults.js');
    const { workspacePaths } = await import('../../src/paths.js');
    const repo = makeRepo();
    repo.commit('chore: files', { 'test/a.test.ts': '1\n', '.gitignore': 'ignored/\n' });
    repo.write('untracked/u.md', 'u\n');
    repo.write('ignored/i.md', 'i\n');
    useRepo(repo);
    const gate = (p: string) => ({
      phase: 'P',
      gate: {
        id: p,
        step: p,
        level: 'MUST' as const,
        blocking: true,
        pre_commit: true,
        check: { type: 'file_exists' as const, path: p },
      },
    });
    const input = (globs: string[]) => ({
      paths: workspacePaths(repo.dir),
      config: DEFAULTS as never,
      env: repo.env,
      now: new Date(),
      session_id: '00000000-0000-4000-8000-000000000000',
      started_at: new Date().toISOString(),
      starting_commit: null,
      gates: globs.map(gate),
      evidence: [],
      runCommands: false,
      recorded: {},
    });
    const early = await prefetchGitFacts(input(['test/*.ts']));
    expect([...early.files!].sort()).toEqual(gitFiles(repo));
    expect(factsOf(input(['test/*.ts']), early).exists).toEqual({ 'test/*.ts': true });
    const all = ['test/*.ts', 'untracked/*.md', 'ignored/*.md'];
    const asked = await prefetchGitFacts(input(all));
    expect(asked.files).toBeDefined();
    expect(factsOf(input(all), asked).exists).toEqual({
      'test/*.ts': true,
      'untracked/*.md': true,
      'ignored/*.md': false,
    });
    // A tracked file deleted from disk does not count.
    sh(repo, 'rm test/a.test.ts');
    const gone = await prefetchGitFacts(input(['test/*.ts']));
    expect(factsOf(input(['test/*.ts']), gone).exists).toEqual({ 'test/*.ts': false });
  });
});
