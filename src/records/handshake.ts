/**
 * The pending handshake of the staged anchor: `.hestai/sessions/pending/{token}/handshake.json`. Written
 * only through the store (atomic), read with a hand-written validator (the pre-commit hook reads it to
 * say "this anchor is terminal"), and mutated only under the per-token lock.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pendingDir, type WorkspacePaths } from '../paths.js';
import { readJsonIfExists, removeStatePath, withLock, writeJsonAtomic, type Validate } from '../state/store.js';
import { expectIsoDate, expectOneOf, expectString, isRecord, UUID_V4, type Problems } from '../util/validate.js';
import { STRICTNESS, type ArmSnapshot, type Strictness } from './anchor.js';

/** What a passing BIND section established (kept in the handshake between stages). */
export interface BindFacts {
  role: string;
  cognition: string;
  authority: string;
}

export const HANDSHAKE_STAGES = ['IDENTITY', 'CONTEXT', 'BOUND'] as const;
export type HandshakeStage = (typeof HANDSHAKE_STAGES)[number];
/** Where failed submissions are counted: the staged context and proof stages, and the one-shot vector. */
export type RetryStage = 'context' | 'proof' | 'vector';
export const RETRY_STAGES: readonly RetryStage[] = ['context', 'proof', 'vector'];

export interface HandshakeRecord {
  version: 1;
  token: string;
  stage: HandshakeStage;
  role: string;
  working_dir: string;
  mode: 'full' | 'lite';
  strictness: Strictness;
  topic: string | null;
  /** Workspace-relative path of the constitution, or null (one-shot without a constitution). */
  constitution_path: string | null;
  created_at: string;
  updated_at: string;
  expires_at: string;
  /** The server ARM computed at the context stage. */
  server_arm: ArmSnapshot | null;
  /** The validated BIND (context stage), used to assemble the canonical anchor at the proof stage. */
  bind: BindFacts | null;
  /** Failed submissions per stage, counted by the server. */
  retries: Record<RetryStage, number>;
  /** True after the last allowed retry failed: every submission is refused until `hestai anchor reset`. */
  terminal: boolean;
  terminal_stage: RetryStage | null;
  /**
   * The latest instant this handshake was judged at (`handshakeNow`), and the real time (system clock) when
   * that was recorded: time never runs backwards for a handshake. Absent in records written before 0.1.
   */
  seen_at?: string;
  seen_real_at?: string;
}

export const HANDSHAKE_FILE = 'handshake.json';

export function handshakeFile(paths: WorkspacePaths, token: string): string {
  return path.join(pendingDir(paths, token), HANDSHAKE_FILE);
}

/** Structural validation of handshake.json (hand-written; no zod on the hook path). */
export const validateHandshakeRecord: Validate<HandshakeRecord> = (value) => {
  if (!isRecord(value)) return { ok: false, errors: ['(root): expected an object'] };
  const problems: Problems = [];
  if (value['version'] !== 1) problems.push('version: expected 1');
  expectString(value, 'token', problems, { pattern: UUID_V4 });
  expectOneOf(value, 'stage', HANDSHAKE_STAGES, problems);
  expectString(value, 'role', problems);
  expectString(value, 'working_dir', problems);
  expectOneOf(value, 'mode', ['full', 'lite'], problems);
  expectOneOf(value, 'strictness', STRICTNESS, problems);
  expectString(value, 'topic', problems, { nullable: true });
  expectString(value, 'constitution_path', problems, { nullable: true });
  for (const key of ['created_at', 'updated_at', 'expires_at']) expectIsoDate(value, key, problems);
  if (value['server_arm'] !== null && !isRecord(value['server_arm']))
    problems.push('server_arm: expected an object or null');
  if (value['bind'] !== null && !isRecord(value['bind'])) problems.push('bind: expected an object or null');
  const retries = value['retries'];
  if (!isRecord(retries) || !RETRY_STAGES.every((s) => Number.isInteger(retries[s]) && (retries[s] as number) >= 0)) {
    problems.push('retries: expected {context, proof, vector} non-negative integers');
  }
  if (typeof value['terminal'] !== 'boolean') problems.push('terminal: expected a boolean');
  for (const key of ['seen_at', 'seen_real_at']) if (value[key] !== undefined) expectIsoDate(value, key, problems);
  if (value['terminal_stage'] !== null && !RETRY_STAGES.includes(value['terminal_stage'] as RetryStage))
    problems.push('terminal_stage: expected context, proof, vector or null');
  return problems.length === 0
    ? { ok: true, value: value as unknown as HandshakeRecord }
    : { ok: false, errors: problems };
};

