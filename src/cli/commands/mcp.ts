import type { Command } from 'commander';
import { clockFromEnv } from '../../clock.js';
import { createOutput } from '../output.js';
import { reportError } from '../run.js';

/**
 * `hestai mcp`: the stdio MCP server. Unlike other commands it prints nothing of its own on stdout (that
 * is the protocol stream); startup errors go to stderr with the usual exit codes.
 */
export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description(
      'serve the MCP server over stdio (tools: clock_in, anchor, anchor_status, ...; resources: session://...)',
    )
    .action(async (_options: unknown, command: Command) => {
      const { serveMcpStdio } = await import('../../mcp/stdio.js');
      try {
        const cwd = command.optsWithGlobals<{ cwd?: string }>().cwd ?? process.cwd();
        serveMcpStdio({ cwd, env: process.env, clock: clockFromEnv(process.env) });
      } catch (error) {
        process.exitCode = reportError(createOutput(false), error);
      }
    });
}
