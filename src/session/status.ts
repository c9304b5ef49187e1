import fs from 'node:fs';
import path from 'node:path';
import { anchorDigest, hasValidAnchor } from '../records/anchor.js';
import { loadConfig } from '../config/load.js';
import { hooksDirAsync } from '../git/async.js';
import { workspaceTrust, type WorkspaceTrust } from '../trust/report.js';
import { resolveWorkspace } from '../workspace.js';
import { resolveDeps, type SessionDeps } from './deps.js';
import { isAcknowledged, listActiveSessions } from '../records/session.js';
import { resolveSessionChoice, type SessionChoice } from '../records/resolve.js';
import { contextAgeHours, isContextStale } from '../records/freshness.js';
import { judgeSessionAct, verdictCode, verdictReason, type VerdictCode } from '../hooks/session-verdict.js';

/** Whether a session may act now: the verdict the hooks and MCP give (src/hooks/session-verdict.ts). */
export interface StatusVerdict {
  session_id: string | null;
  may_act: boolean;
  code: VerdictCode;
  reason: string;
}

export interface SessionStatusEntry {
  session_id: string;
  role: string;
  focus: string;
  state: string;
  branch: string | null;
  started_at: string;
  last_activity: string;
  context_generated_at: string;
  context_age_hours: number;
  context_stale: boolean;
  acknowledged: boolean;
  binding: { valid: boolean; code?: string; reason?: string; validated_at?: string; anchor_digest?: string };
  verdict: StatusVerdict;
}

/** The dashboard data of `hestai status`. */
export interface SessionStatus {
  root: string;
  current_session: SessionChoice | null;
  /** The verdict on the current session (`NO_SESSION` without one). */
  verdict: StatusVerdict;
  sessions: SessionStatusEntry[];
  corrupt_sessions: { session_id: string; error: string }[];
  archives: number;
  thresholds: { max_context_age_hours: number; stale_session_hours: number; archive_retention_days: number };
  /** Whether the hook files git runs in this worktree call hestai. */
  hooks: { dir: string | null; pre_commit: boolean; commit_msg: boolean };
  /** What the repository's settings may do: `inert` lists what stays off until `hestai trust`. */
  trust: WorkspaceTrust;
}

function callsHestai(dir: string, name: string): boolean {
  for (const file of [
    path.join(dir, name),
    ...(path.basename(dir) === '_' ? [path.join(path.dirname(dir), name)] : []),
  ]) {
    try {
      if (/hestai/.test(fs.readFileSync(file, 'utf8'))) return true;
    } catch {
      /* no such hook */
    }
  }
  return false;
}

/** `hestai status`: sessions with binding state and context age, the session hooks would use, and the hooks. */
export async function sessionStatus(input: { working_dir: string }, deps?: SessionDeps): Promise<SessionStatus> {
  const { clock, env } = resolveDeps(deps);
  const workspace = resolveWorkspace(input.working_dir, { requireAbsolute: true });
  const paths = workspace.paths;
  const { config } = await loadConfig(workspace.root);
  const now = clock();
  const listed = listActiveSessions(paths);
  const sorted = listed.sessions.sort((a, b) => Date.parse(b.started_at) - Date.parse(a.started_at));
  const sessions = await Promise.all(
    sorted.map(async (s): Promise<SessionStatusEntry> => {
      const check = hasValidAnchor(paths, s.session_id);
      const verdict = await judgeSessionAct(paths, s, config, env, now, { anchor: check });
      return {
        session_id: s.session_id,
        role: s.role,
        focus: s.focus,
        state: s.state,
        branch: s.branch,
        started_at: s.started_at,
        last_activity: s.last_activity,
        context_generated_at: s.context_generated_at,
        context_age_hours: Math.round(contextAgeHours(s, now) * 100) / 100,
        context_stale: isContextStale(s, now, config.freshness.max_age_hours),
        acknowledged: isAcknowledged(s, now, config.freshness.max_age_hours),
        binding: check.valid
          ? { valid: true, validated_at: check.anchor.validated_at, anchor_digest: anchorDigest(check.anchor) }
          : { valid: false, code: check.code, reason: check.reason },
        verdict: {
          session_id: s.session_id,
          may_act: verdict.ok,
          code: verdictCode(verdict),
          reason: verdictReason(verdict, s.session_id),
        },
      };
    }),
  );
  let archives = 0;
  try {
    archives = fs.readdirSync(paths.archive).filter((n) => n.endsWith('.oct.md')).length;
  } catch {
    archives = 0;
  }
  let hooksDir: string | null = null;
  if (workspace.repo) {
    try {
      hooksDir = await hooksDirAsync(workspace.root);
    } catch {
      hooksDir = null;
    }
  }
  let current: SessionChoice | null = null;
  try {
    current = resolveSessionChoice(paths, undefined, env);
  } catch {
    current = null;
  }
  const judged = sessions.find((s) => s.session_id === current?.session_id);
  return {
    root: workspace.root,
    current_session: current,
    verdict: judged?.verdict ?? {
      session_id: current?.session_id ?? null,
      may_act: false,
      code: 'NO_SESSION',
      reason:
        current === null
          ? 'no session is chosen: name one with HESTAI_SESSION, or clock in'
          : `session ${current.session_id} is not active in this worktree`,
    },
    sessions,
    corrupt_sessions: listed.problems,
    archives,
    thresholds: {
      max_context_age_hours: config.freshness.max_age_hours,
      stale_session_hours: config.cleanup.stale_session_hours,
      archive_retention_days: config.cleanup.archive_retention_days,
    },
    trust: workspaceTrust(workspace, config, env),
    hooks: {
      dir: hooksDir,
      pre_commit: hooksDir ? callsHestai(hooksDir, 'pre-commit') : false,
      commit_msg: hooksDir ? callsHestai(hooksDir, 'commit-msg') : false,
    },
  };
}
