import type { WorkspacePaths } from '../paths.js';
import { terminalState } from '../records/terminal.js';

/**
 * True when the session may not anchor or commit because a handshake went terminal: its own pending
 * handshake says so, or its role is locked in this worktree (`.hestai/sessions/terminal/{role}.json`,
 * which outlives the pending directory and new sessions of the role) until a human runs
 * `hestai anchor reset`. See src/records/terminal.ts.
 */
export function handshakeIsTerminal(paths: WorkspacePaths, token: string, role?: string | null): boolean {
  return terminalState(paths, token, role) !== null;
}
