import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withLock } from '../../src/state/store.js';
import { npmEnv, runnerEnv } from './packed.js';

// Programs the tests run but the project does not depend on (the agent runtimes, lefthook): npm installs each
// at its pinned version into a cache shared by test files and runs, once (a lock makes other workers wait for
// that install). Where the registry cannot be reached the program is missing and its tests are skipped with a
// message; in CI (CI=true) that is an error, so CI never passes by skipping them.

/** A program from npm, pinned. */
export interface PinnedTool {
  /** The package, e.g. `@openai/codex`. */
  pkg: string;
  /** The exact version the tests run. */
  version: string;
  /** Its program in node_modules/.bin. */
  bin: string;
  /** Install scripts in its tree to run (true) or refuse (false): package.json's `allowScripts`. */
  allowScripts?: Record<string, boolean>;
}

export interface InstallOptions {
  /** The cache directory (default: toolCache()). */
  cache?: string;
  /** Variables over npm's environment (npmEnv). */
  env?: NodeJS.ProcessEnv;
  /** Where progress and skip messages go (default: stderr). */
  log?: (line: string) => void;
}

/** HESTAI_TOOL_CACHE, else hestai-hooks/tools in the user's cache directory (not the tests' private HOME). */
export function toolCache(): string {
  const env = runnerEnv();
  if (env['HESTAI_TOOL_CACHE']) return path.resolve(env['HESTAI_TOOL_CACHE']);
  const base = env['XDG_CACHE_HOME'] || path.join(env['HOME'] || os.userInfo().homedir, '.cache');
  return path.join(base, 'hestai-hooks', 'tools');
}

/** Network failures: npm never reached the registry (as opposed to an answer such as E404). */
const UNREACHABLE = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ENETWORK)\b/;

/**
 * The absolute path of the pinned program, installed into the cache if it is not there yet; null (with a
 * message) when the registry cannot be reached outside CI. Any other failure throws.
 */
export async function installPinned(tool: PinnedTool, options: InstallOptions = {}): Promise<string | null> {
  const cache = options.cache ?? toolCache();
  const spec = `${tool.pkg}@${tool.version}`;
  const dir = path.join(cache, spec.replace('/', '+'));
  const bin = path.join(dir, 'node_modules', '.bin', tool.bin);
  if (fs.existsSync(bin)) return bin;
  const log = options.log ?? ((line: string) => process.stderr.write(line));
  // Where the registry cannot be reached npm retries twice, after 10 s and 60 s by default: 2 s and 10 s here.
  const retries = { npm_config_fetch_retry_mintimeout: '2000', npm_config_fetch_retry_maxtimeout: '10000' };
  const env = { ...npmEnv(process.env), ...retries, ...options.env };
  // Installs take minutes on an empty npm cache: wait that long for another worker's.
  return withLock(`${dir}.lock`, () => (fs.existsSync(bin) ? bin : install(tool, dir, env, log)), {
    timeoutMs: 20 * 60_000,
  });
}

/** `npm install` into a staging directory renamed to `dir` once complete: `dir` exists only whole. */
async function install(
  tool: PinnedTool,
  dir: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<string | null> {
  const spec = `${tool.pkg}@${tool.version}`;
  log(`[npm-tool] installing ${spec} into ${dir}\n`);
  // Under the lock no other install of this version runs: a staging directory here is one a killed install left.
  const leftover = (name: string) => name.startsWith(`${path.basename(dir)}.tmp-`);
  for (const name of fs.readdirSync(path.dirname(dir)).filter(leftover))
    fs.rmSync(path.join(path.dirname(dir), name), { recursive: true, force: true });
  const staging = `${dir}.tmp-${randomBytes(4).toString('hex')}`;
  fs.mkdirSync(staging);
  try {
    const manifest = { private: true, allowScripts: tool.allowScripts ?? {} };
    fs.writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const run = await npm(['install', '--no-audit', '--no-fund', '--save-exact', spec], staging, env);
    if (run.status !== 0) {
      const code = UNREACHABLE.exec(run.output)?.[1];
      if (code === undefined) throw new Error(`npm install ${spec} failed (exit ${run.status}):\n${run.output}`);
      const why = `${spec}: npm cannot reach the npm registry (${code})`;
      if (env['CI'] === 'true')
        throw new Error(`${why}; in CI (CI=true) the tests that run it must not be skipped:\n${run.output}`);
      log(`[npm-tool] ${why}: its tests are skipped. They run once npm reaches the registry.\n`);
      return null;
    }
    const installed = path.join(staging, 'node_modules', '.bin', tool.bin);
    if (!fs.existsSync(installed)) throw new Error(`npm install ${spec} gave no program ${tool.bin}:\n${run.output}`);
    fs.renameSync(staging, dir);
    return path.join(dir, 'node_modules', '.bin', tool.bin);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Runs npm without blocking the event loop (an install takes minutes); its output, both streams. */
function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}
