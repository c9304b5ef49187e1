#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { commandArgv } from './command-argv.js';
import { mcpArgv } from './mcp-argv.js';
import { sessionArgv } from './session-argv.js';
import { toolUseArgv } from './tool-use-argv.js';

function internalError(error: unknown): void {
  process.stderr.write(
    `hestai: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 2;
}

// Fast paths that skip the commander CLI parser (see README "Speed"):
// - `hestai check pre-commit` / `hestai check commit-msg FILE` started in a worktree root run the bundled hook;
// - `hestai check tool-use [--json] [--deny-exit 1|2] [--cwd DIR]` runs the agent hook bundle;
// - `hestai mcp [--cwd DIR]` goes straight to the stdio server;
// - `hestai session start|gate|advance|evidence|blocked|end|show` in its plain forms (session-argv.ts) runs
//   the protocol command's handler without commander;
// - any other `hestai [--json] [--cwd DIR] <command> ...` (command-argv.ts) runs the full program from the
//   command's own CommonJS bundle, dist/hooks/cli-command-<command>.cjs, when there is one.
const [command, hook, ...rest] = process.argv.slice(2);
const mcp = mcpArgv(process.argv.slice(2));
const toolUse = toolUseArgv(process.argv.slice(2));
const session = mcp || toolUse ? null : sessionArgv(process.argv.slice(2));
const routed = mcp || toolUse || session ? null : commandArgv(process.argv.slice(2));
const commandBundle =
  routed === null ? null : fileURLToPath(new URL(`../hooks/cli-command-${routed}.cjs`, import.meta.url));
if (toolUse) {
  const bundle = createRequire(import.meta.url)(
    '../hooks/claude-code.cjs',
  ) as typeof import('../agent/entry/claude-code.js');
  process.exit(await bundle.runCheck(fileURLToPath(new URL('../..', import.meta.url)), toolUse));
} else if (
  command === 'check' &&
  (hook === 'pre-commit' || hook === 'commit-msg') &&
  rest.length <= 1 &&
  !rest.some((a) => a.startsWith('-')) &&
  existsSync('.git')
) {
  const bundle = createRequire(import.meta.url)(`../hooks/${hook}.cjs`) as {
    run: (args: readonly string[]) => Promise<number>;
  };
  process.exitCode = await bundle.run(rest);
} else if (mcp) {
  import('./mcp-main.js').then(({ runMcp }) => runMcp(mcp.cwd), internalError);
} else if (session) {
  // One CommonJS bundle (scripts/build.mjs), like the hooks: loading it beats resolving ~35 chunks.
  const bundle = createRequire(import.meta.url)('../hooks/cli-session.cjs') as typeof import('./session-main.js');
  process.exitCode = await bundle.runSession(session).catch((error: unknown) => {
    internalError(error);
    return 2;
  });
} else if (commandBundle !== null && existsSync(commandBundle)) {
  // One CommonJS file (scripts/build.mjs) instead of ~35 ES-module chunks: the same program and handlers.
  const bundle = createRequire(import.meta.url)(commandBundle) as typeof import('./main.js');
  process.exitCode = await bundle.main(process.argv).catch((error: unknown) => {
    internalError(error);
    return 2;
  });
} else {
  import('./main.js')
    .then(
      ({ main }) =>
        main(process.argv).then((code) => {
          process.exitCode = code;
        }),
      internalError,
    )
    .catch(internalError);
}
