import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository under test (where dist/ and hooks/ live). */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The built CLI. Integration and e2e tests run it as a process (`npm test` builds first). */
export const CLI = path.join(PROJECT_ROOT, 'dist/cli/bin.js');

const cleanups: Array<() => void> = [];
/**
 * Removes the temporary directories made during the test that just ended. test/helpers/setup.ts runs it
 * after each test of every file (a hook registered here, at module level, would run only for the first
 * file of a worker that does not isolate its files).
 */
export function removeTempDirs(): void {
  while (cleanups.length > 0) cleanups.pop()!();
}

const fileCleanups: Array<() => void> = [];
/** Removes what sharedFixture kept for the test file that just ended (test/helpers/setup.ts runs it). */
export function removeFileTempDirs(): void {
  while (fileCleanups.length > 0) fileCleanups.pop()!();
}

/** Removes `dir` when the current test file ends. */
export function removeAfterFile(dir: string): void {
  fileCleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
}

/** The temporary directories a sharedFixture's build is making (null outside a build). */
let recording: string[] | null = null;

function removeAfterTest(dir: string): void {
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  recording?.push(dir);
}

/** A temporary directory removed after the current test. */
export function tempDir(prefix = 'hestai-test-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  removeAfterTest(dir);
  return dir;
}

function copyTree(from: string, to: string): void {
  const cp = spawnSync('cp', ['-a', from, to], { encoding: 'utf8' });
  if (cp.error) throw cp.error;
  if (cp.status !== 0) throw new Error(`cp -a ${from} ${to} failed (${cp.status}): ${cp.stderr}`);
}

/**
 * A fixture built once per test file and given to every test that asks for it as its own pristine copy.
 * Make it in the test file (`const fixture = sharedFixture(build)`, at the top or lazily, never in a helper
 * module a worker may keep across files) and call `fixture()` inside a test, once per test.
 * The first call runs `build` (real git, real CLI, real hooks, as the test would) and copies aside, with
 * `cp -a`, every temporary directory `build` made; each later call puts those copies back at the same
 * paths, so every absolute path inside them (git config, remotes, installed hooks, session records) holds:
 * the test starts from exactly the state `build` left, as if it had just run it. The copies are removed
 * after each test like any temporary directory, the saved ones after the file. Tests of one file run one
 * after another, so the paths are never in use twice.
 */
export function sharedFixture<T>(build: () => T): () => T {
  let saved: { value: T; dirs: string[]; store: string } | undefined;
  return () => {
    if (saved === undefined) {
      const outer = recording;
      const dirs: string[] = [];
      recording = dirs;
      let value: T;
      try {
        value = build();
      } finally {
        recording = outer;
      }
      outer?.push(...dirs);
      const kept = dirs.filter((dir) => fs.existsSync(dir));
      const store = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-fixture-')));
      kept.forEach((dir, i) => copyTree(dir, path.join(store, String(i))));
      fileCleanups.push(() => {
        fs.rmSync(store, { recursive: true, force: true });
        saved = undefined;
      });
      saved = { value, dirs: kept, store };
      return value;
    }
    const { value, dirs, store } = saved;
    dirs.forEach((dir, i) => {
      fs.rmSync(dir, { recursive: true, force: true });
      copyTree(path.join(store, String(i)), dir);
      removeAfterTest(dir);
    });
    return value;
  };
}

/**
 * An isolated environment for git and hestai processes: a private HOME and global git config (user and
 * email set, gpg signing off, default branch main, no hooksPath from the developer's machine).
 */
export function isolatedEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const globalConfig = path.join(home, '.gitconfig');
  if (!fs.existsSync(globalConfig)) {
    fs.writeFileSync(
      globalConfig,
      [
        '[user]',
        '\tname = Hestai Test',
        '\temail = test@hestai.invalid',
        '[commit]',
        '\tgpgsign = false',
        '[tag]',
        '\tgpgsign = false',
        '[init]',
        '\tdefaultBranch = main',
        '[advice]',
        '\tdetachedHead = false',
        // No `git maintenance run --auto` process after every commit, fetch and push (nothing here is big
        // enough for it to do anything): a test's git does what the test asks, one process less per commit.
        '[maintenance]',
        '\tauto = false',
        '[receive]',
        '\tautogc = false',
        '',
      ].join('\n'),
    );
  }
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // GITHUB_ACTIONS/GITHUB_EVENT_*: a test's verify must not take its base from the CI run's own event.
    // NODE_EXTRA_CA_CERTS: Node reads and parses the whole bundle at every start (40 ms of CPU for a 220 KB
    // system bundle, more than a node process takes to start without it) and nothing a test runs makes a TLS
    // connection but npm, which gets it back in npmEnv (test/helpers/packed.ts).
    if (
      !key.startsWith('GIT_') &&
      !key.startsWith('HESTAI_') &&
      ![
        'HUSKY',
        'NO_COLOR',
        'GITHUB_ACTIONS',
        'GITHUB_EVENT_NAME',
        'GITHUB_EVENT_PATH',
        'NODE_EXTRA_CA_CERTS',
      ].includes(key)
    )
      env[key] = value;
  }
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    GIT_CONFIG_GLOBAL: globalConfig,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Hestai Test',
    GIT_AUTHOR_EMAIL: 'test@hestai.invalid',
    GIT_COMMITTER_NAME: 'Hestai Test',
    GIT_COMMITTER_EMAIL: 'test@hestai.invalid',
    // A fresh HOME has no record of npm's last update check: without this, the first npm or npx of every test
    // asks the registry for npm's latest version (and may print a notice).
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

