import fs from 'node:fs';
import path from 'node:path';
import type { WorkspacePaths } from '../paths.js';
import { writeJsonAtomic } from '../state/store.js';
import { sha256Hash, sha256Hex } from '../util/sha256.js';

/**
 * The trust decision (issue 12, item 2; docs/design.md "A repository is untrusted until trusted"), like direnv's
 * `allow`. A cloned repository may configure rules, but what it can make the tool *do* (run commands:
 * `quality_gates`, protocol `command` gates; send data out: `ai.base_url`, `ai.api_key_env`, a committed
 * `.env` naming an endpoint) is inert until the user trusts that exact content with `hestai trust`.
 *
 * API (small on purpose; free of zod and yaml, so hooks may call it):
 * - `trustState(paths, env)`: `{status: 'trusted' | 'untrusted' | 'changed', sha256, record, ...}`
 * - `isTrusted(paths, env)`: `trustState(...).status === 'trusted'`
 * - `trustWorkspace(paths, env, now)` / `revokeTrust(paths, env)`: what `hestai trust [--revoke]` does
 * - `gateEnvironment(env)`: the minimal environment a trusted command runs with
 *
 * What is hashed: the content of every file in `TRUSTED_FILES` (a missing file counts as "absent", so
 * creating one changes the hash). Where it is recorded: `$HOME/.hestai/trust/<sha256 of the worktree's
 * real path>.json`, outside every repository; without HOME nothing is ever trusted.
 */

/** The repository files whose content a trust decision covers (worktree-relative). */
export const TRUSTED_FILES = ['.hestai_workspace.yaml', '.hestai/protocol.yaml'] as const;

/** How to trust, for messages. */
export const TRUST_REMEDY =
  'Review .hestai_workspace.yaml (and .hestai/protocol.yaml), then run `hestai trust` to allow exactly this content.';

export interface TrustRecord {
  root: string;
  sha256: string;
  files: string[];
  trusted_at: string;
}

export interface TrustState {
  /** `trusted`: recorded for this exact content; `changed`: trusted before, content differs now. */
  status: 'trusted' | 'untrusted' | 'changed';
  root: string;
  /** Hash of the current content of TRUSTED_FILES. */
  sha256: string;
  /** The files that exist now (of TRUSTED_FILES). */
  files: string[];
  /** Where the decision is (or would be) recorded; null without HOME. */
  record: string | null;
  trusted_at: string | null;
}

/** The user's hestai directory (`$HOME/.hestai`, where `config/ai.yaml` lives too); null without HOME. */
export function userHestaiDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const home = env['HOME'];
  return home && path.isAbsolute(home) ? path.join(home, '.hestai') : null;
}

function realRoot(root: string): string {
  try {
    return fs.realpathSync(root);
  } catch {
    return path.resolve(root);
  }
}

/** Reads a regular file only (a symlink or FIFO in the repository is not content anyone reviewed). */
function readRegular(file: string): Buffer | null {
  try {
    const stat = fs.lstatSync(file);
    if (!stat.isFile()) return Buffer.from(`<${stat.isSymbolicLink() ? 'symlink' : 'special'}>`);
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}

/** Pure over the files' bytes: the hash a trust decision is recorded for. */
export function contentHash(root: string): { sha256: string; files: string[] } {
  const hash = sha256Hash().update('hestai-trust:1\n');
  const files: string[] = [];
  for (const rel of TRUSTED_FILES) {
    const content = readRegular(path.join(root, rel));
    hash.update(`${rel}\0`);
    if (content === null) hash.update('absent\0');
    else {
      files.push(rel);
      hash.update(`${content.length}\0`).update(content).update('\0');
    }
  }
  return { sha256: hash.digest('hex'), files };
}

function recordFile(root: string, env: NodeJS.ProcessEnv): string | null {
  const dir = userHestaiDir(env);
  if (dir === null) return null;
  const key = sha256Hex(realRoot(root));
  return path.join(dir, 'trust', `${key}.json`);
}

function readRecord(file: string): TrustRecord | null {
  try {
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<TrustRecord> | null;
    if (data === null || typeof data !== 'object' || typeof data.sha256 !== 'string' || typeof data.root !== 'string')
      return null;
    return {
      root: data.root,
      sha256: data.sha256,
      files: Array.isArray(data.files) ? data.files.map(String) : [],
      trusted_at: String(data.trusted_at ?? ''),
    };
  } catch {
    return null;
  }
}

/** Whether the current content of the worktree's TRUSTED_FILES is what the user trusted. */
export function trustState(paths: Pick<WorkspacePaths, 'root'>, env: NodeJS.ProcessEnv = process.env): TrustState {
  const { sha256, files } = contentHash(paths.root);
  const record = recordFile(paths.root, env);
  const recorded = record === null ? null : readRecord(record);
  const matches = recorded !== null && recorded.root === realRoot(paths.root);
  const status = matches && recorded.sha256 === sha256 ? 'trusted' : matches ? 'changed' : 'untrusted';
  return { status, root: paths.root, sha256, files, record, trusted_at: matches ? recorded.trusted_at : null };
}

/** True when the user trusted exactly the current content (see `trustState`). */
export function isTrusted(paths: Pick<WorkspacePaths, 'root'>, env: NodeJS.ProcessEnv = process.env): boolean {
  return trustState(paths, env).status === 'trusted';
}

/** Records trust in the current content (`hestai trust`). Throws when HOME is not set. */
export function trustWorkspace(paths: Pick<WorkspacePaths, 'root'>, env: NodeJS.ProcessEnv, now: Date): TrustState {
  const record = recordFile(paths.root, env);
  if (record === null) throw new Error('HOME is not set: there is nowhere outside the repository to record trust');
  const { sha256, files } = contentHash(paths.root);
  const value: TrustRecord = { root: realRoot(paths.root), sha256, files, trusted_at: now.toISOString() };
  writeJsonAtomic(record, value, { within: path.dirname(path.dirname(record)) });
  return trustState(paths, env);
}

/** Forgets the trust decision for this worktree; returns whether there was one. */
export function revokeTrust(paths: Pick<WorkspacePaths, 'root'>, env: NodeJS.ProcessEnv): boolean {
  const record = recordFile(paths.root, env);
  if (record === null || !fs.existsSync(record)) return false;
  fs.rmSync(record, { force: true });
  return true;
}

/** The only variables a trusted gate command receives (documented in the README, "Trust"). */
export const GATE_ENV_KEYS = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'TERM',
  'NO_COLOR',
  'CI',
] as const;

/** The minimal environment for commands the repository configured (never tokens, keys or HESTAI_*). */
export function gateEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const key of GATE_ENV_KEYS) if (env[key] !== undefined) out[key] = env[key];
  return out;
}
