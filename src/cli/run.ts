import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { findProjectRoot } from '../agent/project-root.js';
import { hintRenderer } from '../util/invocation.js';
import { clockFromEnv, systemClock, type Clock } from '../clock.js';
import { ExitCode, isHestaiError, type HestaiError } from '../errors.js';
import { createOutput, paint, type Output } from './output.js';

/** What every command handler receives: global options resolved, output, clock and environment. */
export interface CommandContext {
  /** The `--cwd` value (default: the current directory), not yet validated. */
  cwd: string;
  json: boolean;
  out: Output;
  clock: Clock;
  env: NodeJS.ProcessEnv;
}

/** What a handler returns: the exit code, the JSON document and the text for humans. */
export interface CommandResult {
  exitCode: ExitCode;
  json: unknown;
  text: string;
  /** Written to stderr in both modes (e.g. the hook's "using session ..." line). */
  notes?: string[];
  /** The handler already wrote its output to stdout as it went (`hestai verify` over a long range). */
  streamed?: boolean;
}

/** `--session` of the commands that act on a session (the one rule of src/records/resolve.ts picks the default). */
export const SESSION_OPTION = [
  '--session <id>',
  'session id (default: HESTAI_SESSION, else the only live session not pinned to an agent)',
] as const;

/** This package's root: dist/cli/ (the bundle and its chunks, or tsc's output) is two levels below it. */
const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Output whose hints name the invocation that works in the project at `cwd` (`npx hestai` where hestai-hooks
 * is a dependency); the JSON document on stdout is left as it is.
 */
export function hintedOutput(out: Output, cwd: string, env: NodeJS.ProcessEnv): Output {
  const render = hintRenderer(findProjectRoot(cwd) ?? cwd, PACKAGE_ROOT, env);
  return {
    ...out,
    stdout: out.json ? out.stdout : (text) => out.stdout(render(text)),
    stderr: (text) => out.stderr(render(text)),
  };
}

export function contextFrom(command: Command): CommandContext {
  const globals = command.optsWithGlobals<{ cwd?: string; json?: boolean }>();
  const json = globals.json === true;
  const cwd = globals.cwd ?? process.cwd();
  return {
    cwd,
    json,
    out: hintedOutput(createOutput(json), cwd, process.env),
    clock: clockFromEnv(),
    env: process.env,
  };
}

/** Prints a result and sets the process exit code. */
export function emit(ctx: CommandContext, result: CommandResult): void {
  for (const note of result.notes ?? []) ctx.out.stderr(note);
  if (result.streamed) {
    // written already
  } else if (ctx.json) ctx.out.stdout(JSON.stringify(result.json, null, 2));
  else if (result.text !== '') ctx.out.stdout(result.text);
  process.exitCode = result.exitCode;
}

/** Prints a user error (one line, details, hint) or an internal error (with its stack). */
export function reportError(out: Output, error: unknown): ExitCode {
  if (isHestaiError(error)) {
    if (out.json) out.stdout(JSON.stringify({ ok: false, error: error.toJSON() }, null, 2));
    out.stderr(formatUserError(out, error));
    return error.exitCode;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  if (out.json)
    out.stdout(
      JSON.stringify({ ok: false, error: { code: 'INTERNAL', message: String((error as Error)?.message ?? error) } }),
    );
  out.stderr(`hestai: internal error: ${message}\nPlease report this at the project's issue tracker.`);
  return ExitCode.Usage;
}

function formatUserError(out: Output, error: HestaiError): string {
  const lines = [`${paint(out, 'red', 'hestai:')} ${error.message}`];
  for (const detail of error.details) lines.push(`  - ${detail}`);
  if (error.remedy) lines.push(`${paint(out, 'dim', 'hint:')} ${error.remedy}`);
  return lines.join('\n');
}

/**
 * Runs one command: builds the context, prints the result, maps errors (a refused path traversal is also
 * recorded as a security event in the current directory's audit log). `name` is the command's name.
 */
export async function runHandler(
  name: string,
  context: () => CommandContext,
  jsonRequested: () => boolean,
  handler: (ctx: CommandContext) => Promise<CommandResult> | CommandResult,
): Promise<void> {
  let ctx: CommandContext | undefined;
  try {
    ctx = context();
    const result = await handler(ctx);
    emit(ctx, result);
  } catch (error) {
    // Loaded here: a command that succeeds never needs it (nor the state store it writes the audit log with).
    const { auditPathTraversal } = await import('../security.js');
    const audited = auditPathTraversal(error, () => process.cwd(), `cli:${name}`, ctx?.clock ?? systemClock);
    process.exitCode = reportError(
      ctx?.out ?? hintedOutput(createOutput(jsonRequested()), process.cwd(), process.env),
      audited.error,
    );
  }
}

/** Wraps a handler as a commander action (see {@link runHandler}). */
export function action<A extends unknown[]>(
  handler: (ctx: CommandContext, ...args: A) => Promise<CommandResult> | CommandResult,
): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    await runHandler(
      command.name(),
      () => contextFrom(command),
      () => command.optsWithGlobals<{ json?: boolean }>().json === true,
      (ctx) => handler(ctx, ...(args.slice(0, -1) as A)),
    );
  };
}
