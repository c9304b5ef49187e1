/**
 * The pending handshake of the staged anchor: `.hestai/sessions/pending/{token}/handshake.json`. Written
 * only through the store (atomic), read with its zod schema (the pre-commit hook reads it to
 * say "this anchor is terminal"), and mutated only under the per-token lock.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pendingDir, type WorkspacePaths } from '../paths.js';
import {
  listDir,
  readJsonIfExists,
  removeStatePath,
  withLock,
  writeJsonAtomic,
  type Validate,
} from '../state/store.js';
import * as z from 'zod/mini';
import { isoDate, recordChecker, UUID_V4 } from '../util/validate.js';
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
export const RETRY_STAGES = ['context', 'proof', 'vector'] as const satisfies readonly RetryStage[];

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

const retries = z.int().check(z.minimum(0));

/** The shape of handshake.json (extra keys pass). */
const handshakeSchema = z.looseObject({
  version: z.literal(1),
  token: z.string().check(z.regex(UUID_V4)),
  stage: z.enum(HANDSHAKE_STAGES),
  role: z.string(),
  working_dir: z.string(),
  mode: z.enum(['full', 'lite']),
  strictness: z.enum(STRICTNESS),
  topic: z.nullable(z.string()),
  constitution_path: z.nullable(z.string()),
  created_at: isoDate,
  updated_at: isoDate,
  expires_at: isoDate,
  server_arm: z.nullable(z.looseObject({})),
  bind: z.nullable(z.looseObject({})),
  retries: z.looseObject({ context: retries, proof: retries, vector: retries }),
  terminal: z.boolean(),
  seen_at: z.optional(isoDate),
  seen_real_at: z.optional(isoDate),
  terminal_stage: z.nullable(z.enum(RETRY_STAGES)),
});
export const validateHandshakeRecord: Validate<HandshakeRecord> = recordChecker(handshakeSchema);

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
  const names = listDir(paths.pending).filter((name) => UUID_V4.test(name));
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
