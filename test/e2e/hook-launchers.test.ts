import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchoredRepo } from '../helpers/anchored-repo.js';
import { adoptClaudeCode, newAgent, preToolUse, runClaudeHook, sessionStartCall } from '../helpers/claude-hook.js';
import { makeRepo, PROJECT_ROOT, tempDir, type RunResult, type TempRepo } from '../helpers/git-repo.js';

// Issue 27 (no home-made code cache): the hook launchers (hooks/pre-commit, commit-msg, pre-push, claude-code)
// load their bundle by path and keep no code cache of their own; where the running Node has
// module.enableCompileCache (Node >= 22.1) they turn Node's own on before loading it, and do nothing where it
// does not. Real hooks installed by `hestai init --no-husky`, real `git commit`s and pushes.

/** A repository with the hooks installed and no session: every commit is blocked by pre-commit. */
function blockedRepo(): TempRepo {
  const repo = makeRepo();
  expect(repo.hestai(['init', '--no-husky', '--agent', 'claude-code']).status).toBe(0);
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
  return repo;
}

const outcome = (r: RunResult) => ({ status: r.status, stdout: r.stdout, stderr: r.stderr });

function commitTry(repo: TempRepo, env: NodeJS.ProcessEnv, message = 'chore: try') {
  repo.write('notes/n.md', `${Math.random()}\n`);
  repo.git(['add', '-A']);
  return outcome(repo.git(['commit', '-q', '-m', message], { allowFail: true, env }));
}

/** Every file under `dir` (relative paths), for "nothing was written there". */
function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile());
}

type ProbeCall = { bundleLoaded: boolean; dir: string | null };

/**
 * A preload that gives node:module an enableCompileCache (as Node >= 22.1 has) recording each call, the
 * directory it was given, and whether the hook's bundle was already loaded then.
 */
function compileCacheProbe(): { env: NodeJS.ProcessEnv; calls: () => ProbeCall[] } {
  const dir = tempDir('hestai-probe-');
  const out = path.join(dir, 'calls.jsonl');
  const script = path.join(dir, 'probe.cjs');
  fs.writeFileSync(
    script,
    [
      "const m = require('node:module');",
      'm.enableCompileCache = (dir) => {',
      '  const bundleLoaded = Object.keys(require.cache).some((f) => /dist[\\\\/]hooks[\\\\/]/.test(f));',
      `  const line = JSON.stringify({ bundleLoaded, dir: typeof dir === 'string' ? dir : null });`,
      `  require('node:fs').appendFileSync(${JSON.stringify(out)}, line + '\\n');`,
      '  return { status: 0 };',
      '};',
      '',
    ].join('\n'),
  );
  return {
    env: { NODE_OPTIONS: `--require ${script}` },
    calls: () =>
      (fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as ProbeCall),
  };
}

