/**
 * The `hestai mcp` fast path: when the arguments are exactly `mcp` with an optional `--cwd DIR`, the
 * entrypoint serves the MCP server without loading the CLI parser (cold start is part of the budget).
 * Anything else (help, unknown flags, other commands) returns null and goes through the full CLI.
 */
export function mcpArgv(args: readonly string[]): { cwd: string | undefined } | null {
  let cwd: string | undefined;
  let sawMcp = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === 'mcp' && !sawMcp) sawMcp = true;
    else if (arg === '--cwd' && cwd === undefined && i + 1 < args.length) cwd = args[++i];
    else if (arg.startsWith('--cwd=') && cwd === undefined) cwd = arg.slice('--cwd='.length);
    else return null;
  }
  return sawMcp ? { cwd } : null;
}
