import { clockFromEnv } from '../clock.js';
import { serveMcpStdio } from '../mcp/stdio.js';
import { createOutput } from './output.js';
import { reportError } from './run.js';

/** Starts `hestai mcp` (shared by the fast path in bin.ts and the `mcp` command). */
export function runMcp(cwd: string | undefined, env: NodeJS.ProcessEnv = process.env): void {
  try {
    serveMcpStdio({ cwd: cwd ?? process.cwd(), env, clock: clockFromEnv(env) });
  } catch (error) {
    process.exitCode = reportError(createOutput(false), error);
  }
}
