import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';

// `tdd.since` is compared as text with the adoption commit's parent (verify) and found by `.ci/run` with a
// lower-case 40-hex pattern: a short or upper-case sha that git resolves would still not be recognised, and
// verify would call the adoption commit unanchored. So only a full lower-case sha (40 or 64 hex digits) is
// taken; anything else is refused naming tdd.since, what is wrong and the command that prints the full sha.
// Real CLI (dist/) in a temp repo.

/** A repo whose last commit adopts hestai with `tdd.since` edited to `since(parent sha)`. */
function adoptWith(since: (parent: string) => string) {
  const repo = makeRepo();
  repo.commit('docs: the project', { 'README.md': '# project\n' });
  const parent = repo.git(['rev-parse', 'HEAD']).stdout.trim();
  const init = repo.hestai(['init', '--no-husky']);
  expect(init.status, init.stderr).toBe(0);
  const file = path.join(repo.dir, '.hestai_workspace.yaml');
  const text = fs.readFileSync(file, 'utf8');
  expect(text).toContain(`since: "${parent}"`); // init writes the full lower-case sha
  fs.writeFileSync(file, text.replace(`since: "${parent}"`, `since: "${since(parent)}"`));
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
  return { repo, parent, file };
}

describe('tdd.since is a full lower-case sha', () => {
  it.each([
    ['short', (sha: string) => sha.slice(0, 7), /7 hex digits/],
    ['upper-case', (sha: string) => sha.toUpperCase(), /upper-case/],
  ])(
    'a %s sha is refused by verify naming tdd.since and git rev-parse; the printed command gives the sha that passes',
    (_name, edit, what) => {
      const { repo, parent, file } = adoptWith(edit);
      const written = edit(parent);
      const run = repo.hestai(['verify', '--from', 'HEAD~1', '--to', 'HEAD', '--policy', 'HEAD']);
      expect(run.status).not.toBe(0);
      const out = run.stdout + run.stderr;
      expect(out).toMatch(/tdd\.since/);
      expect(out).toMatch(what);
      expect(out).not.toMatch(/HestAI-Anchor/);
      const command = new RegExp(`git rev-parse ${written}`).exec(out)?.[0];
      expect(command, out).toBeDefined();

      // The remedy: the command named, its output written back, and the adoption commit is recognised.
      const full = repo.git(command!.split(' ').slice(1)).stdout.trim();
      expect(full).toBe(parent);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(`since: "${written}"`, `since: "${full}"`));
      repo.git(['add', '-A']);
      repo.git(['commit', '-q', '--no-verify', '--amend', '--no-edit']);
      const again = repo.hestai(['verify', '--format', 'json', '--from', 'HEAD~1', '--to', 'HEAD', '--policy', 'HEAD']);
      expect(again.status, again.stdout + again.stderr).toBe(0);
      expect(again.stdout).toMatch(/the adoption commit/);
    },
  );
});
