import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { anchorSession } from './claude-hook.js';
import type { TempRepo } from './git-repo.js';
import { CEREMONY_ROLE } from './mcp.js';

// The eight situations of "one verdict" (issue 37, item 4), made for real in one repository: sessions clocked in,
// anchored and aged through the CLI itself (its commands run with HESTAI_NOW set in the past; the surfaces
// judge at the system clock). Issue 42, item 4 feeds the same situations to every runtime's hook.

const HOUR = 3_600_000;
export const ago = (hours: number) => ({ HESTAI_NOW: new Date(Date.now() - hours * HOUR).toISOString() });

/** The situations, in the order `eachSituation` makes them, and the verdict code each must get. */
export const SITUATIONS = {
  'no session': 'NO_SESSION',
  'clocked in': 'NO_ANCHOR',
  anchored: 'UNLOCKED',
  stale: 'STALE',
  acknowledged: 'UNLOCKED',
  expired: 'EXPIRED',
  'protocol not started': 'NOT_STARTED',
  terminal: 'TERMINAL',
} as const;
export type Situation = keyof typeof SITUATIONS;

export function setEnforce(repo: TempRepo, on: boolean): void {
  const file = path.join(repo.dir, '.hestai_workspace.yaml');
  const text = fs.readFileSync(file, 'utf8').replace(/\nprotocol:\n {2}enforce: (true|false)\n/, '\n');
  fs.writeFileSync(file, `${text}\nprotocol:\n  enforce: ${on}\n`);
}

/** The whole ceremony through the CLI with the CLI's clock pinned (`HESTAI_NOW`). */
export function anchorAt(repo: TempRepo, token: string, env: NodeJS.ProcessEnv): void {
  const run = repo.hestai;
  repo.hestai = (args, options = {}) => run(args, { ...options, env: { ...env, ...options.env } });
  try {
    anchorSession(repo, token);
  } finally {
    repo.hestai = run;
  }
}

/** Three failed context stages after the identity stage: the handshake of `token` is terminal. */
export function lockTerminal(repo: TempRepo, token: string): void {
  expect(repo.hestai(['anchor', '--stage', 'identity', '--role', CEREMONY_ROLE, '--token', token]).status).toBe(0);
  repo.write('../bad.oct', '## BIND (Identity Lock)\nROLE::\nCOGNITION::LOGOS::ATHENA\nAUTHORITY::RESPONSIBLE[x]\n');
  for (let attempt = 0; attempt < 3; attempt++)
    repo.hestai(['anchor', '--stage', 'context', '--token', token, '--payload-file', '../bad.oct']);
}

/**
 * Makes each situation in turn and visits it with the session it concerns (null: none). `start` gives a new
 * clocked-in session (the caller's way: a runtime's SessionStart, or `hestai clock-in`).
 */
export async function eachSituation(
  repo: TempRepo,
  start: (name: string) => string,
  visit: (situation: Situation, session: string | null) => Promise<void> | void,
): Promise<void> {
  setEnforce(repo, false);
  await visit('no session', null);
  const clocked = start('clocked');
  await visit('clocked in', clocked);
  anchorSession(repo, clocked);
  await visit('anchored', clocked);
  // context regenerated 25 h ago (freshness.max_age_hours is 24), not acknowledged
  expect(repo.hestai(['refresh', '--session', clocked], { env: ago(25) }).status).toBe(0);
  await visit('stale', clocked);
  const ack = repo.hestai(['ack', '--session', clocked, '--reason', 'reviewed: still right']);
  expect(ack.status, ack.stderr).toBe(0);
  await visit('acknowledged', clocked);
  // anchored 73 h ago (anchor.valid_hours is 72), context fresh
  const old = start('expired');
  expect(repo.hestai(['refresh', '--session', old], { env: ago(73) }).status).toBe(0);
  anchorAt(repo, old, ago(73));
  expect(repo.hestai(['refresh', '--session', old]).status).toBe(0);
  await visit('expired', old);
  // protocol enforced, anchored and fresh, the session protocol not started
  const fresh = start('protocol');
  anchorSession(repo, fresh);
  setEnforce(repo, true);
  await visit('protocol not started', fresh);
  setEnforce(repo, false);
  const locked = start('terminal');
  lockTerminal(repo, locked);
  await visit('terminal', locked);
}
