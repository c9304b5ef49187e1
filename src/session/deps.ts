import { systemClock, type Clock } from '../clock.js';

/** What the session API takes from its caller: the clock and the environment (STYLE.md §8). */
export interface SessionDeps {
  clock?: Clock;
  env?: NodeJS.ProcessEnv;
}

export function resolveDeps(deps: SessionDeps | undefined): { clock: Clock; env: NodeJS.ProcessEnv } {
  return { clock: deps?.clock ?? systemClock, env: deps?.env ?? process.env };
}
