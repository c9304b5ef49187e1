import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, inject } from 'vitest';
import { PROJECT_ROOT, removeAfterFile } from './git-repo.js';

// The package as a new user gets it: `npm pack` run (with its lifecycle scripts) in a copy of this checkout's
// files that has no dist/ and no .git (what a clean clone has, minus git), with the dependencies `npm ci`
// would give; then `npm install <tarball>` into a temporary repository, as the README says.

export interface Packed {
  /** The directory holding the copy and the tarball; remove it when done. */
  work: string;
  /** The copy `npm pack` ran in. */
  checkout: string;
  tarball: string;
  /** npm pack's output (its lifecycle scripts print here). */
  output: string;
}

/**
 * Copies the files git knows (tracked and untracked, not ignored) of this checkout, then runs `npm pack` in it,
 * in a new directory under `parent`.
 */
export function packCleanCopy(parent = os.tmpdir()): Packed {
  const work = fs.realpathSync(fs.mkdtempSync(path.join(parent, 'hestai-clean-pack-')));
  const checkout = path.join(work, 'hestai-hooks');
  const list = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
  });
  expect(list.status, list.stderr).toBe(0);
  for (const file of list.stdout.split('\0').filter(Boolean)) {
    const from = path.join(PROJECT_ROOT, file);
    if (!fs.existsSync(from)) continue; // deleted in the worktree, not yet committed
    fs.mkdirSync(path.dirname(path.join(checkout, file)), { recursive: true });
    fs.copyFileSync(from, path.join(checkout, file));
    fs.chmodSync(path.join(checkout, file), fs.statSync(from).mode);
  }
  expect(fs.existsSync(path.join(checkout, 'dist'))).toBe(false);
  fs.symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(checkout, 'node_modules'));
  const pack = spawnSync('npm', ['pack', '--pack-destination', work], {
    cwd: checkout,
    env: npmEnv(process.env),
    encoding: 'utf8',
  });
  const output = `${pack.stdout}${pack.stderr}`;
  expect(pack.status, output).toBe(0);
  const tarballs = fs.readdirSync(work).filter((f) => f.endsWith('.tgz'));
  expect(tarballs, output).toHaveLength(1);
  return { work, checkout, tarball: path.join(work, tarballs[0]!), output };
}

/**
 * The clean copy packed once per test run and shared by every file that asks (the pack builds dist/ again, a
 * tsc and esbuild run each time): the first caller packs under a lock in the run's directory
 * (test/helpers/run-dir.ts), the others wait for it. It is the run's: read it, copy the tarball, never change it
 * (untar into a directory of your own). The run removes it when it ends. A runner without the run directory
 * packs per file (removed after the file).
 */
export function sharedCleanPack(): Packed {
  const runDir = inject('testRunDir');
  if (runDir === undefined) {
    const packed = packCleanCopy();
    removeAfterFile(packed.work);
    return packed;
  }
  const result = path.join(runDir, 'clean-pack.json');
  try {
    fs.mkdirSync(path.join(runDir, 'clean-pack.lock'));
  } catch {
    return waitForPack(result);
  }
  let outcome: Packed | { error: string } = { error: 'the packing process ended without a result' };
  try {
    outcome = packCleanCopy(runDir);
    return outcome;
  } catch (error) {
    outcome = { error: error instanceof Error ? error.message : String(error) };
    throw error;
  } finally {
    fs.writeFileSync(`${result}.tmp`, JSON.stringify(outcome));
    fs.renameSync(`${result}.tmp`, result);
  }
}

/** The shared pack another test process is making, once it is written (at most 10 minutes). */
function waitForPack(result: string): Packed {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (const end = Date.now() + 600_000; Date.now() < end; Atomics.wait(sleeper, 0, 0, 200)) {
    if (!fs.existsSync(result)) continue;
    const outcome = JSON.parse(fs.readFileSync(result, 'utf8')) as Packed | { error: string };
    if ('error' in outcome) throw new Error(`the shared npm pack failed in another test file: ${outcome.error}`);
    return outcome;
  }
  throw new Error(`no shared npm pack after 10 minutes: ${result} was never written`);
}

/** The environment the test run started in (test/helpers/setup.ts keeps it; a test process gets a private HOME). */
export function runnerEnv(): NodeJS.ProcessEnv {
  return (
    (globalThis as { [key: symbol]: NodeJS.ProcessEnv | undefined })[Symbol.for('hestai.test-original-env')] ??
    process.env
  );
}

/**
 * npm's environment for a test: the developer's npm cache (the tests' HOME is private), offline first,
 * lifecycle scripts in the foreground so any that runs shows in the output.
 */
export function npmEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const runner = runnerEnv();
  const cache = spawnSync('npm', ['config', 'get', 'cache'], { env: runner, encoding: 'utf8' }).stdout.trim();
  const clean: NodeJS.ProcessEnv = {};
  // npm run/npx export npm_* variables describing *this* package; a nested npm must not inherit them.
  for (const [key, value] of Object.entries(env)) if (!/^npm_/i.test(key)) clean[key] = value;
  // The extra CA bundle of the environment the run started in (isolatedEnv leaves it out): npm may need it to
  // reach the registry through a proxy.
  const extraCa = runner['NODE_EXTRA_CA_CERTS'] ?? env['NODE_EXTRA_CA_CERTS'];
  return {
    ...clean,
    ...(extraCa === undefined ? {} : { NODE_EXTRA_CA_CERTS: extraCa }),
    npm_config_cache: cache,
    npm_config_prefer_offline: 'true',
    npm_config_foreground_scripts: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}

/** The file names a tarball holds. */
export function tarballFiles(tarball: string): string[] {
  const list = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
  expect(list.status, list.stderr).toBe(0);
  return list.stdout.split('\n').filter(Boolean);
}

/** The lines of the first ```sh block after `heading` in the README (comments and all, as a user copies them). */
export function readmeBlock(heading: string, readme = fs.readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8')) {
  const at = readme.indexOf(heading);
  expect(at, `README has no "${heading}"`).toBeGreaterThanOrEqual(0);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  expect(block, `no sh block after "${heading}"`).not.toBeNull();
  return block![1]!.split('\n').filter((line) => line.trim() !== '');
}
