import { appendAudit } from '../audit.js';
import { blockedError, usageError } from '../errors.js';
import type { WorkspacePaths } from '../paths.js';
import { sessionsLock } from '../records/activity.js';
import { listActiveSessions, readSession, writeSession, type SessionRecord } from '../records/session.js';
import type { Surface } from '../records/resolve.js';
import { withLock } from '../state/store.js';
import { quoteInput } from '../util/quote.js';
import { resolveWorkspace, resolveWorkspaceAsync } from '../workspace.js';
import { clockOut } from './clock-out.js';
import { resolveDeps, type SessionDeps } from './deps.js';
import { assertNoSymlinkEscape } from './guard.js';
import { openSession } from './open.js';
import {
  conflictsFirst,
  conflictsOf,
  describeNeighbour,
  detectConflicts,
  type SessionConflict,
} from './rules/conflict.js';
import { markTakenOver, tookOver } from './takeover.js';

/** What an agent can decide after seeing a conflict (CI-I5): `continue` is doing nothing. */
export const CONFLICT_ACTIONS = ['takeover', 'abort'] as const;
export type ConflictAction = (typeof CONFLICT_ACTIONS)[number];

export interface NeighboursView {
  session_id: string;
  focus: string;
  /** Every live neighbour with how its focus relates to this session's. */
  neighbours: SessionConflict[];
  /** The neighbours whose focus conflicts (same first, then related). */
  conflicts: SessionConflict[];
}

export interface ResolveConflictResponse {
  session_id: string;
  action: ConflictAction;
  /** takeover: the sessions now STALE, each logged in both records. */
  taken_over: SessionConflict[];
  /** abort: where the withdrawn session was archived (state ABORTED); null for takeover. */
  archive_path: string | null;
  /** The live neighbours left after the decision. */
  neighbours: SessionConflict[];
}

function neighboursOf(paths: WorkspacePaths, self: SessionRecord): NeighboursView {
  const others = listActiveSessions(paths).sessions.filter((s) => s.session_id !== self.session_id);
  const neighbours = detectConflicts(others, self.focus);
  return {
    session_id: self.session_id,
    focus: self.focus,
    neighbours: conflictsFirst(neighbours),
    conflicts: conflictsOf(neighbours),
  };
}

/** Read-only: the live neighbours of a session and which of them conflict (`hestai conflict`). */
export function showNeighbours(
  input: { working_dir: string; session_id?: string | undefined },
  deps?: SessionDeps,
  surface: Surface = 'cli',
): NeighboursView {
  const { env } = resolveDeps(deps);
  const { paths } = resolveWorkspace(input.working_dir, { requireAbsolute: true });
  assertNoSymlinkEscape(paths);
  return neighboursOf(paths, openSession(paths, input.session_id, env, { live: true, surface }));
}

function validateAction(value: unknown): ConflictAction {
  if (!CONFLICT_ACTIONS.includes(value as ConflictAction)) {
    throw usageError(`invalid conflict decision ${quoteInput(value)}`, {
      code: 'CONFLICT_ACTION_INVALID',
      remedy: 'Decide takeover (mark the conflicting sessions STALE and take over) or abort (withdraw your session).',
    });
  }
  return value as ConflictAction;
}

function noConflict(view: NeighboursView, action: ConflictAction, surface: Surface) {
  const unrelated = view.neighbours.map(describeNeighbour);
  return blockedError(
    `no live session conflicts with session ${view.session_id} (focus "${view.focus}"); nothing to ${action === 'takeover' ? 'take over' : 'abort'}${unrelated.length > 0 ? `; live neighbours with an unrelated focus: ${view.neighbours.map((n) => n.existing_session_id).join(', ')}` : ''}`,
    {
      code: 'NO_CONFLICT',
      details: unrelated,
      remedy:
        surface === 'mcp'
          ? 'Go on working; call clock_out when you are done.'
          : 'Go on working; run "hestai clock-out" when you are done.',
    },
  );
}

/**
 * CI-I5, deciding after clock-in (the agent has seen `conflict` and chose `continue` first):
 * - `takeover`: every live session whose focus conflicts with ours (same or related) becomes STALE, logged
 *   in both records and the audit (`session_takeover`, `decided: after_clock_in`), exactly as
 *   `on_conflict: takeover` does at clock-in; unrelated neighbours are left alone;
 * - `abort`: our own session is withdrawn: archived with state `ABORTED` and a summary naming the conflict,
 *   its checklist items carried forward to its focus (nothing was done), audited as `session_abort`.
 * Both refuse (exit 1, `NO_CONFLICT`, nothing changed) when no conflict is left.
 */
export async function resolveConflict(
  input: { working_dir: string; session_id?: string | undefined; action: ConflictAction },
  deps?: SessionDeps,
  surface: Surface = 'cli',
): Promise<ResolveConflictResponse> {
  const { clock, env } = resolveDeps(deps);
  const action = validateAction(input.action);
  const { paths, root } = await resolveWorkspaceAsync(input.working_dir, { requireAbsolute: true });
  assertNoSymlinkEscape(paths);
  const self = openSession(paths, input.session_id, env, { live: true, surface });
  const at = clock().toISOString();

  if (action === 'takeover') {
    return withLock(sessionsLock(paths), (): ResolveConflictResponse => {
      const current = openSession(paths, self.session_id, env, { live: true, surface });
      const view = neighboursOf(paths, current);
      if (view.conflicts.length === 0) throw noConflict(view, action, surface);
      const taken = view.conflicts.map((c) => readSession(paths, c.existing_session_id)!);
      markTakenOver(paths, { takerId: current.session_id, taken, at, decided: 'after_clock_in' });
      writeSession(paths, {
        ...current,
        ownership_log: [...current.ownership_log, ...tookOver(view.conflicts, at)],
      });
      return {
        session_id: current.session_id,
        action,
        taken_over: view.conflicts,
        archive_path: null,
        neighbours: view.neighbours.filter((n) => n.relation === 'unrelated'),
      };
    });
  }

  const view = neighboursOf(paths, self);
  if (view.conflicts.length === 0) throw noConflict(view, action, surface);
  const names = view.conflicts.map((c) => `${c.existing_session_id} (${c.existing_role}, "${c.existing_focus}")`);
  const closed = await clockOut(
    {
      working_dir: root,
      session_id: self.session_id,
      summary: `aborted after a focus conflict with ${names.join(', ')}`,
      carry_all: true,
    },
    { clock, env },
    { final_state: 'ABORTED' },
  );
  appendAudit(paths, {
    event: 'session_abort',
    session_id: self.session_id,
    at,
    conflicts: view.conflicts.map((c) => c.existing_session_id),
    archive: closed.archive_path,
  });
  return {
    session_id: self.session_id,
    action,
    taken_over: [],
    archive_path: closed.archive_path,
    neighbours: view.neighbours,
  };
}
