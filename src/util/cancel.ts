import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Cancellation of the work one MCP request started (issue 26, item 7): the request's abort signal travels
 * with the asynchronous work it started, so the store can stop before a write the request has not made (a
 * lock wait checks it on every poll and once more after taking the lock, before the writes it guards).
 * Outside such work (the CLI, the hooks) there is no signal and nothing is ever cancelled.
 */
const current = new AsyncLocalStorage<AbortSignal>();

/** Why work stopped: its request was cancelled before the write at `where`. */
export class CancelledError extends Error {
  readonly code = 'CANCELLED';
  constructor(readonly where: string) {
    super(`cancelled before ${where}`);
  }
}

/** Runs `fn` with `signal` as the cancellation of everything it starts. */
export function withCancellation<T>(signal: AbortSignal | undefined, fn: () => T): T {
  return signal === undefined ? fn() : current.run(signal, fn);
}

/** Throws CancelledError when the work in progress was cancelled (before the write named by `where`). */
export function throwIfCancelled(where: string): void {
  if (current.getStore()?.aborted === true) throw new CancelledError(where);
}