export interface RunResult {
  status: number;
  stdout: string;
  stderr: string;
}

function toResult(result: SpawnSyncReturns<string>): RunResult {
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

export interface TempRepo {
  /** The worktree root (real path). */
  dir: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** Runs git in the repository; throws on a non-zero exit unless `allowFail`. */
  git(
    args: string[],
    options?: { allowFail?: boolean; env?: NodeJS.ProcessEnv; input?: string; cwd?: string },
  ): RunResult;
  /** Writes a file (creating directories) relative to the root. */
  write(file: string, content: string): string;
  /** Stages the given files (default: all) and commits with `message`, hooks skipped. Returns the sha. */
  commit(message: string, files?: Record<string, string>): string;
  /** Runs the built `hestai` CLI in the repository. */
  hestai(args: string[], options?: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string }): RunResult;
}

/** Makes a real temporary git repository (branch main, identity set, gpg off), removed after the test. */
export function makeRepo(options: { initialCommit?: boolean } = {}): TempRepo {
  const base = tempDir('hestai-repo-');
  fs.mkdirSync(path.join(base, 'home'));
  fs.mkdirSync(path.join(base, 'repo'));
  const repo = repoIn(base);
  repo.git(['init', '-q', '-b', 'main']);
  if (options.initialCommit !== false) repo.commit('chore: initial commit', { 'README.md': '# temp\n' });
  return repo;
}

const templates = new Map<string, string>();

/**
 * The repository `build` makes (from makeRepo), made once per test file under `key`; every later call
 * gets a copy (`cp -a` of its worktree, git dir and home) in a new temporary directory. Only for
 * repositories that hold no absolute path of their own (no remote, no session records): use
 * sharedFixture for those.
 */
export function templateRepo(key: string, build: () => TempRepo): TempRepo {
  const template = templates.get(key);
  if (template === undefined) {
    const repo = build();
    const store = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-template-')));
    copyTree(path.dirname(repo.dir), path.join(store, 'base'));
    templates.set(key, path.join(store, 'base'));
    fileCleanups.push(() => {
      fs.rmSync(store, { recursive: true, force: true });
      templates.delete(key);
    });
    return repo;
  }
  const base = tempDir('hestai-repo-');
  fs.rmdirSync(base);
  copyTree(template, base);
  return repoIn(base);
}

/** The TempRepo whose home and worktree are `base`/home and `base`/repo. */
function repoIn(base: string): TempRepo {
  const home = path.join(base, 'home');
  const dir = path.join(base, 'repo');
  const env = isolatedEnv(home);
  const repo: TempRepo = {
    dir,
    home,
    env,
    git(args, opts = {}) {
      const result = toResult(
        spawnSync('git', args, {
          cwd: opts.cwd ?? dir,
          env: { ...env, ...opts.env },
          encoding: 'utf8',
          input: opts.input,
        }),
      );
      if (!opts.allowFail && result.status !== 0) {
        throw new Error(`git ${args.join(' ')} failed (${result.status}): ${result.stderr}${result.stdout}`);
      }
      return result;
    },
    write(file, content) {
      const full = path.join(dir, file);
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, content);
      return full;
    },
    commit(message, files = {}) {
      for (const [file, content] of Object.entries(files)) repo.write(file, content);
      repo.git(['add', '-A']);
      // Past every hook, as an attacker or a machine without hooks: --no-verify still runs prepare-commit-msg.
      repo.git(['-c', 'core.hooksPath=/dev/null', 'commit', '--no-verify', '--allow-empty', '-q', '-m', message]);
      return repo.git(['rev-parse', 'HEAD']).stdout.trim();
    },
    hestai(args, opts = {}) {
      return runCli(args, { cwd: opts.cwd ?? dir, env: { ...env, ...opts.env }, input: opts.input });
    },
  };
  return repo;
}

/** Runs the built CLI as a process. */
export function runCli(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string }): RunResult {
  return toResult(
    spawnSync(process.execPath, [CLI, ...args], {
      cwd: options.cwd,
      env: options.env ?? isolatedEnv(tempDir('hestai-home-')),
      encoding: 'utf8',
      input: options.input,
    }),
  );
}

/**
 * `main` and `feat/x` pushed to a new bare remote, then `hestai verify --format json` run in a fresh clone of
 * `feat/x`, as CI does.
 */
export function verifyFeatInFreshClone<Report>(repo: TempRepo): { status: number; report: Report } {
  const remote = path.join(tempDir('hestai-remote-'), 'origin.git');
  repo.git(['init', '-q', '--bare', remote]);
  repo.git(['push', '-q', remote, 'main', 'feat/x']);
  const clone = path.join(tempDir('hestai-ci-'), 'clone');
  repo.git(['clone', '-q', '--branch', 'feat/x', `file://${remote}`, clone]);
  const result = repo.hestai(['verify', '--format', 'json'], { cwd: clone });
  return { status: result.status, report: JSON.parse(result.stdout) as Report };
}
