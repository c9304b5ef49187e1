import { hasValidAnchor } from './anchor.js';
import { usageError } from '../errors.js';
import type { WorkspacePaths } from '../paths.js';
import { quoteInput } from '../util/quote.js';
import { UUID_V4 } from '../util/validate.js';
import { isLive, listActiveSessions, type SessionRecord } from './session.js';
import { availableRoles, exampleRole } from './roles.js';

/**
 * Which session a command, a hook or an MCP tool acts on: ONE rule for all of them (docs/design.md "One agent,
 * one session").
 *
 * 1. an explicit id (`--session`, the `session_id` argument) — `explicit`;
 * 2. the session of the MCP connection (the one it clocked in or anchored, else the one `HESTAI_SESSION`
 *    pinned for the server) — `connection`;
 * 3. `HESTAI_SESSION` — `env` (how an agent runtime pins its session for git and the CLI);
 * 4. otherwise, only when exactly ONE live (CREATED/ACTIVE) session of the worktree fits — `only`. A session
 *    started by an agent runtime (an MCP `clock_in`, `hestai clock-in --print-env`) is *pinned*: it never
 *    fits an implicit choice, so a commit or command of anyone else cannot borrow it. With several
 *    fitting sessions nothing is chosen: the candidates are listed with how to choose.
 */
export type SessionSource = 'explicit' | 'env' | 'connection' | 'only';

/** Which session a command acts on, and why. */
export interface SessionChoice {
  session_id: string;
  source: SessionSource;
}

/** A live session that could have been meant, as a refusal lists it. */
export interface SessionCandidate {
  session_id: string;
  role: string;
  focus: string;
  state: string;
  started_at: string;
  anchored: boolean;
  /** Started by an agent runtime: used only where it is named. */
  pinned: boolean;
}

export type SessionResolution =
  | { kind: 'chosen'; choice: SessionChoice }
  /** No session fits: `candidates` are the live sessions pinned to other agents (possibly none). */
  | { kind: 'none'; candidates: SessionCandidate[] }
  /** More than one fits: nothing is chosen. */
  | { kind: 'ambiguous'; candidates: SessionCandidate[] };

/** Where a refusal is shown: the wording of "how to choose" differs, the rule does not. */
export type Surface = 'cli' | 'hook' | 'mcp';

export function checkSessionId(id: string, where: string, surface: Surface = 'cli'): string {
  if (!UUID_V4.test(id)) {
    throw usageError(`${where} ${quoteInput(id)} is not a session id (a UUID v4 as returned by clock-in)`, {
      code: 'SESSION_INVALID',
      remedy:
        surface === 'mcp'
          ? 'Pass the session_id that clock_in returned, or leave session_id out to use the session of this connection.'
          : 'Pass the session_id printed by "hestai clock-in", or run "hestai status" to list the sessions.',
    });
  }
  return id;
}

function candidate(paths: WorkspacePaths, s: SessionRecord): SessionCandidate {
  return {
    session_id: s.session_id,
    role: s.role,
    focus: s.focus,
    state: s.state,
    started_at: s.started_at,
    anchored: hasValidAnchor(paths, s.session_id).valid,
    pinned: s.pinned === true,
  };
}

/** The rule (see {@link SessionSource}). Throws (exit 2) for an explicit or `HESTAI_SESSION` value that is not a UUID v4. */
export function resolveSession(
  paths: WorkspacePaths,
  input: { explicit?: string | undefined; env?: NodeJS.ProcessEnv; connection?: string | null; surface?: Surface },
): SessionResolution {
  const surface = input.surface ?? 'cli';
  const explicit = input.explicit?.trim();
  if (explicit)
    return {
      kind: 'chosen',
      choice: {
        session_id: checkSessionId(explicit, surface === 'mcp' ? 'session_id' : 'session', surface),
        source: 'explicit',
      },
    };
  if (input.connection)
    return {
      kind: 'chosen',
      choice: {
        session_id: checkSessionId(input.connection, 'the session of this connection', surface),
        source: 'connection',
      },
    };
  const fromEnv = input.env?.['HESTAI_SESSION']?.trim();
  if (fromEnv)
    return {
      kind: 'chosen',
      choice: { session_id: checkSessionId(fromEnv, 'HESTAI_SESSION', surface), source: 'env' },
    };
  const live = listActiveSessions(paths).sessions.filter(isLive);
  const fits = live.filter((s) => s.pinned !== true);
  if (fits.length === 1) return { kind: 'chosen', choice: { session_id: fits[0]!.session_id, source: 'only' } };
  const byStart = (a: SessionRecord, b: SessionRecord) => a.started_at.localeCompare(b.started_at);
  if (fits.length === 0) return { kind: 'none', candidates: live.sort(byStart).map((s) => candidate(paths, s)) };
  return { kind: 'ambiguous', candidates: fits.sort(byStart).map((s) => candidate(paths, s)) };
}

