import fs from 'node:fs';
import path from 'node:path';
import { shellQuote } from './quote.js';

/**
 * How a command line calls hestai where the user is (the one function every hint and template uses):
 * `npx hestai` when the project has it as a dependency (`node_modules/.bin/hestai` at `root`), `hestai` when
 * the `hestai` on PATH is this package (a global install), else this package's CLI by path.
 */
export function cliCommandFor(root: string, packageRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  if (fs.existsSync(path.join(root, 'node_modules', '.bin', 'hestai'))) return 'npx hestai';
  const bin = path.join(packageRoot, 'dist', 'cli', 'bin.js');
  if (onPath(env, bin)) return 'hestai';
  return `node ${/^[A-Za-z0-9_./-]+$/.test(bin) ? bin : shellQuote(bin)}`;
}

/**
 * How a remedy for an agent calls hestai: as {@link cliCommandFor} but never `npx hestai` (the agent hook
 * refuses it before the anchor: npm's config can redirect it), so the remedy is a command the hook allows.
 */
export function agentCliFor(root: string, packageRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  const cli = cliCommandFor(root, packageRoot, env);
  if (cli !== 'npx hestai') return cli;
  const bin = path.join(packageRoot, 'dist', 'cli', 'bin.js');
  if (onPath(env, bin)) return 'hestai';
  return `node ${/^[A-Za-z0-9_./-]+$/.test(bin) ? bin : shellQuote(bin)}`;
}

/** True when the first `hestai` on PATH is `bin` (a link to it, as npm's global install makes). */
export function onPath(env: NodeJS.ProcessEnv, bin: string): boolean {
  let target: string;
  try {
    target = fs.realpathSync(bin);
  } catch {
    return false;
  }
  for (const dir of (env['PATH'] ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, 'hestai');
    if (!fs.existsSync(candidate)) continue; // no throw for each directory without one
    try {
      return fs.realpathSync(candidate) === target;
    } catch {
      /* no hestai in this directory */
    }
  }
  return false;
}

/**
 * Hints are written with the plain word `hestai <command>`; this renders them for the user's install,
 * replacing each such word (not `.hestai/`, `hestai-hooks`, `hestai:` or one already after `npx `) by
 * `invocation`.
 */
export function withInvocation(text: string, invocation: string): string {
  // A package run by its path (a checkout of hestai-hooks, its tests) keeps the plain word.
  if (invocation !== 'npx hestai') return text;
  return text.replace(HESTAI_COMMAND, 'npx hestai ');
}

/** `withInvocation` for the project at `root`: computed once, and only when there is a hint to render. */
export function hintRenderer(root: string, packageRoot: string, env: NodeJS.ProcessEnv): (text: string) => string {
  let invocation: string | undefined;
  return (text) =>
    HAS_COMMAND.test(text) ? withInvocation(text, (invocation ??= cliCommandFor(root, packageRoot, env))) : text;
}

const HAS_COMMAND = /hestai /;
const HESTAI_COMMAND =
  /(?<![\w./$-]|npx )hestai (?=(?:clock-in|clock-out|anchor|init|doctor|status|ack|refresh|verify|trust|cleanup|conflict|session|check|odyssean-anchor|mcp)\b)/g;
