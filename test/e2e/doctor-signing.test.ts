import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';

// Issue 39 item 5: `hestai doctor` says whether git signs hestai/anchors commits, and prints the one command
// that sets it up; that command, run as printed, makes doctor pass and git sign with a key the file lists.

type Check = { name: string; status: string; message: string; remedy?: string };

function signingCheck(repo: ReturnType<typeof makeRepo>): Check {
  const doctor = repo.hestai(['--json', 'doctor']);
  const checks = (JSON.parse(doctor.stdout) as { checks: Check[] }).checks;
  const check = checks.find((c) => c.name === 'signing');
  expect(check, doctor.stdout).toBeDefined();
  return check!;
}

describe('hestai doctor: signed evidence', () => {
  it('without a signing key it warns and prints one command; run as printed, doctor passes and commits carry a good signature of a listed key', () => {
    const repo = makeRepo();
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    const before = signingCheck(repo);
    expect(before.status).toBe('warn');
    expect(before.message).toMatch(/not signed/);
    const command = /^Run: (.*)$/m.exec(before.remedy ?? '')?.[1];
    expect(command, before.remedy).toBeDefined();
    const run = spawnSync('sh', ['-c', command!], { cwd: repo.dir, env: repo.env, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const after = signingCheck(repo);
    expect(after.status, after.message).toBe('pass');
    expect(after.message).toContain('.hestai/allowed_signers lists 1 key');
    repo.git(['commit', '-q', '--no-verify', '--allow-empty', '-S', '-m', 'chore: signed']);
    const sig = repo.git(['-c', 'gpg.ssh.allowedSignersFile=.hestai/allowed_signers', 'log', '-1', '--format=%G? %GS']);
    expect(sig.stdout.trim()).toBe('G test@hestai.invalid');
  });

  it('hestai init proposes verify.signatures: warn when git signs with ssh, and leaves it off otherwise', () => {
    const plain = makeRepo();
    expect(plain.hestai(['init', '--no-husky']).status).toBe(0);
    expect(fs.readFileSync(path.join(plain.dir, '.hestai_workspace.yaml'), 'utf8')).not.toMatch(/signatures/);
    const signing = makeRepo();
    signing.git(['config', 'gpg.format', 'ssh']);
    signing.git(['config', 'user.signingkey', '~/.ssh/id_ed25519.pub']);
    expect(signing.hestai(['init', '--no-husky']).status).toBe(0);
    expect(fs.readFileSync(path.join(signing.dir, '.hestai_workspace.yaml'), 'utf8')).toMatch(
      /^verify:\n {2}signatures: warn/m,
    );
    const doctor = JSON.parse(signing.hestai(['--json', 'doctor']).stdout) as { checks: Check[] };
    expect(doctor.checks.find((c) => c.name === 'config')?.status).toBe('pass');
  });
});
