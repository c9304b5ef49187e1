import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { appendAudit } from '../audit.js';
import { loadConfig } from '../config/load.js';
import type { WorkspaceConfig } from '../config/schema.js';
import { activeDir, type WorkspacePaths } from '../paths.js';
import { ensureStateDir, removeStatePath, renameStatePath, withLock, writeJsonAtomic } from '../state/store.js';
import { recoverLeftovers } from './recover.js';
import { resolveWorkspaceAsync } from '../workspace.js';
import { ensureHooksArmedAsync } from '../setup/armed.js';
import type { GithubContext } from './context/github.js';
import type { SelectionInfo } from './context/select.js';
import { resolveDeps, type SessionDeps } from './deps.js';
import { updateFastLayer, type FastLayerUpdate } from './fast-layer/update.js';
import { generateContext, type GeneratedContext } from './generate.js';
import { assertNoSymlinkEscape } from './guard.js';
import {
  isLive,
  listActiveSessions,
  SESSION_FILE,
  type ActiveSessions,
  type SessionRecord,
} from '../records/session.js';
import { contextPaths, missingStructure, sessionContext, type ContextPaths, type SessionContext } from './response.js';
import { conflictError, conflictsFirst, conflictsOf, detectConflicts, type SessionConflict } from './rules/conflict.js';
import { markTakenOver, tookOver } from './takeover.js';
import { removeGoneHandshakes, sweepSessions, type SweepResult } from './sweep.js';
import {
  normalizeFocus,
  validateModel,
  validateOnConflict,
  validateOnStale,
  validateRole,
  type ConflictResolution,
  type StaleDecision,
} from './rules/input.js';
import { staleOfferError } from './rules/stale.js';
import { anchoredAndFresh, sessionsToMarkStale } from '../records/freshness.js';
import { hasValidAnchor } from '../records/anchor.js';
import type { ResolvedFocus } from './rules/focus.js';
import { sessionsLock } from '../records/activity.js';
import { readTerminalLock } from '../records/terminal.js';
import type { AgentIdentity } from '../records/attribution.js';

export interface ClockInInput {
  /** Absolute path inside the repository (resolved to its worktree root). */
  working_dir: string;
  role: string;
  focus?: string | undefined;
  model?: string | undefined;
  /** What to do when another live session is registered in this worktree (default `continue`). */
  on_conflict?: ConflictResolution | undefined;
  /**
   * Pin the session to its caller (an agent runtime that names it: MCP connection, HESTAI_SESSION):
   * it is then never picked implicitly (src/session/resolve.ts). Default false.
   */
  pinned?: boolean | undefined;
  /** The agent runtime starting the session (its SessionStart hook) and its model: recorded for attribution. */
  agent?: AgentIdentity | undefined;
  /**
   * The answer to the stale-session offer (seed 000 §7): `cleanup` archives the neighbours inactive beyond
   * `cleanup.stale_session_hours`, `continue` leaves them. Without it, such neighbours make clock-in refuse
   * with the offer (`STALE_SESSIONS`, exit 1) and write nothing.
   */
  on_stale?: StaleDecision | undefined;
}

/**
 * Seed 000 §4 `conflict`: the first conflicting neighbour (same focus before related, most recent first),
 * its `relation`, the resolution applied and how many live neighbours conflict.
 */
export interface ClockInConflict extends SessionConflict {
  resolution: ConflictResolution;
  other_live_sessions: number;
}

/** Seed 000 §4 ClockInResponse, plus the generation timestamp, structure status and the selected context. */
export interface ClockInResponse {
  session_id: string;
  context_paths: ContextPaths;
  conflict: ClockInConflict | null;
  /** Every live neighbour of the worktree with how its focus relates to this one (unrelated ones included). */
  neighbours: SessionConflict[];
  focus_resolved: ResolvedFocus;
  github_context: GithubContext;
  instruction: string;
  /** When the context was generated; what the 24 h freshness rule measures. */
  context_generated_at: string;
  structure_status: 'complete' | 'incomplete';
  /** Human-authored files `hestai init` would create that are missing. */
  structure_missing: string[];
  selection: SelectionInfo;
  context: SessionContext;
  /** Sessions found inactive beyond the threshold (marked STALE and archived when the decision is `cleanup`). */
  stale_sessions: { session_id: string; role: string; focus: string; last_activity: string }[];
  /** The caller's answer to the stale-session offer, when there were stale sessions (else null). */
  stale_decision: StaleDecision | null;
  /** One line saying what this clock-in archived or deleted (null when nothing). */
  cleanup_notice: string | null;
  /** What this clock-in's cleanup did (seed 000 §7, the same work as `hestai cleanup`). */
  cleanup: {
    archived: { session_id: string; archive_path: string }[];
    deleted_archives: string[];
    removed_handshakes: string[];
    problems: { file: string; problem: string }[];
  };
  /** Neighbour session files that could not be read (reported, never fatal). */
  corrupt_sessions: { session_id: string; error: string }[];
  fast_layer: FastLayerUpdate;
  warnings: string[];
  /** Whether the git hooks are armed in this worktree (filled in by the hooks module's ensureHooksArmed). */
  hooks?: { armed: boolean; repaired: boolean; message: string };
}

