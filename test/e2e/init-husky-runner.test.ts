import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/git-repo.js';

// Review F3: in a husky 9 repository git runs hooks from `.husky/_` (core.hooksPath), whose generated
// `<hook>` files hand over to `h`, which always exits: a line appended there never runs, and the files are
// git-ignored and rewritten by every `husky` install. `hestai init --no-husky` refuses (exit 2, nothing
// written) naming the directory and the remedy, `hestai init`, which adds hestai to .husky/<hook>.

/** A husky 9 repository, installed by the real husky (core.hooksPath=.husky/_). */
function huskyRepo(): TempRepo {
  const repo = makeRepo();
  repo.write('package.json', JSON.stringify({ name: 'app', private: true, devDependencies: { husky: '^9.1.7' } }));
  repo.write('.husky/pre-commit', 'echo lint-staged-ran > .lint-ran\n');
  repo.write('.gitignore', 'node_modules/\n.lint-ran\n');
  const husky = repo.git(
    ['-c', `alias.husky=!node ${JSON.stringify(path.join(PROJECT_ROOT, 'node_modules/husky/bin.js'))}`, 'husky'],
    { allowFail: true },
  );
  expect(husky.status, husky.stderr).toBe(0);
  expect(repo.git(['config', '--get', 'core.hooksPath']).stdout.trim()).toBe('.husky/_');
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: husky']);
  return repo;
}

/** A `feat` with no test, committed through the hooks git runs, with no session. */
function featWithoutTest(repo: TempRepo) {
  repo.write('src/feature.ts', `export const x = ${Math.random()};\n`);
  repo.git(['add', '-A']);
  return repo.git(['commit', '-q', '-m', 'feat: a feature without a test'], { allowFail: true });
}

const snapshot = (dir: string) =>
  Object.fromEntries(fs.readdirSync(dir).map((name) => [name, fs.readFileSync(path.join(dir, name), 'utf8')]));

describe("hestai init --no-husky with husky's runner directory as core.hooksPath (.husky/_)", () => {
  it('refuses, names .husky/_ and the remedy, and writes nothing', () => {
    const repo = huskyRepo();
    const runner = path.join(repo.dir, '.husky', '_');
    const before = snapshot(runner);
    const init = repo.hestai(['init', '--no-husky']);
    expect(init.status, init.stderr).toBe(2);
    expect(init.stderr).toContain(runner);
    expect(init.stderr).toContain('core.hooksPath=.husky/_');
    expect(init.stderr).toMatch(/run hestai init \(without --no-husky\)/i);
    expect(snapshot(runner)).toEqual(before);
    expect(fs.existsSync(path.join(repo.dir, '.hestai'))).toBe(false);
    const doctor = JSON.parse(repo.hestai(['doctor', '--json']).stdout) as {
      checks: { name: string; status: string }[];
    };
    expect(doctor.checks.find((c) => c.name === 'hooks')?.status).not.toBe('pass');
  });

  it('the remedy, hestai init, adds hestai to .husky/<hook>: doctor passes and a feat with no test and no session is blocked', () => {
    const repo = huskyRepo();
    expect(repo.hestai(['init', '--no-husky']).status).toBe(2);
    const init = repo.hestai(['init']);
    expect(init.status, init.stderr).toBe(0);
    expect(fs.readFileSync(path.join(repo.dir, '.husky/pre-commit'), 'utf8')).toContain('hooks/pre-commit');
    const doctor = JSON.parse(repo.hestai(['doctor', '--json']).stdout) as {
      checks: { name: string; status: string; message: string }[];
    };
    expect(doctor.checks.find((c) => c.name === 'hooks')).toMatchObject({ status: 'pass' });
    repo.commit('chore: adopt hestai');
    const blocked = featWithoutTest(repo);
    expect(blocked.status).toBe(1);
    expect(blocked.stderr).toContain('hestai: commit blocked');
    expect(fs.existsSync(path.join(repo.dir, '.lint-ran'))).toBe(true);
  });
});
