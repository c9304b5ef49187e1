/** Shared types of the pure validation rules (one file per section; no fs or git in any rule). */
import type { Strictness } from '../../records/anchor.js';

export type RuleSection = 'STRUCTURE' | 'BIND' | 'ARM' | 'TENSION' | 'COMMIT';

/** One broken rule: a stable id, the section, what is wrong (with the vector line) and how to fix it. */
export interface Violation {
  rule: string;
  section: RuleSection;
  message: string;
  fix: string;
  line?: number;
}

/** What a CTX path resolved to inside the working directory. */
export type CtxTarget =
  | { kind: 'file'; lines: number }
  | { kind: 'dir' }
  | { kind: 'missing' }
  /** A regular file larger than MAX_CTX_BYTES: it exists, but its lines are not counted. */
  | { kind: 'too_large'; bytes: number; limit: number }
  /** A FIFO, socket or device: never opened. */
  | { kind: 'special' }
  /** The path resolves (through a symlink) to somewhere outside the working directory. */
  | { kind: 'outside'; target: string };

/** The capability a rule gets instead of the filesystem: resolve a relative CTX path. */
export type CtxProbe = (relativePath: string) => CtxTarget;

/** The cognition a role's constitution declares (BIND must match it when present). */
export interface DeclaredCognition {
  type: string | null;
  archetypes: string[];
}

/** Whether a session id is one of this worktree's: live (`active/{id}/`), archived, or unknown (null). */
export type SessionLookup = (sessionId: string) => 'live' | 'archived' | null;

export interface RuleOptions {
  role: string;
  strictness: Strictness;
  probe: CtxProbe;
  cognition?: DeclaredCognition | null;
  /**
   * Looks up the parent a `DELEGATED[...]` authority names. Absent (`hestai verify`, which has no local
   * sessions): only the id's form is checked.
   */
  sessions?: SessionLookup;
  /** The session being anchored: it cannot be its own parent. */
  sessionId?: string | null;
}

/** One error line as printed: `RULE_ID: message`. */
export function errorLine(v: Violation): string {
  return `${v.rule}: ${v.message}`;
}
