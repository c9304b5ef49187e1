// hestai's hook launchers load their bundle (dist/hooks/<name>.cjs) through this file: a V8 code cache in the
// user's cache directory lets each hook start skip most of the bundle's compilation (see "Speed" in the
// README). Plain CommonJS on purpose: it runs before any bundle, on every commit.
//
// The cache file for a bundle is `<user cache dir>/code/<name>-<build id>-<node version>-<arch>.bin`, where the
// user cache dir is `$XDG_CACHE_HOME/hestai`, else `$HOME/.cache/hestai` (the same rules as userCacheDir in
// src/config/cache.ts: a relative or empty value is ignored), and the build id is the one scripts/build.mjs
// stamps on the bundle's first line. It holds one header line, a copy of the bundle's bytes and V8's data twice.
// V8 itself checks only its version, its flags and the source's length, so the cache is used only when
// - the header names this format, build id, node version, architecture and V8 version,
// - the copy equals the bundle byte for byte (the exact content, no hash to compute),
// - its two copies of V8's data are equal (V8 does not check its own data in release builds: see below), and
// - the file is a regular file owned by this user, opened without following a symlink, at most MAX_BYTES;
// and V8 accepts it. Anything else (missing, truncated, corrupt, foreign, a symlink, a directory, a FIFO,
// HESTAI_CODE_CACHE=0, no usable cache directory) is a normal compile, silently: the hook's output and
// exit code are the same either way. The cache is (re)written only when it was missing or not used, after
// the hook's work (save(), called by the launcher before it sets the exit code), atomically: a temporary
// file created with O_EXCL|O_NOFOLLOW next to it, then renamed over the cache path (which replaces a
// planted symlink instead of writing through it). Any failure to write means no cache, never an error.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const FORMAT = 'hestai-code-cache 1';
const MAX_BYTES = 16 * 1024 * 1024;
const STAMP = /^\/\/hestai-build:([0-9a-f]{32})\n/;
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const WRAPPER_TAIL = '\n});';

/** What save() writes: set by load() when the bundle was compiled without a usable cache. */
let pending = null;

/**
 * `$XDG_CACHE_HOME/hestai`, else `$HOME/.cache/hestai`, else null, and null inside a git worktree (as userCacheDir
 * in src/config/cache.ts): with HOME at a repository's root, a clone's committed `.cache/hestai/code/*.bin`
 * would otherwise be run.
 */
function userCacheDir(env) {
  const xdg = env.XDG_CACHE_HOME;
  const home = env.HOME;
  const dir =
    xdg && path.isAbsolute(xdg)
      ? path.join(xdg, 'hestai')
      : home && path.isAbsolute(home)
        ? path.join(home, '.cache', 'hestai')
        : null;
  if (dir === null) return null;
  for (let d = dir; ; d = path.dirname(d)) {
    try {
      if (fs.lstatSync(path.join(d, '.git'), { throwIfNoEntry: false }) !== undefined) return null;
    } catch (error) {
      if (!error || error.code !== 'ENOTDIR') return null; // cannot tell: no cache
    }
    if (path.dirname(d) === d) return dir;
  }
}

function disabled(env) {
  const value = (env.HESTAI_CODE_CACHE || '').trim().toLowerCase();
  return value === '0' || value === 'off' || value === 'false' || value === 'no';
}

/** The cache file's bytes, or null: a regular file owned by this user, never through a symlink, bounded. */
function readCacheFile(file) {
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_BYTES || stat.size === 0) return null;
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return null;
    const bytes = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = fs.readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) return null;
      read += n;
    }
    return bytes;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function headerLine(build, sourceLength, dataLength) {
  return `${FORMAT} ${build} ${process.version} ${process.arch} ${process.versions.v8} ${sourceLength} ${dataLength}\n`;
}

// V8 checks no checksum of its own data in release builds: a flipped byte is accepted, or crashes the process.
// A checksum would have to be computed on every start, and node:zlib's crc32 costs ~3 ms to load, node:crypto ~7
// ms, a JavaScript loop over the ~150 KB ~2-3 ms: much of what the cache saves. So the file holds the data twice
// and a load compares both copies (Buffer.equals: a memcmp, ~20 µs). A torn write or a flipped byte leaves the two
// copies different (or the file shorter than its header says); only someone who can write the user's own cache
// directory could make them agree, and that user can change the user's shell startup files just as well.
/** V8's data from a cache file's bytes (header, bundle copy, data, data again) for exactly this bundle, or null. */
function cachedDataFor(bytes, build, source) {
  const end = bytes.indexOf(10);
  if (end <= 0 || end > 512) return null;
  const fields = bytes.toString('latin1', 0, end).split(' ');
  if (fields.length !== 8 || !/^[1-9][0-9]{0,8}$/.test(fields[7])) return null;
  const dataLength = Number(fields[7]);
  if (bytes.toString('latin1', 0, end + 1) !== headerLine(build, source.length, dataLength)) return null;
  const start = end + 1 + source.length;
  if (bytes.length !== start + 2 * dataLength) return null;
  if (!bytes.subarray(end + 1, start).equals(source)) return null;
  const data = bytes.subarray(start, start + dataLength);
  return data.equals(bytes.subarray(start + dataLength)) ? data : null;
}