/**
 * Pure: the instant a handshake is judged at (expiry). The clock reading, but never earlier than a time
 * already recorded for it (`recorded`: its last update, the latest instant it was judged at, the session's
 * last activity and context generation), and advanced by the real time (system clock) that passed since
 * it was last judged. So a clock set backwards, by `HESTAI_NOW` or on the system, cannot bring an expired
 * handshake back: what was seen expired stays expired, and a pinned clock cannot hide real hours passing.
 */
export function handshakeNow(
  hs: Pick<HandshakeRecord, 'updated_at' | 'seen_at' | 'seen_real_at'>,
  now: Date,
  realNowMs: number,
  recorded: readonly (string | null | undefined)[] = [],
): Date {
  let t = now.getTime();
  for (const r of [hs.updated_at, hs.seen_at, ...recorded]) {
    const ms = typeof r === 'string' ? Date.parse(r) : Number.NaN;
    if (ms > t) t = ms;
  }
  if (hs.seen_at !== undefined && hs.seen_real_at !== undefined) {
    const elapsed = realNowMs - Date.parse(hs.seen_real_at);
    const seen = Date.parse(hs.seen_at);
    if (elapsed > 0 && seen + elapsed > t) t = seen + elapsed;
  }
  return new Date(t);
}

/** The pending handshake of a token, or null. A corrupt file throws (exit 2, names the file). */
export function readHandshake(paths: WorkspacePaths, token: string): HandshakeRecord | null {
  if (!UUID_V4.test(token)) return null;
  return readJsonIfExists(handshakeFile(paths, token), validateHandshakeRecord);
}

/** Writes the pending handshake atomically. */
export function writeHandshake(paths: WorkspacePaths, record: HandshakeRecord): void {
  writeJsonAtomic(handshakeFile(paths, record.token), record);
}

/** Removes a token's pending directory (after promotion). */
export function removePending(paths: WorkspacePaths, token: string): void {
  removeStatePath(pendingDir(paths, token));
}

/**
 * Runs `fn` holding the token's handshake lock: every read-modify-write of a handshake goes through here.
 * Waiting for it (up to 30 s) never blocks the event loop (store.ts `withLock`).
 */
export function withHandshakeLock<T>(paths: WorkspacePaths, token: string, fn: () => T | Promise<T>): Promise<T> {
  return withLock(path.join(paths.locks, `anchor-${token}`), fn, { timeoutMs: 30_000 });
}

/**
 * Removes the pending handshakes whose session is gone (archived, clocked out, cleaned up): nothing can
 * complete them any more. A live session's handshake is kept even when expired: it carries the retry count
 * and the terminal state, which only a human reset may clear. Each removal holds the token's lock.
 * Returns the removed tokens with the stage each was in (`unreadable` for a corrupt file).
 */
export async function removeOrphanedHandshakes(
  paths: WorkspacePaths,
  isLive: (token: string) => boolean,
): Promise<{ token: string; stage: string }[]> {
  let names: string[];
  try {
    names = fs.readdirSync(paths.pending).filter((name) => UUID_V4.test(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const removed: { token: string; stage: string }[] = [];
  for (const token of names.sort()) {
    if (isLive(token)) continue;
    await withHandshakeLock(paths, token, () => {
      if (!fs.existsSync(pendingDir(paths, token))) return; // removed meanwhile (a second cleanup)
      let stage: string;
      try {
        stage = readHandshake(paths, token)?.stage ?? 'none';
      } catch {
        stage = 'unreadable';
      }
      removePending(paths, token);
      removed.push({ token, stage });
    });
  }
  return removed;
}
