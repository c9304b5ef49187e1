import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT, tempDir, type TempRepo } from '../helpers/git-repo.js';
import { makeSession } from '../helpers/session-fixture.js';

// Issue 15 (Speed): a hook prints its lines to stderr without building process.stderr (for a pipe or a
// terminal that loads node:net and node:stream, a few ms on every commit). What git shows must not change:
// the same bytes, in the same order, whether stderr is a pipe or a file, for a pass and for a block.

/** Runs a hook with a preload that records the node modules it loaded; stderr to a pipe or to a file. */
function run(
  repo: TempRepo,
  hook: 'pre-commit' | 'commit-msg' | 'claude-code',
  args: string[],
  to: 'pipe' | 'file',
  input?: string,
) {
  const dir = tempDir('hestai-probe-');
  const out = path.join(dir, 'loaded.json');
  const probe = path.join(dir, 'probe.cjs');
  fs.writeFileSync(
    probe,
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify([...process.moduleLoadList, ...Object.keys(require.cache)])));\n`,
  );
  const errFile = path.join(dir, 'stderr');
  const fd = to === 'file' ? fs.openSync(errFile, 'w') : null;
  const result = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'hooks', hook), ...args], {
    cwd: repo.dir,
    env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir, NODE_OPTIONS: `--require ${probe}` },
    encoding: 'utf8',
    input,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', fd ?? 'pipe'],
  });
  if (fd !== null) fs.closeSync(fd);
  const stderr = fd !== null ? fs.readFileSync(errFile, 'utf8') : result.stderr;
  const loaded = JSON.parse(fs.readFileSync(out, 'utf8')) as string[];
  return { output: { status: result.status, stdout: result.stdout, stderr }, loaded };
}

describe('hook output', () => {
  it('prints the same bytes to a pipe and to a file, without loading node:net, for a pass and for a block', () => {
    const repo = makeRepo();
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    repo.commit('chore: adopt hestai');
    // A block (no session): several lines with a hint.
    repo.write('src/a.ts', 'export {};\n');
    repo.git(['add', 'src/a.ts']);
    const blocked = run(repo, 'pre-commit', [], 'pipe');
    expect(blocked.output.status).toBe(1);
    expect(blocked.output.stderr).toMatch(/^hestai: .*\n(.*\n)*hint: .*\nverdict: NO_SESSION\n$/);
    expect(run(repo, 'pre-commit', [], 'file').output).toEqual(blocked.output);
    expect(blocked.loaded).not.toContain('NativeModule net');
    // A pass: the session line.
    makeSession(repo.dir);
    const passed = run(repo, 'pre-commit', [], 'pipe');
    expect(passed.output.status, passed.output.stderr).toBe(0);
    expect(passed.output.stderr).toMatch(/^hestai: checking session .*: ok\n$/);
    expect(run(repo, 'pre-commit', [], 'file').output).toEqual(passed.output);
    expect(passed.loaded).not.toContain('NativeModule net');
    expect(passed.output.stdout).toBe('');
    // commit-msg blocking a bad header: its lines, byte for byte (it may start git for its config here).
    const msg = path.join(repo.home, 'MSG');
    fs.writeFileSync(msg, 'not a header\n');
    const bad = run(repo, 'commit-msg', [msg], 'pipe');
    expect(bad.output.status).toBe(1);
    expect(bad.output.stderr).toContain('hestai: commit blocked: "not a header" is not a Conventional Commit header');
    expect(run(repo, 'commit-msg', [msg], 'file').output).toEqual(bad.output);
  });

  it('the agent hook refuses a shell call to a pipe and to a file with the same bytes, without loading node:net', () => {
    const repo = makeRepo();
    expect(repo.hestai(['init', '--no-husky', '--agent', 'claude-code']).status).toBe(0);
    repo.commit('chore: adopt hestai');
    const input = JSON.stringify({
      session_id: 'stderr-probe',
      cwd: repo.dir,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'git status --short' },
    });
    const refused = run(repo, 'claude-code', [], 'pipe', input);
    expect(refused.output.status).toBe(2);
    expect(refused.output.stderr).toMatch(/^hestai: Bash blocked: .*\n(.*\n)*verdict: NO_SESSION\n$/);
    expect(run(repo, 'claude-code', [], 'file', input).output).toEqual(refused.output);
    expect(refused.loaded).not.toContain('NativeModule net');
    expect(refused.output.stdout).toBe('');
    // A PreToolUse call loads the decision's bundle and the shared zod bundle alone: SessionStart (clock-in) and
    // yaml are bundles of their own (a refusal before the anchor never reads the workspace config), and the
    // session protocol's gates load only under protocol.enforce. Kept inside, the one file was 469 KB.
    const bundles = refused.loaded.filter((f) => /dist[\\/]hooks[\\/]/.test(f));
    expect(bundles.map((f) => path.basename(f)).sort()).toEqual(['claude-code.cjs', 'vendor-zod.cjs']);
    const size = bundles.reduce((sum, f) => sum + fs.statSync(f).size, 0);
    expect(size).toBeLessThan(400 * 1024);
  });
});
