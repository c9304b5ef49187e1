import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpServer } from '@modelcontextprotocol/server';
import type { Connection } from './connection.js';

/** How long the server waits for the client's `roots/list` answer before it serves as without roots. */
export const ROOTS_TIMEOUT_MS = 5_000;

/**
 * Pure but for `realpath`: the directories of the client's roots (`file://` URIs; any other scheme is not a
 * directory hestai can serve and is skipped), symbolic links resolved; null when none is left (the client has
 * no roots: the server serves as before).
 */
export function rootDirs(roots: ReadonlyArray<{ uri: string }>): string[] | null {
  const dirs: string[] = [];
  for (const { uri } of roots) {
    if (!uri.startsWith('file:')) continue;
    let dir: string;
    try {
      dir = fileURLToPath(uri);
    } catch {
      continue;
    }
    try {
      dirs.push(fs.realpathSync(dir));
    } catch {
      dirs.push(path.resolve(dir));
    }
  }
  return dirs.length > 0 ? dirs : null;
}

/**
 * The roots a client declares (issue 26, item 6): when it declared the `roots` capability at `initialize`,
 * the server asks `roots/list` once initialized and again on every `notifications/roots/list_changed`, and its
 * tools then act only inside those roots, within the repository it serves: roots narrow, never widen
 * (`Connection.requireServed`); every tool call waits for the answer
 * in flight. A client without the capability, with no `file://` root, or that does not answer within
 * ROOTS_TIMEOUT_MS leaves the served repository as before (the worktree `hestai mcp` was started in). The
 * 2026-07-28 protocol revision has no server-to-client requests (roots are deprecated there): a client on it
 * is served as one without roots.
 */
export function followClientRoots(server: McpServer, connection: Connection, log: (line: string) => void): void {
  const inner = server.server;
  const ask = () => {
    if (!inner.getClientCapabilities()?.roots) return;
    connection.clientRoots(
      inner.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS }).then(
        (result) => rootDirs(result.roots),
        (error: unknown) => {
          log(
            `hestai mcp: roots/list failed (${error instanceof Error ? error.message : String(error)}); serving as without client roots`,
          );
          return null;
        },
      ),
    );
  };
  const before = inner.oninitialized;
  inner.oninitialized = () => {
    before?.();
    ask();
  };
  inner.setNotificationHandler('notifications/roots/list_changed', ask);
}
