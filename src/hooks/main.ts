import fs from 'node:fs';
import path from 'node:path';
import { clockFromEnv, pinnedClock, type Clock } from '../clock.js';
import { loadConfig } from '../config/load.js';
import type { WorkspaceConfig } from '../config/schema.js';
import { isHestaiError } from '../errors.js';
import { workspacePaths } from '../paths.js';
import { hintRenderer } from '../util/invocation.js';
import { writeFd } from '../util/fd-write.js';
import { applyHookOutcome, type HookOutcome } from './outcome.js';
import { checkProtocolGate } from './protocol-gate.js';

export type HookName = 'pre-commit' | 'prepare-commit-msg' | 'commit-msg' | 'pre-push';

/** What a hook's decision function receives. */
export interface HookContext {
  root: string;
  args: readonly string[];
  config: WorkspaceConfig;
  env: NodeJS.ProcessEnv;
  clock: Clock;
}

/**
 * Runs one hook decision and applies it; returns the exit code. Loads neither commander nor zod nor yaml
 * (unless the workspace config changed since it was last validated). `root` is the worktree root.
 */
export async function executeHook(
  name: HookName,
  root: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  decide: (ctx: HookContext) => HookOutcome | Promise<HookOutcome>,
): Promise<number> {
  // Hints are rendered for the user's install (`npx hestai` in a local one); hooks/<name> is argv[1].
  const render = hintRenderer(root, path.resolve(path.dirname(process.argv[1] ?? '.'), '..'), env);
  const write = (text: string) => writeFd(2, render(text));
  try {
    const clock = clockFromEnv(env);
    const pinned = pinnedClock(env);
    if (pinned !== null)
      write(
        `hestai: WARNING: HESTAI_NOW=${clock().toISOString()} pins the clock of the ${name} hook (a testing aid); ${name === 'pre-push' ? 'the events it publishes are dated by it' : 'the commit records it in a HestAI-Clock trailer, which hestai verify reports'}.\n`,
      );
    const { config } = await loadConfig(root);
    return applyHookOutcome(await decide({ root, args, config, env, clock }), workspacePaths(root), clock, write);
  } catch (error) {
    if (isHestaiError(error)) {
      write(
        `hestai: ${error.message}\n${error.details.map((d) => `  - ${d}\n`).join('')}${error.remedy ? `hint: ${error.remedy}\n` : ''}`,
      );
      return error.exitCode;
    }
    write(
      `hestai: internal error in the ${name} hook: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 2;
  }
}

/** The pre-commit decision as a hook. */
export function decidePreCommit(
  check: typeof import('./pre-commit.js').checkPreCommit,
): (ctx: HookContext) => Promise<HookOutcome> {
  return (ctx) => checkProtocolGate(ctx, check(ctx));
}

/** The commit-msg decision as a hook: the message file is the first argument. */
export function decideCommitMsg(
  check: typeof import('./commit-msg.js').checkCommitMsg,
): (ctx: HookContext) => HookOutcome {
  return (ctx) => {
    const file = ctx.args[0];
    if (!file) {
      return {
        exitCode: 2,
        lines: [
          'hestai: commit-msg needs the message file as its argument',
          'hint: git passes it; by hand: hestai check commit-msg .git/COMMIT_EDITMSG',
        ],
        audit: [],
        session_id: null,
      };
    }
    return check({ ...ctx, file });
  };
}

/** The pre-push decision as a hook: git passes the remote's name and URL, and the refs on stdin. */
export function decidePrePush(
  check: typeof import('./pre-push.js').prePush,
  stdin: () => string,
): (ctx: HookContext) => HookOutcome {
  return (ctx) => check({ root: ctx.root, args: ctx.args, stdin: stdin(), config: ctx.config, clock: ctx.clock });
}

/** Reads the hook's stdin (empty when it is a terminal). */
export function readHookStdin(): string {
  if (process.stdin.isTTY) return '';
  try {
    return fs.readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

/** Runs a hook by name (the library and `hestai check ... --cwd` path; the hook files use the bundles). */
export async function runHook(
  name: HookName,
  root: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  if (name === 'pre-commit') {
    const { checkPreCommit } = await import('./pre-commit.js');
    return executeHook(name, root, args, env, decidePreCommit(checkPreCommit));
  }
  if (name === 'pre-push') {
    const { prePush } = await import('./pre-push.js');
    return executeHook(name, root, args, env, decidePrePush(prePush, readHookStdin));
  }
  if (name === 'prepare-commit-msg') {
    const { prepareCommitMsg } = await import('./prepare-commit-msg.js');
    return executeHook(name, root, args, env, prepareCommitMsg);
  }
  const { checkCommitMsg } = await import('./commit-msg.js');
  return executeHook(name, root, args, env, decideCommitMsg(checkCommitMsg));
}
