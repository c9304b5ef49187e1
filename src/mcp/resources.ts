import fs from 'node:fs';
import path from 'node:path';
import { anchorDigest, hasValidAnchor } from '../records/anchor.js';
import { contextAgeHours, isContextOld } from '../records/freshness.js';
import { loadConfig } from '../config/load.js';
import { relativeToRoot, type WorkspacePaths } from '../paths.js';
import { isAcknowledged, listActiveSessions } from '../records/session.js';
import { listDir, readTextIfExists } from '../state/store.js';
import { toObject, tryParseOctave, type OctaveObject } from '../octave/index.js';
import { gateDecision } from './gate.js';
import { judgeSessionAct } from '../hooks/session-verdict.js';
import { agentHestaiCommand } from '../agent/invocation.js';
import type { McpDeps } from './deps.js';
import { describeRefusal, resolveSession, type SessionResolution } from '../records/resolve.js';
import { violationKind } from './violation-kind.js';
import { archiveEndedAt } from '../session/archive-doc.js';

/**
 * The four read-only resources of seed 004, built from the on-disk state of one worktree. Each returns a
 * plain JSON document; the server serialises it.
 */

/** `hestai://session/current` (was session://state): the selected session, its binding state, the age of its context, its neighbours. */
export async function sessionState(
  paths: WorkspacePaths,
  deps: Pick<McpDeps, 'clock' | 'env'>,
  resolution: SessionResolution = resolveSession(paths, { surface: 'mcp' }),
): Promise<Record<string, unknown>> {
  const { sessions, problems } = listActiveSessions(paths);
  const choice = resolution.kind === 'chosen' ? resolution.choice : null;
  const picked = {
    session: sessions.find((s) => s.session_id === choice?.session_id) ?? null,
    selected_by: choice?.source ?? null,
  };
  const active_sessions = sessions.map((s) => ({
    session_id: s.session_id,
    role: s.role,
    state: s.state,
    anchored: hasValidAnchor(paths, s.session_id).valid,
    started_at: s.started_at,
  }));
  const session = picked.session;
  if (session === null) {
    return {
      working_dir: paths.root,
      session_id: null,
      selected_by: picked.selected_by,
      session: null,
      anchor: null,
      context: null,
      active_sessions,
      problems,
      hint:
        resolution.kind === 'chosen'
          ? `session ${resolution.choice.session_id} is no longer active in ${paths.active}: call clock_in to start a new one.`
          : describeRefusal(resolution, paths, 'mcp').remedy,
    };
  }
  const check = hasValidAnchor(paths, session.session_id);
  const { config } = await loadConfig(paths.root, deps.env);
  const maxAge = config.freshness.max_age_hours;
  const now = deps.clock();
  // The hooks' own decision (src/hooks/session-verdict.ts), with the protocol's start gates when enforced.
  const verdict = await judgeSessionAct(paths, session, config, deps.env, now, {
    anchor: check,
    cli: agentHestaiCommand(paths.root),
  });
  const ageHours = Math.round(contextAgeHours(session, now) * 100) / 100;
  return {
    working_dir: paths.root,
    session_id: session.session_id,
    selected_by: picked.selected_by,
    session,
    anchor: {
      ...gateDecision(session.session_id, verdict),
      ...(check.valid
        ? {
            role: check.anchor.role,
            mode: check.anchor.mode,
            tier: check.anchor.tier,
            validated_at: check.anchor.validated_at,
            digest: anchorDigest(check.anchor),
          }
        : {}),
    },
    context: {
      generated_at: session.context_generated_at,
      age_hours: ageHours,
      max_age_hours: maxAge,
      stale: isContextOld(session, now, maxAge),
      acknowledged: isAcknowledged(session, now, maxAge),
    },
    active_sessions,
    problems,
  };
}

/** An OCTAVE file's text parsed to a plain object, or its syntax errors as `file:line: message`. */
export function parseOctaveFile(
  rel: string,
  content: string | null,
): { parsed: { name: string; data: OctaveObject } | null; parse_errors: string[] } {
  if (content === null) return { parsed: null, parse_errors: [] };
  const result = tryParseOctave(content);
  if (result.ok) return { parsed: { name: result.doc.name, data: toObject(result.doc) }, parse_errors: [] };
  return { parsed: null, parse_errors: result.errors.map((e) => `${rel}:${e.line}: ${e.message}`) };
}

/** `hestai://context/checklist` (was session://checklist): the FAST-layer checklist (`.hestai/context/state/checklist.oct.md`), text and parsed. */
export function sessionChecklist(paths: WorkspacePaths): Record<string, unknown> {
  const content = readTextIfExists(paths.checklist);
  const file = relativeToRoot(paths, paths.checklist);
  return {
    file,
    exists: content !== null,
    content,
    ...parseOctaveFile(file, content),
    ...(content === null ? { hint: 'The FAST layer is written by clock_in: call clock_in to generate it.' } : {}),
  };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
export const HISTORY_LIMIT = 5;

/**
 * `hestai://session/archive` (was session://history): the most recently archived sessions (newest first, at most five), each with its
 * text and parsed OCTAVE. Ordered by the archive's `ENDED_AT`, or the file's modification time without one.
 */
export function sessionHistory(
  paths: WorkspacePaths,
  limit = HISTORY_LIMIT,
): { sessions: Array<Record<string, unknown>> } {
  const entries = [];
  for (const name of listDir(paths.archive)) {
    if (name.startsWith('.')) continue;
    const file = path.join(paths.archive, name);
    const stat = fs.statSync(file);
    if (!stat.isFile()) continue;
    const rel = relativeToRoot(paths, file);
    const content = readTextIfExists(file);
    const octave = name.endsWith('.oct.md') ? parseOctaveFile(rel, content) : { parsed: null, parse_errors: [] };
    const data = octave.parsed?.data;
    const endedAt = archiveEndedAt(data?.['ENDED_AT']);
    const sessionId = typeof data?.['SESSION_ID'] === 'string' ? data['SESSION_ID'] : (UUID.exec(name)?.[0] ?? null);
    entries.push({
      session_id: sessionId,
      file: rel,
      archived_at: endedAt ?? stat.mtime.toISOString(),
      content,
      ...octave,
    });
  }
  entries.sort((a, b) => Date.parse(b.archived_at) - Date.parse(a.archived_at) || b.file.localeCompare(a.file));
  return { sessions: entries.slice(0, limit) };
}

/**
 * `hestai://audit` (was session://violations): the audit-log entries a retrospective needs (bypasses, acknowledgments,
 * take-overs, resets, violations), oldest first. A line that is not JSON is reported, never skipped silently.
 */
export function sessionViolations(paths: WorkspacePaths): {
  violations: Array<Record<string, unknown>>;
  problems: string[];
} {
  const text = readTextIfExists(paths.auditLog);
  const violations: Array<Record<string, unknown>> = [];
  const problems: string[] = [];
  if (text === null) return { violations, problems };
  const rel = relativeToRoot(paths, paths.auditLog);
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch (error) {
      problems.push(`${rel}:${index + 1}: line ${index + 1} is not JSON (${(error as Error).message})`);
      return;
    }
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      problems.push(`${rel}:${index + 1}: line ${index + 1} is not a JSON object`);
      return;
    }
    const record = entry as Record<string, unknown>;
    const kind = typeof record['event'] === 'string' ? violationKind(record['event']) : null;
    if (kind !== null) violations.push({ kind, ...record });
  });
  return { violations, problems };
}
