import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentCliFor, cliCommandFor } from '../util/invocation.js';

/** This package's root: two levels above this module in src/ and in every dist/ layout (dist/X/file). */
const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * How a hint for a person calls hestai in the worktree `root`: `npx hestai` in a local install
 * ({@link cliCommandFor}), else the plain word, as every other hint keeps it (`withInvocation`).
 */
export const hestaiCommand = (root: string, env: NodeJS.ProcessEnv = process.env): string =>
  cliCommandFor(root, PACKAGE_ROOT, env) === 'npx hestai' ? 'npx hestai' : 'hestai';

/**
 * How a remedy for an agent (the MCP server's answers) calls hestai in the worktree `root`: never `npx hestai`,
 * which the agent hook refuses before the anchor ({@link agentCliFor}, the forms src/agent/shell.ts accepts).
 */
export const agentHestaiCommand = (root: string, env: NodeJS.ProcessEnv = process.env): string =>
  agentCliFor(root, PACKAGE_ROOT, env);
