import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';

// Issue 27 (git answers git questions): where git runs hooks from is git's answer (`git rev-parse --git-path
// hooks`), not our reading of core.hooksPath. A core.hooksPath of `~/hooks` (a common global setting) is
// $HOME/hooks to git; `hestai init --no-husky` installs there, `hestai doctor` inspects there, and a real
// commit runs hestai's hooks.

function setup() {
  const repo = makeRepo();
  repo.git(['config', '--global', 'core.hooksPath', '~/hooks']);
  const home = path.join(repo.home, 'hooks');
  expect(repo.git(['rev-parse', '--path-format=absolute', '--git-path', 'hooks']).stdout.trim()).toBe(home);
  return { repo, home };
}

describe('core.hooksPath as git reads it (~ expanded)', () => {
  it('hestai init --no-husky installs the hooks where git runs them, doctor finds them, and a commit runs them', () => {
    const { repo, home } = setup();
    const init = repo.hestai(['init', '--no-husky']);
    expect(init.status, init.stderr).toBe(0);
    expect(fs.existsSync(path.join(repo.dir, '~'))).toBe(false);
    for (const hook of ['pre-commit', 'commit-msg']) expect(fs.existsSync(path.join(home, hook)), hook).toBe(true);
    const doctor = JSON.parse(repo.hestai(['doctor', '--json']).stdout) as {
      checks: { name: string; status: string; message: string }[];
    };
    expect(doctor.checks.find((c) => c.name === 'hooks')).toMatchObject({ status: 'pass' });
    // A real commit through the hooks git runs: not clocked in, so hestai blocks it.
    repo.write('notes.md', 'x\n');
    repo.git(['add', '-A']);
    const blocked = repo.git(['commit', '-q', '-m', 'docs: notes'], { allowFail: true });
    expect(blocked.status).toBe(1);
    expect(blocked.stderr).toContain('hestai: commit blocked');
  });
});
