import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchoredRepo } from '../helpers/anchored-repo.js';
import { makeRepo, PROJECT_ROOT, tempDir, type RunResult, type TempRepo } from '../helpers/git-repo.js';

// The hook launchers load their bundles through a V8 code cache in the user's cache directory
// (hooks/code-cache.cjs). Real hooks installed by `hestai init --no-husky`, real `git commit`s: the cache
// appears after the first commit and is used (not rewritten) by the next; whatever is at the cache path
// (corrupt, truncated, foreign, for other bytes, a symlink, a directory, another user's file) the hook
// judges exactly as with HESTAI_CODE_CACHE=0, and nothing outside the cache directory is written.

/** A repository with the hooks installed and no session: every commit is blocked by pre-commit. */
function blockedRepo(): TempRepo {
  const repo = makeRepo();
  expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
  return repo;
}

const codeDir = (xdg: string) => path.join(xdg, 'hestai', 'code');
const listing = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);
const cacheOf = (xdg: string, hook: string) => {
  const names = listing(codeDir(xdg)).filter((n) => n.startsWith(`${hook}-`) && n.endsWith('.bin'));
  expect(names, `one ${hook} cache in ${codeDir(xdg)}`).toHaveLength(1);
  return path.join(codeDir(xdg), names[0]!);
};
const identity = (file: string) => {
  const stat = fs.lstatSync(file);
  return { ino: stat.ino, mtime: stat.mtimeMs, bytes: fs.readFileSync(file).toString('base64') };
};
const outcome = (r: RunResult) => ({ status: r.status, stdout: r.stdout, stderr: r.stderr });

function commitTry(repo: TempRepo, env: NodeJS.ProcessEnv, message = 'chore: try') {
  repo.write('notes/n.md', `${Math.random()}\n`);
  repo.git(['add', '-A']);
  return outcome(repo.git(['commit', '-q', '-m', message], { allowFail: true, env }));
}

/** The bundle's header line fields and where its parts start (header, bundle copy, data, data again). */
function layout(file: string) {
  const bytes = fs.readFileSync(file);
  const end = bytes.indexOf(10);
  const fields = bytes.toString('latin1', 0, end).split(' ');
  const sourceLength = Number(fields[fields.length - 2]);
  const dataLength = Number(fields[fields.length - 1]);
  return { bytes, end, sourceLength, dataLength, data: end + 1 + sourceLength };
}