/**
 * Loads the CommonJS bundle at `file` (an absolute path) and returns its exports: through the code cache
 * when there is one for exactly these bytes, else compiled normally. The bundle gets what Module._compile
 * gives it: (exports, require, module, __filename, __dirname) with `this` = exports, `require` from
 * module.createRequire(file) (relative requires resolve from the bundle's directory; require.main is the
 * launcher, as before), and a Module whose filename and paths are the bundle's.
 */
function load(file, env = process.env) {
  if (disabled(env)) return require(file);
  const dir = userCacheDir(env);
  let source;
  try {
    source = fs.readFileSync(file);
  } catch {
    return require(file); // the loader's own error (MODULE_NOT_FOUND...), as without a cache
  }
  const stamp = STAMP.exec(source.toString('latin1', 0, 64));
  if (dir === null || stamp === null) return require(file);
  const build = stamp[1];
  const name = path.basename(file, '.cjs');
  const cacheFile = path.join(dir, 'code', `${name}-${build}-${process.version}-${process.arch}.bin`);
  let script;
  let used = false;
  try {
    const vm = require('node:vm');
    const bytes = readCacheFile(cacheFile);
    const data = bytes === null ? null : cachedDataFor(bytes, build, source);
    const wrapper = WRAPPER_HEAD + source.toString('utf8') + WRAPPER_TAIL;
    script = new vm.Script(wrapper, data === null ? { filename: file } : { filename: file, cachedData: data });
    used = data !== null && script.cachedDataRejected === false;
  } catch {
    return require(file); // a bundle that does not compile fails exactly as it does without a cache
  }
  const Module = require('node:module');
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  const req = Module.createRequire(file);
  const compiled = script.runInThisContext({ displayErrors: true });
  compiled.call(mod.exports, mod.exports, req, mod, file, path.dirname(file));
  mod.loaded = true;
  if (!used) pending = { script, cacheFile, build, source };
  return mod.exports;
}

/**
 * Writes the cache for the bundle load() compiled without one (after the hook ran, so V8's data includes the
 * functions it compiled lazily). Never throws; a cache directory that cannot be written means no cache.
 */
function save() {
  const job = pending;
  pending = null;
  if (job === null) return;
  let tmp = null;
  let fd;
  try {
    fs.mkdirSync(path.dirname(job.cacheFile), { recursive: true, mode: 0o700 });
    const name = `${job.cacheFile}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
    const c = fs.constants;
    fd = fs.openSync(name, c.O_WRONLY | c.O_CREAT | c.O_EXCL | c.O_NOFOLLOW, 0o600);
    tmp = name; // ours from here on (never remove a file another process created)
    const data = job.script.createCachedData();
    if (data.length === 0) throw new Error('no code cache');
    const header = Buffer.from(headerLine(job.build, job.source.length, data.length), 'latin1');
    for (const part of [header, job.source, data, data]) {
      let written = 0;
      while (written < part.length) written += fs.writeSync(fd, part, written, part.length - written);
    }
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(tmp, job.cacheFile);
    tmp = null;
    sweep(path.dirname(job.cacheFile), job.cacheFile);
  } catch {
    /* no cache this time */
  } finally {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        /* already closed */
      }
    }
    if (tmp !== null) {
      try {
        fs.unlinkSync(tmp);
      } catch {
        /* never created */
      }
    }
  }
}

/**
 * After a write (rare), removes what no run will use again: caches not rewritten for 30 days (other builds, other
 * node versions; a cache still in use is simply written again once) and temporary files older than an hour (a
 * writer killed before its rename). Only regular files and symlinks named like ours, never through a symlink.
 */
function sweep(dir, keep) {
  const now = Date.now();
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    const tmp = name.endsWith('.tmp');
    if (file === keep || !(tmp || name.endsWith('.bin'))) continue;
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    if (stat === undefined || stat.isDirectory()) continue;
    if (now - stat.mtimeMs > (tmp ? 3600e3 : 30 * 86400e3)) fs.rmSync(file, { force: true });
  }
}

module.exports = { load, save };
