/**
 * The command a plain invocation runs: `[--json] [--cwd DIR | --cwd=DIR] <command> ...`, the global options
 * before the command in forms commander reads one way only. The entrypoint runs such a command from its own
 * CommonJS bundle (scripts/build.mjs): the same program, with only that command's code in the file. Anything
 * else (no command, help, version, an option before the command that is not one of these) returns null and
 * goes through the full CLI.
 */
export function commandArgv(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--json' || arg.startsWith('--cwd=')) continue;
    if (arg === '--cwd') {
      const dir = args[i + 1];
      if (dir === undefined || dir.startsWith('-')) return null;
      i++;
      continue;
    }
    return /^[a-z][a-z-]*$/.test(arg) ? arg : null;
  }
  return null;
}
