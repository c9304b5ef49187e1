/**
 * Facts about the workspace that the gate checks judge, gathered by `facts.ts` (git, files, records) and
 * passed to the pure evaluation. Only the facts the evaluated gates need are gathered; a missing fact
 * evaluates as "unknown" (never as a pass).
 */
export interface CommandOutcome {
  /** false: the workspace is not trusted, so the command was not run. */
  ran: boolean;
  exit_code: number | null;
  timed_out: boolean;
  /** The last lines of output, for the message. */
  tail: string;
  /** When not run: why, and what to do. */
  reason?: string;
  remedy?: string;
}

export interface Facts {
  session_id: string;
  /** ISO time the run started. */
  started_at: string;
  starting_commit: string | null;
  /** Paths (or globs) → whether a matching file exists. */
  exists: Record<string, boolean>;
  /** Files changed since the starting commit (committed, staged, unstaged, untracked), or null if unknown. */
  changed: string[] | null;
  /** The changed files that contain the session id (gathered only for a `names_session` check). */
  naming_session?: string[];
  /** Commits on HEAD since the starting commit. */
  commits_since_start: number | null;
  /** Uncommitted paths (staged, unstaged, untracked); empty when clean. */
  dirty: string[] | null;
  branch: string | null | undefined;
  /** HEAD's branch (null: detached) and commit, for git_state checks (null sha: no commit yet). */
  head?: { branch: string | null; sha: string | null } | undefined;
  anchor: { valid: boolean; reason: string } | undefined;
  context: { fresh: boolean; reason: string } | undefined;
  tests_first: { ok: boolean; failures: string[]; judged: number } | undefined;
  /** Command outcomes keyed by the command text (run now, or recorded results when not run). */
  commands: Record<string, CommandOutcome>;
  /** sha256 of files named by content_hash checks (null: missing). */
  hashes: Record<string, string | null>;
  /** Evidence file paths → whether they exist inside the worktree. */
  evidence_files: Record<string, boolean>;
  /** Evidence commit shas → the full sha when it names a commit, else null. */
  evidence_commits: Record<string, string | null>;
}

export function emptyFacts(session_id: string, started_at: string, starting_commit: string | null): Facts {
  return {
    session_id,
    started_at,
    starting_commit,
    exists: {},
    changed: null,
    commits_since_start: null,
    dirty: null,
    branch: undefined,
    anchor: undefined,
    context: undefined,
    tests_first: undefined,
    commands: {},
    hashes: {},
    evidence_files: {},
    evidence_commits: {},
  };
}
