import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliCommandFor } from '../util/invocation.js';

/** This package's root: two levels above this module in src/ and in every dist/ layout (dist/X/file). */
const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * How a remedy calls hestai in the worktree `root`, for the adapters (the CLI, the MCP server) to hand to
 * the protocol's remedies: `npx hestai` in a local install ({@link cliCommandFor}), else the plain word, as
 * every other hint keeps it (`withInvocation` in src/util/invocation.ts).
 */
export const hestaiCommand = (root: string, env: NodeJS.ProcessEnv = process.env): string =>
  cliCommandFor(root, PACKAGE_ROOT, env) === 'npx hestai' ? 'npx hestai' : 'hestai';