export const CLOCK_IN_INSTRUCTION = 'Read context_paths. Produce Full RAPH. Submit anchor.';

/**
 * clock_in (seed 000): validates the input, gathers fresh context, detects conflicts with live sessions
 * of this worktree, creates the session (UUID v4, `active/{id}/session.json`), updates the FAST layer and
 * returns the ClockInResponse. The session directory appears only once everything is written: a failure
 * on the way (disk full, permissions) leaves no partial session.
 */
export async function clockIn(input: ClockInInput, deps?: SessionDeps): Promise<ClockInResponse> {
  const { clock, env } = resolveDeps(deps);
  const request = validateRequest(input);
  const workspace = await resolveWorkspaceAsync(input.working_dir, { requireAbsolute: true });
  const paths = workspace.paths;
  assertNoSymlinkEscape(paths);
  const { config } = await loadConfig(workspace.root);
  const warnings = terminalLockWarnings(paths, request.role);
  const { role, explicitFocus, model } = request;
  const generated = await generateContext({ workspace, config, env, role, explicitFocus, model, warnings });
  const at = clock().toISOString();
  ensureStateDir(paths.active);
  const response = await withLock(sessionsLock(paths), async (): Promise<ClockInResponse> => {
    recoverLeftovers(paths, at);
    const found = surveyNeighbours(paths, config, generated.gathered.focus.value, new Date(at));
    if (found.toStale.length > 0 && request.onStale === undefined)
      throw staleOfferError(found.toStale, role, config.cleanup.stale_session_hours);
    const survey = decideStale(found, request.onStale);
    if (survey.conflicts.length > 0 && request.onConflict === 'abort') throw conflictError(survey.conflicts);
    const record = {
      ...newSessionRecord(workspace.root, request, generated, survey, at, input.pinned === true),
      ...(input.agent ? { agent: input.agent } : {}),
    };
    const fast = publishSession(paths, record, generated, liveAfter(survey, request.onConflict), warnings);
    const swept = sweepAndRecord(paths, config, record, generated, survey, request.onConflict);
    return {
      ...respond(paths, config, record, generated, survey, swept, request.onConflict),
      fast_layer: fast,
      // Every session starts here, so this is where a worktree whose hooks would not fire is repaired.
      hooks: await ensureHooksArmedAsync(workspace),
      warnings,
    };
  });
  response.cleanup.removed_handshakes = await removeGoneHandshakes(paths, at);
  return response;
}

/** The validated input of a clock-in. */
interface ClockInRequest {
  role: string;
  explicitFocus: string | undefined;
  model: string | undefined;
  onConflict: ConflictResolution;
  onStale: StaleDecision | undefined;
}

function validateRequest(input: ClockInInput): ClockInRequest {
  return {
    role: validateRole(input.role),
    explicitFocus: normalizeFocus(input.focus),
    model: validateModel(input.model),
    onConflict: validateOnConflict(input.on_conflict),
    onStale: validateOnStale(input.on_stale),
  };
}

/** A role locked by a terminal handshake stays locked: the new session is told so (an unreadable lock too). */
function terminalLockWarnings(paths: WorkspacePaths, role: string): string[] {
  let lock: { session_id: string; at: string } | null;
  try {
    lock = readTerminalLock(paths, role);
  } catch {
    lock = { session_id: '(unreadable lock file)', at: 'an unknown time' };
  }
  if (lock === null) return [];
  return [
    `role ${role} is locked in this worktree: the anchor handshake of session ${lock.session_id} went terminal at ${lock.at}. This session cannot anchor or commit until a person runs "hestai anchor reset --token <session_id> --reason ..." (audited); clocking in again does not lift it.`,
  ];
}

