import type { Command } from 'commander';
import { reportError, contextFrom } from '../run.js';
import { createOutput } from '../output.js';

/**
 * `hestai mcp`: the stdio MCP server. Unlike other commands it prints nothing of its own on stdout (that
 * is the protocol stream); startup errors go to stderr with the usual exit codes.
 */
export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('serve the MCP server over stdio (tools: clock_in, anchor, anchor_status, ...; resources: session://...)')
    .action(async (_options: unknown, command: Command) => {
      try {
        const ctx = contextFrom(command);
        const { serveMcpStdio } = await import('../../mcp/stdio.js');
        serveMcpStdio({ cwd: ctx.cwd, env: ctx.env, clock: ctx.clock });
      } catch (error) {
        process.exitCode = reportError(createOutput(false), error);
      }
    });
}
