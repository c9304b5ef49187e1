import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { protocolRepo } from '../helpers/protocol-repo.js';

// Issue 15 (Speed), issue 27: the hooks answer their `git log`s from the history cache (user cache
// directory) extended by ONE `git log` of the few commits made since (never read from object files). Real
// `git commit`s through the installed hooks, with protocol.enforce and a tests_first gate: they must block
// and pass exactly as without the cache, with the cache present, absent or tampered; and with the cache
// warm, each hook's only log is of the commits since its cached tip (GIT_TRACE shows every git process the
// hooks start, since they inherit it).

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
  const cacheDir = path.join(repo.home, '.cache', 'hestai', 'git');
  const logFiles = () =>
    fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).filter((f) => /^log-[0-9a-f]+\.json$/.test(f)) : [];
  const next = () => ++n;
  /** Warm: at most one log per hook (pre-commit's and commit-msg's series), each of the commits since its tip. */
  const onlyExtensions = () => {
    const logs = gitLogs();
    expect(logs.length).toBeLessThanOrEqual(2);
    for (const l of logs) expect(l).toMatch(/ \^'?[0-9a-f]{40}'? '?--max-count=33'?/);
  };
  return { repo, commit, gitLogs, onlyExtensions, cacheDir, logFiles, next };
}

describe('the hooks with the history cache', () => {
  it('block a feat without a test and pass a paired feat, with the cache warm, tampered and absent; warm: only logs since the cached tips', () => {
    const { repo, commit, gitLogs, onlyExtensions, cacheDir, logFiles, next } = setup();
    const pair = (label: string) => {
      const i = next();
      const t = commit(`test(${label}): covers ${i}`, { [`test/${label}-${i}.test.ts`]: `// ${i}\n` });
      expect(t.status, t.stderr).toBe(0);
      const f = commit(`feat(${label}): implements ${i}`, { [`src/${label}-${i}.ts`]: `export const v = ${i};\n` });
      expect(f.status, f.stderr).toBe(0);
    };
    const unpaired = () => {
      const i = next();
      const f = commit(`feat(bad): no test ${i}`, { [`src/bad-${i}.ts`]: `export const b = ${i};\n` });
      expect(f.status).toBe(1);
      expect(f.stderr).toContain('test-first');
      repo.git(['reset', '-q', 'HEAD', '--', '.']);
      fs.rmSync(path.join(repo.dir, `src/bad-${i}.ts`));
    };
    // Cold, then warm.
    pair('a');
    pair('a');
    expect(logFiles().length).toBeGreaterThanOrEqual(2);
    pair('a');
    onlyExtensions();
    unpaired();
    onlyExtensions();
    pair('a');
    onlyExtensions();

    // Tampered: every entry claims a test commit that never was; structure checks make it a miss.
    for (const f of logFiles()) {
      const entry = JSON.parse(fs.readFileSync(path.join(cacheDir, f), 'utf8')) as { commits: unknown[] };
      entry.commits.push({ sha: 'not a sha', parents: [], message: 'test: forged', files: ['test/x.test.ts'] });
      fs.writeFileSync(path.join(cacheDir, f), JSON.stringify(entry));
    }
    unpaired();
    expect(gitLogs().length).toBeGreaterThan(0); // git answered
    pair('b');

    // Absent.
    fs.rmSync(path.join(repo.home, '.cache'), { recursive: true, force: true });
    unpaired();
    pair('c');
  });

  it('the protocol gate sees a feat committed past the hooks, when the answer is derived from the cache', () => {
    const { commit, onlyExtensions } = setup();
    for (let i = 0; i < 2; i++) {
      expect(commit(`test(a): t${i}`, { [`test/t${i}.test.ts`]: 'x\n' }).status).toBe(0);
      expect(commit(`feat(a): f${i}`, { [`src/f${i}.ts`]: 'x\n' }).status).toBe(0);
    }
    // A feat without its test, past the hooks (--no-verify): one commit on top of the cached answer.
    expect(commit('feat(a): sneaked in', { 'src/sneaky.ts': 'x\n' }, ['--no-verify']).status).toBe(0);
    const next = commit('docs: anything', { 'docs/x.md': 'x\n' });
    expect(next.status).toBe(1);
    expect(next.stderr).toContain('BUILD/tdd');
    onlyExtensions();
  });
});
