import { appendAudit } from '../audit.js';
import { commitsSinceAsync } from '../git/async.js';
import { activeDir, relativeToRoot } from '../paths.js';
import { readTextIfExists, removeStatePath, withLock, writeFileAtomic } from '../state/store.js';
import { archiveOf } from './recover.js';
import { resolveWorkspaceAsync } from '../workspace.js';
import { tryParseOctave, writeOctave } from '../octave/index.js';
import { formatDuration } from './archive-doc.js';
import { archiveSession, sessionAnchorDigest } from './archive.js';
import { resolveDeps, type SessionDeps } from './deps.js';
import { checklistDocument, checklistState, markFocusEnded, oneLine } from './fast-layer/build.js';
import { readFastDoc, writeFastDocs } from './fast-layer/io.js';
import { planClockOutChecklist } from './rules/checklist.js';
import { usageError, type HestaiError } from '../errors.js';
import { assertNoSymlinkEscape } from './guard.js';
import { openSession } from './open.js';
import { normalizeSummary, validateCarry } from './rules/input.js';
import { sessionsLock } from '../records/activity.js';

export interface ClockOutResponse {
  session_id: string;
  archive_path: string;
  started_at: string;
  ended_at: string;
  duration: string;
  summary: string;
  /** Commits made during the session (since its starting commit), oldest first. */
  commits: { sha: string; header: string }[];
  anchor_digest: string | null;
  /** Whether current-focus.oct.md was marked ENDED (only when it belongs to this session). */
  fast_layer_updated: boolean;
  /** The session's checklist items: marked DONE, or carried forward to its focus (rules/checklist.ts). */
  checklist: { done: string[]; carried_forward: string[] };
  warnings: string[];
}

/**
 * clock_out: archives the session to `.hestai/sessions/archive/` in OCTAVE (role, focus, times, duration,
 * summary, commits, anchor digest), marks the FAST layer's current focus ended, and removes the active
 * directory only after the archive is verified on disk.
 */
export async function clockOut(
  input: {
    working_dir: string;
    session_id?: string | undefined;
    summary?: string | undefined;
    /** Checklist items of this session to carry forward (exact texts); the others are marked DONE. */
    carry?: readonly string[] | undefined;
    /** Carry every item of this session forward. */
    carry_all?: boolean | undefined;
  },
  deps?: SessionDeps,
  /** `ABORTED`: the session is withdrawn after a focus conflict (`resolveConflict`); default `COMPLETED`. */
  outcome: { final_state: 'COMPLETED' | 'ABORTED' } = { final_state: 'COMPLETED' },
): Promise<ClockOutResponse> {
  const { clock, env } = resolveDeps(deps);
  const summary = normalizeSummary(input.summary);
  const carry = validateCarry(input.carry, input.carry_all);
  const workspace = await resolveWorkspaceAsync(input.working_dir, { requireAbsolute: true });
  const paths = workspace.paths;
  assertNoSymlinkEscape(paths);
  const session = openSession(paths, input.session_id, env, { live: false });
  let commits: { sha: string; header: string }[] = [];
  try {
    commits = (await commitsSinceAsync(workspace.root, session.starting_commit)).map((c) => ({
      sha: c.sha,
      header: c.message.split('\n')[0] ?? '',
    }));
  } catch {
    commits = [];
  }
  const endedAt = clock().toISOString();
  return withLock(sessionsLock(paths), () => {
    const current = openSession(paths, session.session_id, env, { live: false });
    const warnings: string[] = [];
    const checklist = planClockOutChecklist({
      previous: checklistState(readFastDoc(paths.checklist, endedAt, warnings)),
      session: { session_id: current.session_id, focus: oneLine(current.focus) },
      carry,
    });
    if (checklist.unknown.length > 0) throw unknownItems(checklist.unknown, current.session_id, checklist);
    const anchor = sessionAnchorDigest(paths, current.session_id);
    // A clock-out killed after archiving left the session active: finish it, never archive twice.
    const existing = archiveOf(paths, current.session_id);
    let archivePath: string;
    if (existing !== null) {
      removeStatePath(activeDir(paths, current.session_id));
      archivePath = relativeToRoot(paths, existing);
      appendAudit(paths, {
        event: 'clock_out_completed',
        session_id: current.session_id,
        at: endedAt,
        archive: archivePath,
        reason: 'a clock-out was interrupted after archiving',
      });
    } else {
      archivePath = archiveSession(paths, current, {
        ended_at: endedAt,
        summary,
        commits,
        anchor_digest: anchor,
        final_state: outcome.final_state,
      });
    }
    let fastUpdated = false;
    const focusText = readTextIfExists(paths.currentFocus);
    const parsed = focusText === null ? null : tryParseOctave(focusText);
    if (parsed?.ok) {
      const ended = markFocusEnded(parsed.doc, current.session_id, endedAt);
      if (ended) {
        writeFileAtomic(paths.currentFocus, writeOctave(ended));
        fastUpdated = true;
      }
    }
    writeFastDocs([
      {
        file: paths.checklist,
        doc: checklistDocument({
          state: checklist.state,
          sessionId: current.session_id,
          updatedAt: endedAt,
          carried: checklist.carried,
        }),
      },
    ]);
    appendAudit(paths, {
      event: 'clock_out',
      session_id: current.session_id,
      at: endedAt,
      archive: archivePath,
      commits: commits.length,
      anchor_digest: anchor,
      checklist_done: checklist.done.length,
      checklist_carried: checklist.carried.length,
    });
    return {
      session_id: current.session_id,
      archive_path: archivePath,
      started_at: current.started_at,
      ended_at: endedAt,
      duration: formatDuration((Date.parse(endedAt) - Date.parse(current.started_at)) / 1000),
      summary,
      commits,
      anchor_digest: anchor,
      fast_layer_updated: fastUpdated,
      checklist: { done: checklist.done, carried_forward: checklist.carried },
      warnings,
    };
  });
}

function unknownItems(
  unknown: readonly string[],
  sessionId: string,
  plan: { done: string[]; carried: string[] },
): HestaiError {
  const own = [...plan.done, ...plan.carried];
  return usageError(
    `not a checklist item of session ${sessionId}: ${unknown.map((u) => JSON.stringify(u)).join(', ')}`,
    {
      code: 'CHECKLIST_ITEM_UNKNOWN',
      remedy:
        own.length > 0
          ? `Carry one of its items, named exactly: ${own.map((t) => JSON.stringify(t)).join(', ')}; or leave --carry out to mark them DONE.`
          : 'This session has no pending checklist items; leave --carry out.',
    },
  );
}
