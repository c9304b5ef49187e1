import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchoredRepo } from '../helpers/anchored-repo.js';

// Issue 24, item 5: CI re-checks an anchor at the commit its proof record names, so a role whose
// constitution is only in the worktree is refused at the identity stage (after adoption:
// CONSTITUTION_UNCOMMITTED), and the command it prints, run as printed from a session anchored as a role
// whose constitution is committed, commits it; then the new role anchors.

describe('a new role whose constitution is not committed yet', () => {
  it('is refused at identity with a command that commits it; run as printed from an anchored session, the role anchors', () => {
    const repo = anchoredRepo();
    const lead = repo.anchor();
    const file = '.hestai-sys/agents/release-captain.oct.md';
    repo.write(file, fs.readFileSync(path.join(repo.dir, '.hestai-sys/agents/implementation-lead.oct.md'), 'utf8'));
    const identity = ['anchor', '--stage', 'identity', '--role', 'release-captain'];
    const refused = repo.hestai(identity);
    expect(refused.status, refused.stdout + refused.stderr).toBe(1);
    const out = refused.stdout + refused.stderr;
    expect(out).toContain(`CONSTITUTION_UNCOMMITTED: ${file} is not committed`);
    const command = /`(git add [^`]+)`/.exec(out);
    expect(command, out).not.toBeNull();
    const run = spawnSync('sh', ['-c', command![1]!], {
      cwd: repo.dir,
      env: { ...repo.env, HESTAI_SESSION: lead },
      encoding: 'utf8',
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(repo.git(['log', '-1', '--format=%B']).stdout).toContain(`HestAI-Session: ${lead}`);
    const accepted = repo.hestai(identity);
    expect(accepted.status, accepted.stdout + accepted.stderr).toBe(0);
  });
});