/** The worktree's sessions as this clock-in finds them (read under the sessions lock). */
interface NeighbourSurvey {
  listed: ActiveSessions;
  /** Sessions inactive beyond the threshold (and not anchored and fresh): the stale-session offer. */
  toStale: SessionRecord[];
  /** The ones this clock-in marks STALE and archives (all of `toStale` on `cleanup`, none on `continue`). */
  staleIds: Set<string>;
  decision: StaleDecision | null;
  /** Every live, not stale neighbour and how its focus relates to the new one. */
  neighbours: SessionConflict[];
  conflicts: SessionConflict[];
}

function surveyNeighbours(paths: WorkspacePaths, config: WorkspaceConfig, focus: string, now: Date): NeighbourSurvey {
  const listed = listActiveSessions(paths);
  const toStale = sessionsToMarkStale(
    listed.sessions,
    now,
    config.cleanup.stale_session_hours,
    anchoredAndFresh((id) => hasValidAnchor(paths, id).valid, now, config.freshness.max_age_hours),
  );
  const staleIds = new Set(toStale.map((s) => s.session_id));
  const neighbours = detectConflicts(
    listed.sessions.filter((s) => !staleIds.has(s.session_id)),
    focus,
  );
  return { listed, toStale, staleIds, decision: null, neighbours, conflicts: conflictsOf(neighbours) };
}

/** Pure: the survey once the caller has answered the offer (`continue` marks and archives none of them). */
function decideStale(survey: NeighbourSurvey, onStale: StaleDecision | undefined): NeighbourSurvey {
  if (survey.toStale.length === 0 || onStale === undefined) return survey;
  return { ...survey, decision: onStale, staleIds: onStale === 'cleanup' ? survey.staleIds : new Set() };
}

/** The sessions still live once this clock-in is done (a takeover ends the conflicting ones). */
function liveAfter(survey: NeighbourSurvey, onConflict: ConflictResolution): Set<string> {
  const taken = (id: string) => onConflict === 'takeover' && survey.conflicts.some((c) => c.existing_session_id === id);
  return new Set(
    survey.listed.sessions
      .filter((s) => isLive(s) && !survey.staleIds.has(s.session_id) && !taken(s.session_id))
      .map((s) => s.session_id),
  );
}

function newSessionRecord(
  root: string,
  request: ClockInRequest,
  generated: GeneratedContext,
  survey: NeighbourSurvey,
  at: string,
  pinned: boolean,
): SessionRecord {
  const focus = generated.gathered.focus;
  return {
    version: 1,
    session_id: randomUUID(),
    role: request.role,
    focus: focus.value,
    focus_source: focus.source,
    branch: generated.gathered.git.branch,
    working_dir: root,
    model: generated.model,
    started_at: at,
    context_generated_at: at,
    last_activity: at,
    state: 'CREATED',
    starting_commit: generated.gathered.git.head,
    ownership_log: request.onConflict === 'takeover' ? tookOver(survey.conflicts, at) : [],
    acknowledgments: [],
    ...(pinned ? { pinned: true } : {}),
    prompts: generated.prompts,
  };
}

/** Stages the session directory, writes the FAST layer, then publishes the directory with one rename. */
function publishSession(
  paths: WorkspacePaths,
  record: SessionRecord,
  generated: GeneratedContext,
  live: Set<string>,
  warnings: string[],
): FastLayerUpdate {
  const staging = path.join(paths.active, `.staging-${record.session_id}`);
  try {
    writeJsonAtomic(path.join(staging, SESSION_FILE), record);
    const fast = updateFastLayer(paths, record, generated, live, warnings);
    renameStatePath(staging, activeDir(paths, record.session_id));
    return fast;
  } catch (error) {
    try {
      removeStatePath(staging);
    } catch {
      /* the original error says what went wrong */
    }
    throw error;
  }
}

