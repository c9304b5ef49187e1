import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { protocolRepo } from '../helpers/protocol-repo.js';

// Issue 27 (no cache decides; git answers git questions): the hooks' branch history and the commits since
// the session start are git's own `git log`, never a cache in the user cache directory. Real `git commit`s
// through the installed hooks, with protocol.enforce and a tests_first gate: a feat without its test is
// blocked and a paired one passes, git lists the commits (GIT_TRACE shows every git process the hooks start,
// since they inherit it), and nothing is written to the user cache directory.

const PROTOCOL = [
  'version: 1',
  'phases:',
  '  - id: BUILD',
  '    gates:',
  '      - { id: tdd, step: Test first, level: MUST, check: { type: tests_first } }',
  '  - id: DONE',
  '',
].join('\n');

function setup() {
  const { repo, env } = protocolRepo({ protocol: PROTOCOL, focus: 'history', objective: 'history cache' });
  const trace = path.join(repo.home, 'trace');
  let n = 0;
  const commit = (message: string, files: Record<string, string>, extra: string[] = []) => {
    for (const [f, c] of Object.entries(files)) repo.write(f, c);
    repo.git(['add', '-A']);
    fs.rmSync(trace, { force: true });
    return repo.git(['commit', '-q', ...extra, '-m', message], {
      allowFail: true,
      env: { ...env, GIT_TRACE: trace },
    });
  };
  /** The git commands the last commit's hooks started (git commit's own entries are not `log`). */
  const gitLogs = () =>
    fs
      .readFileSync(trace, 'utf8')
      .split('\n')
      .filter((l) => /trace: (?:built-in|exec): git (?:log|rev-list)\b/.test(l));
  const cacheDir = path.join(repo.home, '.cache', 'hestai');
  const next = () => ++n;
  return { repo, commit, gitLogs, cacheDir, next };
}

describe('the hooks read the branch history from git', () => {
  it('block a feat without a test and pass a paired feat, each judged on git log, with no cache written', () => {
    const { repo, commit, gitLogs, cacheDir, next } = setup();
    const pair = (label: string) => {
      const i = next();
      const t = commit(`test(${label}): covers ${i}`, { [`test/${label}-${i}.test.ts`]: `// ${i}\n` });
      expect(t.status, t.stderr).toBe(0);
      const f = commit(`feat(${label}): implements ${i}`, { [`src/${label}-${i}.ts`]: `export const v = ${i};\n` });
      expect(f.status, f.stderr).toBe(0);
      expect(gitLogs().length).toBeGreaterThan(0); // git answered the feat's history
    };
    const unpaired = () => {
      const i = next();
      const f = commit(`feat(bad): no test ${i}`, { [`src/bad-${i}.ts`]: `export const b = ${i};\n` });
      expect(f.status).toBe(1);
      expect(f.stderr).toContain('test-first');
      expect(gitLogs().length).toBeGreaterThan(0);
      repo.git(['reset', '-q', 'HEAD', '--', '.']);
      fs.rmSync(path.join(repo.dir, `src/bad-${i}.ts`));
    };
    pair('a');
    pair('a');
    unpaired();
    pair('a');
    unpaired();
    expect(fs.existsSync(path.join(cacheDir, 'git'))).toBe(false);
  });

  it('the protocol gate sees a feat committed past the hooks (--no-verify)', () => {
    const { commit, gitLogs } = setup();
    for (let i = 0; i < 2; i++) {
      expect(commit(`test(a): t${i}`, { [`test/t${i}.test.ts`]: 'x\n' }).status).toBe(0);
      expect(commit(`feat(a): f${i}`, { [`src/f${i}.ts`]: 'x\n' }).status).toBe(0);
    }
    expect(commit('feat(a): sneaked in', { 'src/sneaky.ts': 'x\n' }, ['--no-verify']).status).toBe(0);
    const blocked = commit('docs: anything', { 'docs/x.md': 'x\n' });
    expect(blocked.status).toBe(1);
    expect(blocked.stderr).toContain('BUILD/tdd');
    expect(gitLogs().length).toBeGreaterThan(0);
  });
});
