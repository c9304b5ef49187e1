import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

// Issue 24 item 6: `verify --red-green` runs the repository's tdd.test_command only in a trusted
// workspace, with the minimal gate environment. Pushed to a bare remote, run in a fresh clone.

describe('verify --red-green needs trust', () => {
  it("attack: an untrusted clone does not run tdd.test_command; once trusted it runs without the caller's secrets", () => {
    const repo = makeRepo();
    const marker = path.join(tempDir('hestai-marker-'), 'ran.txt');
    repo.commit('chore: config', {
      '.hestai_workspace.yaml': `tdd:\n  test_command: 'echo "\${SECRET_TOKEN:-unset}" >> ${marker}; test -f src/a.txt'\nverify:\n  trailers: off\n  anchors: off\n`,
    });
    const remote = path.join(tempDir('hestai-remote-'), 'origin.git');
    repo.git(['init', '-q', '--bare', remote]);
    repo.git(['remote', 'add', 'origin', remote]);
    repo.git(['push', '-q', 'origin', 'main']);
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.commit('test(a): red', { 'test/a.test.ts': 'x' });
    repo.commit('feat(a): green', { 'src/a.txt': 'x' });
    repo.git(['push', '-q', 'origin', 'feat/x']);
    const clone = path.join(tempDir('hestai-ci-'), 'clone');
    repo.git(['clone', '-q', '--branch', 'feat/x', `file://${remote}`, clone]);

    const env = { SECRET_TOKEN: 'hunter2' };
    const untrusted = repo.hestai(['verify', '--red-green'], { cwd: clone, env });
    expect(untrusted.status).toBe(2);
    expect(untrusted.stderr).toContain('hestai trust');
    expect(fs.existsSync(marker)).toBe(false);

    expect(repo.hestai(['trust'], { cwd: clone }).status).toBe(0);
    const trusted = repo.hestai(['verify', '--red-green', '--format', 'json'], { cwd: clone, env });
    expect(trusted.status, trusted.stdout + trusted.stderr).toBe(0);
    const lines = fs.readFileSync(marker, 'utf8').trim().split('\n');
    expect(lines).toEqual(['unset', 'unset']);
  });
});
