// Paths, the isolated process environment and small synchronous process helpers for the bench.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The package root (where dist/, node_modules/ and bench/ live). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The built CLI the hooks and cases run. */
export const CLI = path.join(ROOT, 'dist/cli/bin.js');
/** Cached, read-only fixtures (git-ignored), keyed by fixture version. */
export const FIXTURES_DIR = path.join(ROOT, 'bench/.fixtures');
/** Results of each run (git-ignored): latest.json and previous.json. */
export const RESULTS_DIR = path.join(ROOT, 'bench/results');
/** commitlint's bin, run with node by path (never through npx). */
export const COMMITLINT = path.join(ROOT, 'node_modules/@commitlint/cli/cli.js');
/** husky's installer (v9: `husky()` sets core.hooksPath to .husky/_ and writes its runner there). */
export const HUSKY = pathToFileURL(path.join(ROOT, 'node_modules/husky/index.js')).href;
/** The shared commitlint preset the commitlint baselines extend. */
export const CONVENTIONAL = fileURLToPath(import.meta.resolve('@commitlint/config-conventional'));

/** A private HOME with a global git config (identity, no signing, branch main) for every bench process. */
export function isolatedEnv(home) {
  fs.mkdirSync(home, { recursive: true });
  const globalConfig = path.join(home, '.gitconfig');
  fs.writeFileSync(
    globalConfig,
    '[user]\n\tname = Bench\n\temail = bench@hestai.invalid\n[commit]\n\tgpgsign = false\n[init]\n\tdefaultBranch = main\n' +
      '[advice]\n\tdetachedHead = false\n[gc]\n\tauto = 0\n[maintenance]\n\tauto = false\n',
  );
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('GIT_') && !key.startsWith('HESTAI_') && !key.startsWith('npm_') && key !== 'HUSKY')
      env[key] = value;
  }
  // hestai keeps no cache in a directory inside a git worktree (docs/SECURITY.md), and the cached fixtures'
  // homes live in bench/.fixtures, inside this checkout: their cache directory goes to the system temp dir.
  const inCheckout = !path.relative(ROOT, home).startsWith('..');
  const cacheHome = inCheckout
    ? path.join(os.tmpdir(), 'hestai-bench-cache', path.relative(ROOT, home).replaceAll(path.sep, '_'))
    : path.join(home, '.cache');
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: cacheHome,
    GIT_CONFIG_GLOBAL: globalConfig,
    GIT_CONFIG_NOSYSTEM: '1',
    NO_COLOR: '1',
  };
}

/** Runs a command to completion and returns stdout; throws with its output on an unexpected exit code. */
export function run(cmd, args, { cwd, env, input, expect = 0 } = {}) {
  const result = spawnSync(cmd, args, { cwd, env, input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.error) throw result.error;
  if (expect !== null && result.status !== expect) {
    throw new Error(
      `${[cmd, ...args].join(' ')} exited ${result.status} (expected ${expect}) in ${cwd}\n${result.stderr}${result.stdout}`.slice(
        0,
        4000,
      ),
    );
  }
  return result.stdout;
}

/** `git ARGS` in `cwd`. */
export function git(cwd, env, args, options = {}) {
  return run('git', args, { cwd, env, ...options });
}

/** A fresh temporary directory (real path) for mutable per-run repositories. */
export function tempDir(prefix) {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** Writes a file relative to `dir`, creating directories. */
export function write(dir, file, content) {
  const full = path.join(dir, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, content);
  return full;
}
