import { clockFromEnv, type Clock } from '../clock.js';

/** What the MCP server needs from the world, injected so it can be tested in-process (STYLE.md §8). */
export interface McpDeps {
  /** The directory the resources read (the server's working directory, or `hestai mcp --cwd DIR`). */
  cwd: string;
  clock: Clock;
  env: NodeJS.ProcessEnv;
  /** One diagnostic line; production writes it to stderr, never stdout (stdout is the protocol). */
  log: (line: string) => void;
  /**
   * The worktree roots the tools may act in: `hestai mcp` serves the worktree it was started in (`cwd`);
   * null (the default of an in-process server) leaves `working_dir` unrestricted.
   */
  served: readonly string[] | null;
}

/** Fills in the defaults: process cwd and env, the CLI clock (honours HESTAI_NOW), stderr logging. */
export function resolveDeps(deps: Partial<McpDeps> = {}): McpDeps {
  const env = deps.env ?? process.env;
  return {
    cwd: deps.cwd ?? process.cwd(),
    env,
    clock: deps.clock ?? clockFromEnv(env),
    log: deps.log ?? ((line) => process.stderr.write(line.endsWith('\n') ? line : `${line}\n`)),
    served: deps.served ?? null,
  };
}

/** What every tool and resource of one connection receives: the deps and the connection's own state. */
export interface McpContext extends McpDeps {
  connection: import('./connection.js').Connection;
}
