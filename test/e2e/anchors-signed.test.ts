import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { anchoredRepo } from '../helpers/anchored-repo.js';
import { tempDir } from '../helpers/git-repo.js';

// Issue 39 item 3 (first part): when git is configured to sign with ssh (gpg.format ssh, user.signingkey), the
// commits hestai adds to hestai/anchors are signed by git and ssh-keygen; hestai's code handles no key.

describe('signed anchors commits', () => {
  it('with gpg.format ssh and user.signingkey set, every commit the proof stage and the pre-push hook add to hestai/anchors carries a good signature of that key', () => {
    const keys = tempDir('hestai-keys-');
    const key = path.join(keys, 'alice');
    const made = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'alice', '-f', key], {
      encoding: 'utf8',
    });
    expect(made.status, made.stderr).toBe(0);
    const allowed = path.join(keys, 'allowed_signers');
    fs.writeFileSync(allowed, `alice@example.invalid ${fs.readFileSync(`${key}.pub`, 'utf8')}`);
    const repo = anchoredRepo();
    repo.git(['config', 'gpg.format', 'ssh']);
    repo.git(['config', 'user.signingkey', `${key}.pub`]);
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.anchor();
    expect(repo.commitHooked('docs: signed evidence', { 'docs/a.md': 'a\n' }).status).toBe(0);
    const push = repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true });
    expect(push.status, push.stderr).toBe(0);
    const log = repo.git([
      '--git-dir',
      repo.remote,
      '-c',
      `gpg.ssh.allowedSignersFile=${allowed}`,
      'log',
      '--first-parent',
      '--format=%G? %GS %s',
      'refs/heads/hestai/anchors',
    ]);
    const lines = log.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2); // the proof record, and the change record of the push
    for (const line of lines) expect(line).toMatch(/^G alice@example\.invalid /);
  });
});
