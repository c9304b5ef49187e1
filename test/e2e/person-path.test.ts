import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

// Issue 28, item 3: a person committing from an editor or a git GUI has no HESTAI_SESSION in git's
// environment. The block message offers that person a path (a clock-in that is not pinned), and following
// it as printed, a commit with no HESTAI_SESSION anywhere goes through once the session is anchored.

describe("a person's path outside a shell", () => {
  it('the blocked commit offers an unpinned clock-in; after it and the anchor, a commit without HESTAI_SESSION passes', () => {
    const repo = makeRepo();
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    repo.commit('chore: adopt hestai');
    repo.write('notes.md', 'hello\n');
    repo.git(['add', 'notes.md']);
    const blocked = repo.git(['commit', '-q', '-m', 'docs: notes'], { allowFail: true });
    expect(blocked.status).not.toBe(0);
    const offer = /From an editor or a git GUI: hestai (clock-in --role [a-z-]+) \(not pinned/.exec(blocked.stderr);
    expect(offer, blocked.stderr).not.toBeNull();

    const clockIn = repo.hestai([...offer![1]!.split(' '), '--json']);
    expect(clockIn.status, clockIn.stderr).toBe(0);
    const token = (JSON.parse(clockIn.stdout) as { session_id: string }).session_id;
    const dir = tempDir('hestai-payload-');
    fs.writeFileSync(
      path.join(dir, 'bind.oct'),
      '## BIND (Identity Lock)\nROLE::implementation-lead\nCOGNITION::LOGOS::HEPHAESTUS+ATHENA\nAUTHORITY::RESPONSIBLE[notes]\n',
    );
    fs.writeFileSync(
      path.join(dir, 'proof.oct'),
      [
        '## TENSION (Cognitive Proof - AGENT GENERATED)',
        'L1::[README_STAYS_TRUE]<->CTX:README.md:1-1[what it says today]->TRIGGER[keep it true]',
        'L2::[CONFIG_STAYS_TRUE]<->CTX:.hestai_workspace.yaml[what it says today]->TRIGGER[keep it true]',
        '## COMMIT (Falsifiable Contract)',
        'ARTIFACT::notes.md',
        'GATE::check:review',
        '',
      ].join('\n'),
    );
    for (const args of [
      ['--stage', 'identity', '--role', 'implementation-lead', '--token', token],
      ['--stage', 'context', '--token', token, '--payload-file', path.join(dir, 'bind.oct')],
      ['--stage', 'proof', '--token', token, '--payload-file', path.join(dir, 'proof.oct')],
    ]) {
      const step = repo.hestai(['anchor', ...args]);
      expect(step.status, step.stdout + step.stderr).toBe(0);
    }
    // The editor's git: the repository's environment, and no HESTAI_SESSION in it.
    expect(repo.env['HESTAI_SESSION']).toBeUndefined();
    const commit = repo.git(['commit', '-q', '-m', 'docs: notes'], { allowFail: true });
    expect(commit.status, commit.stderr).toBe(0);
    expect(repo.git(['log', '-1', '--format=%B']).stdout).toContain(`HestAI-Session: ${token}`);
  });
});