function listCandidate(c: SessionCandidate): string {
  return `${c.session_id} (${c.role}, "${c.focus}", ${c.state.toLowerCase()}${c.anchored ? ', anchored' : ''}${c.pinned ? ', pinned to the agent that started it' : ''}, started ${c.started_at})`;
}

/** How to name a session, in the words of the surface. */
function howToChoose(surface: Surface, id: string, role: string): string {
  switch (surface) {
    case 'hook':
      return `run git with your session named: HESTAI_SESSION=${id} git commit ... (an agent runtime exports HESTAI_SESSION once, for a new session: eval "$(hestai clock-in --role ${role} --print-env)")`;
    case 'cli':
      return `name it: --session ${id} (or export HESTAI_SESSION=${id})`;
    case 'mcp':
      return `pass session_id: "${id}" (the session_id clock_in returned to you)`;
  }
}

/**
 * How to start a session, in the words of the surface. For a commit, both paths: an agent's or a shell's
 * (pinned, exported to the commands it runs) and a person's outside a shell (an editor or a git GUI sees no
 * HESTAI_SESSION: a session that is not pinned serves every commit while it is the only live one).
 */
export function clockInHint(surface: Surface, roles: readonly string[]): string {
  if (surface === 'mcp') return 'call clock_in to start your own session';
  const role = exampleRole(roles);
  const list = roles.length > 0 ? ` (roles here: ${roles.join(', ')})` : '';
  if (surface === 'cli') return `clock in first${list}: hestai clock-in --role ${role}`;
  return (
    `clock in first${list}. In a shell or an agent: eval "$(hestai clock-in --role ${role} --print-env)" ` +
    `(the commits run from it use that session). From an editor or a git GUI: hestai clock-in --role ${role} ` +
    `(not pinned: commits from any tool in this worktree use it while it is the only live session). ` +
    `Then anchor it: clock-in prints the command`
  );
}

/** What a refusal says: what is wrong (with every candidate, one per detail line) and how to choose. */
export function describeRefusal(
  resolution: Exclude<SessionResolution, { kind: 'chosen' }>,
  paths: WorkspacePaths,
  surface: Surface,
): { reason: string; details: string[]; remedy: string } {
  const details = resolution.candidates.map(listCandidate);
  const example = resolution.candidates[0]?.session_id ?? '<session_id>';
  const start = clockInHint(surface, availableRoles(paths));
  if (resolution.kind === 'ambiguous') {
    return {
      reason: `${resolution.candidates.length} live sessions in this worktree could be meant (${paths.active}), and nothing picks one on your behalf`,
      details,
      remedy: `Choose yours: ${howToChoose(surface, example, exampleRole(availableRoles(paths)))}. Not one of these? ${start[0]!.toUpperCase()}${start.slice(1)}.`,
    };
  }
  if (resolution.candidates.length > 0) {
    return {
      reason: `no session of this worktree can be used without naming it (${paths.active}): the live session${resolution.candidates.length === 1 ? ' is' : 's are'} pinned to the agent${resolution.candidates.length === 1 ? '' : 's'} that started ${resolution.candidates.length === 1 ? 'it' : 'them'}`,
      details,
      remedy: `If one is yours, ${howToChoose(surface, example, exampleRole(availableRoles(paths)))}. Otherwise ${start}.`,
    };
  }
  return {
    reason: `no active session in this worktree (${paths.active})`,
    details,
    remedy: `${start[0]!.toUpperCase()}${start.slice(1)}${surface === 'mcp' ? ', then anchor it (stage identity → context → proof)' : ''}.`,
  };
}

/** The session to act on, or a usage error (exit 2) listing the candidates and how to choose. */
export function requireSessionChoice(
  paths: WorkspacePaths,
  input: { explicit?: string | undefined; env?: NodeJS.ProcessEnv; connection?: string | null; surface?: Surface },
): SessionChoice {
  const resolution = resolveSession(paths, input);
  if (resolution.kind === 'chosen') return resolution.choice;
  const { reason, details, remedy } = describeRefusal(resolution, paths, input.surface ?? 'cli');
  throw usageError(reason, {
    code: resolution.kind === 'ambiguous' ? 'SESSION_AMBIGUOUS' : 'NO_SESSION',
    details,
    remedy,
  });
}

/** The chosen session, or null when none or several fit (see {@link resolveSession}). */
export function resolveSessionChoice(
  paths: WorkspacePaths,
  explicit: string | undefined,
  env: NodeJS.ProcessEnv,
): SessionChoice | null {
  const resolution = resolveSession(paths, { explicit, env });
  return resolution.kind === 'chosen' ? resolution.choice : null;
}

/** The id of the session to act on (see {@link resolveSessionChoice}), or null. */
export function resolveSessionId(
  paths: WorkspacePaths,
  explicit?: string,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  return resolveSessionChoice(paths, explicit, env)?.session_id ?? null;
}
