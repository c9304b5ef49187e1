import type { Command } from 'commander';

/**
 * `hestai mcp`: the stdio MCP server. Unlike other commands it prints nothing of its own on stdout (that
 * is the protocol stream); startup errors go to stderr with the usual exit codes. The plain invocation
 * is served by the fast path in bin.ts; this registration gives it help and the usual flag handling.
 */
export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description(
      'serve the MCP server over stdio (tools: clock_in, anchor, anchor_status, ...; resources: session://...)',
    )
    .action(async (_options: unknown, command: Command) => {
      const { runMcp } = await import('../mcp-main.js');
      runMcp(command.optsWithGlobals<{ cwd?: string }>().cwd);
    });
}