/** Seed 000 §7 as issue 18 settles it: every clock-in does what `hestai cleanup` does; then the takeover and the audit line. */
function sweepAndRecord(
  paths: WorkspacePaths,
  config: WorkspaceConfig,
  record: SessionRecord,
  generated: GeneratedContext,
  survey: NeighbourSurvey,
  onConflict: ConflictResolution,
): SweepResult {
  const at = record.started_at;
  const swept = sweepSessions({
    paths,
    sessions: survey.listed.sessions,
    toStale: survey.staleIds,
    now: new Date(at),
    retentionDays: config.cleanup.archive_retention_days,
    by: record.session_id,
  });
  if (onConflict === 'takeover') {
    markTakenOver(paths, {
      takerId: record.session_id,
      taken: survey.conflicts.map((c) => survey.listed.sessions.find((s) => s.session_id === c.existing_session_id)!),
      at,
      decided: 'at_clock_in',
    });
  }
  if (survey.decision !== null) {
    appendAudit(paths, {
      event: 'stale_decision',
      session_id: record.session_id,
      at,
      decision: survey.decision,
      stale_sessions: survey.toStale.map((s) => s.session_id),
    });
  }
  appendAudit(paths, {
    event: 'clock_in',
    session_id: record.session_id,
    at,
    role: record.role,
    focus: record.focus,
    focus_source: record.focus_source,
    selection: generated.selection.selection.method,
    prompts: generated.prompts,
    fast_synthesis: generated.fast.synthesis.method,
  });
  return swept;
}

/** The response's fields that say what happened (everything but the FAST layer, the hooks and the warnings). */
function respond(
  paths: WorkspacePaths,
  config: WorkspaceConfig,
  record: SessionRecord,
  generated: GeneratedContext,
  survey: NeighbourSurvey,
  swept: SweepResult,
  onConflict: ConflictResolution,
): Omit<ClockInResponse, 'fast_layer' | 'hooks' | 'warnings'> {
  const first = survey.conflicts[0];
  const conflict: ClockInConflict | null = first
    ? { ...first, resolution: onConflict, other_live_sessions: survey.conflicts.length }
    : null;
  const missing = missingStructure(paths, record.role);
  const instruction = [
    CLOCK_IN_INSTRUCTION,
    conflictNotice(conflict, survey.neighbours),
    swept.archived.length > 0 ? `${swept.archived.length} stale session(s) were archived (see cleanup.archived).` : '',
  ]
    .filter((s) => s !== '')
    .join(' ');
  return {
    session_id: record.session_id,
    context_paths: contextPaths(paths, config),
    conflict,
    neighbours: conflictsFirst(survey.neighbours),
    focus_resolved: generated.gathered.focus,
    github_context: generated.gathered.github,
    instruction,
    context_generated_at: record.started_at,
    structure_status: missing.length === 0 ? 'complete' : 'incomplete',
    structure_missing: missing,
    selection: generated.selection.selection,
    context: sessionContext(generated),
    stale_sessions: survey.toStale.map((s) => ({
      session_id: s.session_id,
      role: s.role,
      focus: s.focus,
      last_activity: s.last_activity,
    })),
    stale_decision: survey.decision,
    cleanup_notice: sweepNotice(swept, config.cleanup),
    cleanup: {
      archived: swept.archived,
      deleted_archives: swept.deleted_archives,
      removed_handshakes: [],
      problems: swept.problems,
    },
    corrupt_sessions: survey.listed.problems,
  };
}

/** Pure: one line on what a clock-in's cleanup did, or null. */
function sweepNotice(
  swept: SweepResult,
  thresholds: { stale_session_hours: number; archive_retention_days: number },
): string | null {
  const parts = [
    swept.archived.length > 0
      ? `archived ${swept.archived.length} session(s) STALE after ${thresholds.stale_session_hours} h without activity`
      : '',
    swept.deleted_archives.length > 0
      ? `deleted ${swept.deleted_archives.length} archive(s) older than ${thresholds.archive_retention_days} days`
      : '',
  ].filter((p) => p !== '');
  return parts.length > 0 ? `cleanup: ${parts.join('; ')}.` : null;
}

/** Pure: what the instruction says about neighbours: a conflict to decide, or an unrelated neighbour to know of. */
function conflictNotice(conflict: ClockInConflict | null, neighbours: readonly SessionConflict[]): string {
  if (conflict !== null && conflict.resolution === 'continue') {
    return `Session ${conflict.existing_session_id} (${conflict.existing_role}) works on ${conflict.relation === 'same' ? 'the same' : 'a related'} focus ("${conflict.existing_focus}") in this worktree: coordinate before changing shared files, or decide now with "hestai conflict takeover" or "hestai conflict abort".`;
  }
  const unrelated = neighbours.filter((n) => n.relation === 'unrelated');
  if (conflict === null && unrelated.length > 0) {
    const n = unrelated[0]!;
    return `Session ${n.existing_session_id} (${n.existing_role}) works here on an unrelated focus ("${n.existing_focus}"); no conflict, but the FAST layer is shared.`;
  }
  return '';
}