describe('the hooks V8 code cache', () => {
  it('the first commit writes a cache for pre-commit in the user cache dir; the next uses it without rewriting; output identical to HESTAI_CODE_CACHE=0', () => {
    const repo = blockedRepo();
    const xdg = tempDir('hestai-xdg-');
    const env = { XDG_CACHE_HOME: xdg };
    const first = commitTry(repo, env);
    expect(first.status).toBe(1);
    expect(first.stderr).toContain('no active session');
    const file = cacheOf(xdg, 'pre-commit');
    const build = /^\/\/hestai-build:([0-9a-f]{32})\n/.exec(
      fs.readFileSync(path.join(PROJECT_ROOT, 'dist/hooks/pre-commit.cjs'), 'latin1'),
    )?.[1];
    expect(path.basename(file)).toBe(`pre-commit-${build}-${process.version}-${process.arch}.bin`);
    expect(fs.statSync(file).mode & 0o077).toBe(0);
    const written = identity(file);

    const second = commitTry(repo, env);
    expect(second).toEqual(first);
    expect(identity(file)).toEqual(written);
    const off = commitTry(repo, { ...env, HESTAI_CODE_CACHE: '0' });
    expect(off).toEqual(first);
    expect(identity(file)).toEqual(written);
    expect(listing(codeDir(xdg))).toEqual([path.basename(file)]);
    // Never inside the repository.
    expect(repo.git(['status', '--porcelain', '--ignored']).stdout).not.toMatch(/\.bin/);
  });

  it('an anchored commit passes through both hooks from their caches, with the output of HESTAI_CODE_CACHE=0', () => {
    const repo = anchoredRepo();
    repo.git(['checkout', '-q', '-b', 'docs/x']);
    repo.anchor();
    const xdg = tempDir('hestai-xdg-');
    const run = (extra: NodeJS.ProcessEnv) => {
      const made = outcome(
        repo.commitHooked('docs: cached hooks', { 'docs/a.md': 'a\n' }, { XDG_CACHE_HOME: xdg, ...extra }),
      );
      repo.git(['reset', '-q', '--soft', 'HEAD~1']);
      return made;
    };
    const first = run({});
    expect(first.status, first.stderr).toBe(0);
    const pre = cacheOf(xdg, 'pre-commit');
    const msg = cacheOf(xdg, 'commit-msg');
    const written = [identity(pre), identity(msg)];
    expect(run({})).toEqual(first);
    expect([identity(pre), identity(msg)]).toEqual(written);
    expect(run({ HESTAI_CODE_CACHE: '0' })).toEqual(first);
  });

  it('the Claude Code hook and the pre-push hook load from their own caches too', () => {
    const repo = makeRepo();
    const init = repo.hestai(['init', '--no-husky', '--agent', 'claude-code']);
    expect(init.status, init.stderr).toBe(0);
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
    const settings = JSON.parse(fs.readFileSync(path.join(repo.dir, '.claude/settings.json'), 'utf8')) as {
      hooks: { PreToolUse: { hooks: { command: string }[] }[] };
    };
    const command = settings.hooks.PreToolUse[0]!.hooks[0]!.command;
    const xdg = tempDir('hestai-xdg-');
    const edit = (extra: NodeJS.ProcessEnv = {}) => {
      const result = spawnSync('sh', ['-c', command], {
        cwd: repo.dir,
        env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir, XDG_CACHE_HOME: xdg, ...extra },
        input: JSON.stringify({
          session_id: 'cache-test',
          cwd: repo.dir,
          hook_event_name: 'PreToolUse',
          tool_name: 'Edit',
          tool_input: { file_path: path.join(repo.dir, 'README.md'), old_string: 'a', new_string: 'b' },
        }),
        encoding: 'utf8',
      });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    };
    const first = edit();
    expect(first.status).toBe(2); // no session: the edit is refused
    const file = cacheOf(xdg, 'claude-code');
    const written = identity(file);
    expect(edit()).toEqual(first);
    expect(identity(file)).toEqual(written);
    expect(edit({ HESTAI_CODE_CACHE: '0' })).toEqual(first);

    const anchored = anchoredRepo();
    anchored.git(['checkout', '-q', '-b', 'docs/x']);
    anchored.anchor();
    const pushXdg = tempDir('hestai-xdg-');
    const push = (n: number) => {
      expect(anchored.commitHooked(`docs: note ${n}`, { [`docs/${n}.md`]: 'n\n' }).status).toBe(0);
      return anchored.git(['push', '-q', 'origin', 'docs/x'], { allowFail: true, env: { XDG_CACHE_HOME: pushXdg } });
    };
    expect(push(1).status).toBe(0);
    const pushed = identity(cacheOf(pushXdg, 'pre-push'));
    expect(push(2).status).toBe(0);
    expect(identity(cacheOf(pushXdg, 'pre-push'))).toEqual(pushed);
  });

  it('a cached bundle still requires its sibling bundles (the config validation on a changed workspace file)', () => {
    const repo = blockedRepo();
    const xdg = tempDir('hestai-xdg-');
    commitTry(repo, { XDG_CACHE_HOME: xdg });
    const written = identity(cacheOf(xdg, 'pre-commit'));
    repo.write('.hestai_workspace.yaml', 'tdd:\n  policy: sometimes\n');
    const cached = commitTry(repo, { XDG_CACHE_HOME: xdg });
    expect(cached.status).toBe(1); // git's status for any failing hook (the hook exits 2)
    expect(cached.stderr).toContain('tdd.policy: Invalid option');
    expect(identity(cacheOf(xdg, 'pre-commit'))).toEqual(written);
    // The config cache is keyed by the text: a fresh cache dir without a code cache validates it again.
    expect(commitTry(repo, { XDG_CACHE_HOME: tempDir('hestai-xdg-'), HESTAI_CODE_CACHE: '0' })).toEqual(cached);
  });

  it('a corrupt, truncated, empty, garbage, foreign or other-build cache file is not used: the hook judges as without a cache and the file is replaced', () => {
    const repo = blockedRepo();
    const xdg = tempDir('hestai-xdg-');
    const expected = commitTry(repo, { XDG_CACHE_HOME: xdg, HESTAI_CODE_CACHE: '0' });
    expect(expected.status).toBe(1);
    commitTry(repo, { XDG_CACHE_HOME: xdg });
    const file = cacheOf(xdg, 'pre-commit');
    const valid = fs.readFileSync(file);
    const { end, data, dataLength } = layout(file);
    const flip = (at: number) => {
      const copy = Buffer.from(valid);
      copy[at] = copy[at]! ^ 0xff;
      return copy;
    };
    const variants: Record<string, Buffer> = {
      // V8 checks no checksum of its own: this byte flipped crashes a process that uses the data.
      'a flipped byte early in the data': flip(data + 30),
      'a flipped byte in the middle of the data': flip(data + (dataLength >> 1)),
      'a flipped byte in the second copy': flip(valid.length - 10),
      'a flipped byte in the bundle copy': flip(end + 100),
      'truncated by one byte': valid.subarray(0, valid.length - 1),
      'truncated to half': valid.subarray(0, valid.length >> 1),
      empty: Buffer.alloc(0),
      'garbage of the same size': Buffer.from(valid.map((_, i) => (i * 7919 + 13) & 0xff)),
      'another build id in the header': Buffer.from(
        valid.toString('latin1').replace(/^(hestai-code-cache \S+ )[0-9a-f]{32}/, `$1${'0'.repeat(32)}`),
        'latin1',
      ),
      'another node version in the header': Buffer.from(
        valid.toString('latin1').replace(process.version, 'v1.0.0'),
        'latin1',
      ),
      'data V8 rejects (two equal copies of garbage)': Buffer.concat([
        valid.subarray(0, data),
        Buffer.alloc(dataLength * 2, 1),
      ]),
    };
    for (const [name, bytes] of Object.entries(variants)) {
      fs.writeFileSync(file, bytes);
      expect(commitTry(repo, { XDG_CACHE_HOME: xdg }), name).toEqual(expected);
      // Replaced by a valid cache: the next commit uses it and does not rewrite it.
      const replaced = identity(file);
      expect(replaced.bytes, name).not.toBe(bytes.toString('base64'));
      expect(commitTry(repo, { XDG_CACHE_HOME: xdg }), name).toEqual(expected);
      expect(identity(file), name).toEqual(replaced);
    }
  });

  it('a bundle whose bytes changed (same length, same build id) never runs the old cache', () => {
    // A copy of the package's hooks/ and dist/hooks/ (the test must not edit the shared dist/).
    const pkg = tempDir('hestai-pkg-');
    fs.cpSync(path.join(PROJECT_ROOT, 'hooks'), path.join(pkg, 'hooks'), { recursive: true });
    fs.mkdirSync(path.join(pkg, 'dist/hooks'), { recursive: true });
    for (const name of fs.readdirSync(path.join(PROJECT_ROOT, 'dist/hooks')).filter((n) => n.endsWith('.cjs')))
      fs.copyFileSync(path.join(PROJECT_ROOT, 'dist/hooks', name), path.join(pkg, 'dist/hooks', name));
    const repo = blockedRepo();
    const hookFile = path.join(repo.dir, '.git/hooks/pre-commit');
    fs.writeFileSync(
      hookFile,
      fs.readFileSync(hookFile, 'utf8').split(path.join(PROJECT_ROOT, 'hooks')).join(path.join(pkg, 'hooks')),
    );
    const xdg = tempDir('hestai-xdg-');
    const before = commitTry(repo, { XDG_CACHE_HOME: xdg });
    expect(before.stderr).toContain('no active session in this worktree');
    const cache = cacheOf(xdg, 'pre-commit');

    const bundle = path.join(pkg, 'dist/hooks/pre-commit.cjs');
    const text = fs.readFileSync(bundle, 'utf8');
    expect(text).toContain('no active session in this worktree');
    fs.writeFileSync(bundle, text.replace('no active session in this worktree', 'NO ACTIVE SESSION IN THIS WORKTREE'));
    const after = commitTry(repo, { XDG_CACHE_HOME: xdg });
    expect(after.status).toBe(1);
    expect(after.stderr).toContain('NO ACTIVE SESSION IN THIS WORKTREE');
    expect(cacheOf(xdg, 'pre-commit')).toBe(cache);
    expect(layout(cache).bytes.includes('NO ACTIVE SESSION IN THIS WORKTREE')).toBe(true); // rewritten for the new bytes
  });

  it('attack: a symlink planted at the cache path is neither read nor written through; the hook judges correctly', () => {
    const repo = blockedRepo();
    const xdg = tempDir('hestai-xdg-');
    const expected = commitTry(repo, { XDG_CACHE_HOME: xdg, HESTAI_CODE_CACHE: '0' });
    commitTry(repo, { XDG_CACHE_HOME: xdg });
    const file = cacheOf(xdg, 'pre-commit');
    const outside = tempDir('hestai-victim-');
    // A link to a file the user cares about, and a link to a valid cache (never followed either).
    const victim = path.join(outside, 'bashrc');
    fs.writeFileSync(victim, 'export PS1=victim\n');
    const validCopy = path.join(outside, 'valid.bin');
    fs.copyFileSync(file, validCopy);
    for (const target of [victim, validCopy]) {
      const kept = fs.readFileSync(target);
      fs.rmSync(file);
      fs.symlinkSync(target, file);
      expect(commitTry(repo, { XDG_CACHE_HOME: xdg })).toEqual(expected);
      expect(fs.readFileSync(target).equals(kept)).toBe(true);
      expect(fs.lstatSync(file).isFile()).toBe(true); // the link itself was replaced
    }
  });

  it('a directory or a FIFO at the cache path: the hook judges correctly at once', () => {
    const repo = blockedRepo();
    const xdg = tempDir('hestai-xdg-');
    const expected = commitTry(repo, { XDG_CACHE_HOME: xdg, HESTAI_CODE_CACHE: '0' });
    commitTry(repo, { XDG_CACHE_HOME: xdg });
    const file = cacheOf(xdg, 'pre-commit');
    fs.rmSync(file);
    fs.mkdirSync(path.join(file, 'inside'), { recursive: true });
    expect(commitTry(repo, { XDG_CACHE_HOME: xdg })).toEqual(expected);
    expect(fs.statSync(file).isDirectory()).toBe(true);
    fs.rmSync(file, { recursive: true });
    expect(spawnSync('mkfifo', [file]).status).toBe(0);
    expect(commitTry(repo, { XDG_CACHE_HOME: xdg })).toEqual(expected); // never opened for a blocking read
  });

  it.skipIf(typeof process.getuid !== 'function' || process.getuid() !== 0)(
    'attack: a cache file owned by another user (a shared cache directory) is not used',
    () => {
      const repo = blockedRepo();
      const xdg = tempDir('hestai-xdg-');
      const expected = commitTry(repo, { XDG_CACHE_HOME: xdg, HESTAI_CODE_CACHE: '0' });
      commitTry(repo, { XDG_CACHE_HOME: xdg });
      const file = cacheOf(xdg, 'pre-commit');
      fs.chownSync(file, 4242, 4242);
      expect(commitTry(repo, { XDG_CACHE_HOME: xdg })).toEqual(expected);
      expect(fs.statSync(file).uid).toBe(process.getuid!()); // replaced by this user's own
    },
  );

  it('an unwritable cache directory, a relative XDG_CACHE_HOME or HESTAI_CODE_CACHE=0: no cache, never in the worktree, same judgement', () => {
    const repo = blockedRepo();
    const xdg = tempDir('hestai-xdg-');
    const expected = commitTry(repo, { XDG_CACHE_HOME: xdg, HESTAI_CODE_CACHE: '0' });
    expect(listing(codeDir(xdg))).toEqual([]);
    // `hestai` under XDG_CACHE_HOME is a file: the cache directory cannot be made.
    const blocked = tempDir('hestai-xdg-');
    fs.writeFileSync(path.join(blocked, 'hestai'), 'not a directory\n');
    expect(commitTry(repo, { XDG_CACHE_HOME: blocked })).toEqual(expected);
    expect(commitTry(repo, { XDG_CACHE_HOME: blocked })).toEqual(expected);
    expect(fs.readdirSync(blocked)).toEqual(['hestai']);
    // A relative XDG_CACHE_HOME is ignored (as for every hestai cache): $HOME/.cache/hestai, never the worktree.
    expect(commitTry(repo, { XDG_CACHE_HOME: 'cache' })).toEqual(expected);
    expect(fs.existsSync(path.join(repo.dir, 'cache'))).toBe(false);
    expect(listing(codeDir(path.join(repo.home, '.cache'))).length).toBe(1);
    expect(repo.git(['status', '--porcelain', '--ignored']).stdout).not.toMatch(/\.bin|cache\//);
  });

  it('a cache write sweeps caches not rewritten for 30 days and temporary files of killed writers, nothing else', () => {
    const repo = blockedRepo();
    const xdg = tempDir('hestai-xdg-');
    const dir = codeDir(xdg);
    fs.mkdirSync(dir, { recursive: true });
    const plant = (name: string, ageDays: number) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, 'x');
      const when = new Date(Date.now() - ageDays * 86400e3);
      fs.utimesSync(file, when, when);
      return name;
    };
    const oldBuild = plant(`pre-commit-${'1'.repeat(32)}-v20.0.0-x64.bin`, 40);
    const oldTmp = plant(`pre-commit-${'2'.repeat(32)}-v20.0.0-x64.bin.123.abc.tmp`, 1);
    const recent = plant(`commit-msg-${'3'.repeat(32)}-v20.0.0-x64.bin`, 10);
    const freshTmp = plant(`commit-msg-${'4'.repeat(32)}-v20.0.0-x64.bin.456.def.tmp`, 0);
    const other = plant('notes.txt', 400);
    fs.mkdirSync(path.join(dir, 'old.bin'));
    commitTry(repo, { XDG_CACHE_HOME: xdg });
    const left = listing(dir);
    expect(left).not.toContain(oldBuild);
    expect(left).not.toContain(oldTmp);
    for (const kept of [recent, freshTmp, other, 'old.bin', path.basename(cacheOf(xdg, 'pre-commit'))])
      expect(left).toContain(kept);
  });

  it('hooks writing the same cache at once leave one valid cache and no temporary file', async () => {
    const xdg = tempDir('hestai-xdg-');
    const repos = [blockedRepo(), blockedRepo(), blockedRepo()];
    for (const repo of repos) {
      repo.write('notes/n.md', 'x\n');
      repo.git(['add', '-A']);
    }
    const results = await Promise.all(
      repos.map(
        (repo) =>
          new Promise<number | null>((resolve) => {
            const child = spawn('git', ['commit', '-q', '-m', 'chore: at once'], {
              cwd: repo.dir,
              env: { ...repo.env, XDG_CACHE_HOME: xdg },
              stdio: 'ignore',
            });
            child.on('close', resolve);
          }),
      ),
    );
    expect(results).toEqual([1, 1, 1]);
    const file = cacheOf(xdg, 'pre-commit');
    expect(listing(codeDir(xdg))).toEqual([path.basename(file)]);
    const written = identity(file);
    expect(commitTry(repos[0]!, { XDG_CACHE_HOME: xdg }).status).toBe(1);
    expect(identity(file)).toEqual(written); // valid: used, not rewritten
  });
});
