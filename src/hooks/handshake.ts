import path from 'node:path';
import { pendingDir, type WorkspacePaths } from '../paths.js';
import { parseJsonState, readTextIfExists } from '../state/store.js';

/**
 * True when the pending handshake of `token` is terminal (locked after too many failed retries until a
 * human runs `hestai anchor reset`). Reads `pending/{token}/handshake.json`'s `terminal` field.
 * TODO(lead): replace with `readHandshake(paths, token)?.terminal` from src/anchor/handshake-store.ts.
 */
export function handshakeIsTerminal(paths: WorkspacePaths, token: string): boolean {
  const file = path.join(pendingDir(paths, token), 'handshake.json');
  const text = readTextIfExists(file);
  if (text === null) return false;
  const value = parseJsonState(file, text) as { terminal?: unknown } | null;
  return value !== null && typeof value === 'object' && value.terminal === true;
}
