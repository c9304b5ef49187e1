/**
 * The `hestai check tool-use` fast path: when the arguments are exactly `check tool-use` with optional
 * `--json`, `--deny-exit 1|2` and `--cwd DIR`, the entrypoint runs the agent hook bundle without loading
 * the CLI parser (it sits before agent tool calls). Anything else returns null and goes through the full CLI.
 */
export function toolUseArgv(
  args: readonly string[],
): { json: boolean; denyExit: 1 | 2; cwd: string | undefined } | null {
  if (args[0] !== 'check' || args[1] !== 'tool-use') return null;
  const out: { json: boolean; denyExit: 1 | 2; cwd: string | undefined } = { json: false, denyExit: 1, cwd: undefined };
  for (let i = 2; i < args.length; i++) {
    const arg = args[i]!;
    const value = (name: string) =>
      arg === name && i + 1 < args.length
        ? args[++i]
        : arg.startsWith(`${name}=`)
          ? arg.slice(name.length + 1)
          : undefined;
    if (arg === '--json') out.json = true;
    else if (arg === '--deny-exit' || arg.startsWith('--deny-exit=')) {
      const code = value('--deny-exit');
      if (code !== '1' && code !== '2') return null;
      out.denyExit = code === '2' ? 2 : 1;
    } else if (arg === '--cwd' || arg.startsWith('--cwd=')) {
      const dir = value('--cwd');
      if (dir === undefined || dir === '') return null;
      out.cwd = dir;
    } else return null;
  }
  return out;
}