function claudeEdit(repo: TempRepo, env: NodeJS.ProcessEnv) {
  const settings = JSON.parse(fs.readFileSync(path.join(repo.dir, '.claude/settings.json'), 'utf8')) as {
    hooks: { PreToolUse: { hooks: { command: string }[] }[] };
  };
  const command = settings.hooks.PreToolUse[0]!.hooks[0]!.command;
  const result = spawnSync('sh', ['-c', command], {
    cwd: repo.dir,
    env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir, ...env },
    input: JSON.stringify({
      session_id: 'launcher-test',
      cwd: repo.dir,
      hook_event_name: 'PreToolUse',
      tool_name: 'Edit',
      tool_input: { file_path: path.join(repo.dir, 'README.md'), old_string: 'a', new_string: 'b' },
    }),
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Where every launcher keeps Node's compile cache: inside the package, never the shared temporary directory. */
const CACHE_DIR = path.join(PROJECT_ROOT, '.compile-cache');

describe('the hook launchers', () => {
  it('keep no code cache of their own: commits, an agent edit and a push write nothing under <cache>/hestai/code', () => {
    const repo = blockedRepo();
    const xdg = tempDir('hestai-xdg-');
    const blocked = commitTry(repo, { XDG_CACHE_HOME: xdg });
    expect(blocked.status).toBe(1);
    expect(commitTry(repo, { XDG_CACHE_HOME: xdg })).toEqual(blocked);
    const edit = claudeEdit(repo, { XDG_CACHE_HOME: xdg });
    expect(edit.status).toBe(2); // no session: the edit is refused
    expect(claudeEdit(repo, { XDG_CACHE_HOME: xdg })).toEqual(edit);

    const anchored = anchoredRepo();
    anchored.git(['checkout', '-q', '-b', 'docs/x']);
    anchored.anchor();
    expect(anchored.commitHooked('docs: note', { 'docs/n.md': 'n\n' }, { XDG_CACHE_HOME: xdg }).status).toBe(0);
    const push = anchored.git(['push', '-q', 'origin', 'docs/x'], { allowFail: true, env: { XDG_CACHE_HOME: xdg } });
    expect(push.status, push.stderr).toBe(0);
    expect(files(path.join(xdg, 'hestai', 'code'))).toEqual([]);
  });

  it("turn Node's own compile cache on before loading the bundle where node:module has enableCompileCache", () => {
    const repo = blockedRepo();
    const probe = compileCacheProbe();
    const blocked = commitTry(repo, probe.env);
    expect(blocked.status).toBe(1);
    expect(blocked.stderr).toContain('hestai');
    expect(probe.calls()).toEqual([{ bundleLoaded: false, dir: CACHE_DIR }]); // pre-commit blocked: commit-msg never ran
    expect(claudeEdit(repo, probe.env).status).toBe(2);
    expect(probe.calls()).toEqual([
      { bundleLoaded: false, dir: CACHE_DIR },
      { bundleLoaded: false, dir: CACHE_DIR },
    ]);
  });

  it('attack: the compile cache is not under os.tmpdir(), where an unanchored agent may plant a crafted V8 code cache', () => {
    // Node's default (enableCompileCache() with no directory) is os.tmpdir()/node-compile-cache, which the
    // pre-anchor scratch rule lets an agent write. The launchers name a directory inside the package instead.
    expect(path.relative(PROJECT_ROOT, CACHE_DIR).startsWith('..')).toBe(false);
    const packed = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(packed.files).not.toContain('.compile-cache');
    expect(fs.readFileSync(path.join(PROJECT_ROOT, '.gitignore'), 'utf8').split('\n')).toContain('.compile-cache/');

    // Installed, the package is node_modules/hestai-hooks in the worktree, which agents never write.
    const repo = makeRepo();
    const { command } = adoptClaudeCode(repo);
    const agent = newAgent('planter');
    expect(runClaudeHook(repo, command, agent, sessionStartCall()).status).toBe(0);
    const planted = path.join(repo.dir, 'node_modules', 'hestai-hooks', '.compile-cache', 'v22', 'x', 'planted');
    const refused = runClaudeHook(repo, command, agent, preToolUse('Write', { file_path: planted, content: 'x' }));
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('is under node_modules/hestai-hooks/, which agents never write');
    expect(fs.existsSync(planted)).toBe(false);
  });

  it('load the bundle with its sibling bundles (the config validation on a changed workspace file)', () => {
    const repo = blockedRepo();
    const xdg = tempDir('hestai-xdg-');
    commitTry(repo, { XDG_CACHE_HOME: xdg });
    repo.write('.hestai_workspace.yaml', 'tdd:\n  policy: sometimes\n');
    const invalid = commitTry(repo, { XDG_CACHE_HOME: xdg });
    expect(invalid.status).toBe(1); // git's status for any failing hook (the hook exits 2)
    expect(invalid.stderr).toContain('tdd.policy: Invalid option');
    expect(commitTry(repo, { XDG_CACHE_HOME: tempDir('hestai-xdg-') })).toEqual(invalid);
  });
});
