import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { usageError } from '../errors.js';
import { isRecord, parseJsonObject } from '../util/validate.js';

/** The project-scoped MCP configuration file Claude Code reads. */
export const MCP_CONFIG_FILE = '.mcp.json';

/**
 * The `mcpServers.hestai` entry, run with `node ... mcp`: the dependency's entrypoint by its path inside the
 * project (Claude Code starts servers in the project directory; the file is the team's), else the
 * installed entrypoint by absolute path.
 */
export interface McpServerEntry {
  type: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * The built CLI entrypoint of this installation: `dist/cli/bin.js` under the package root, two levels up
 * from this module wherever it runs (src/mcp/ under tsx or tests, dist/mcp/ from tsc, dist/cli/ as a chunk).
 */
export function installedBinPath(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli/bin.js');
}

/** The `.mcp.json` document that registers `hestai mcp` for Claude Code (`hestai init --mcp` writes it). */
export function mcpJsonFor(binPath: string = installedBinPath()): { mcpServers: { hestai: McpServerEntry } } {
  const projectRelative = /^[A-Za-z0-9_./-]+$/.test(binPath) && !binPath.split('/').includes('..');
  if (!path.isAbsolute(binPath) && !projectRelative) {
    throw usageError(
      `the hestai entrypoint ${JSON.stringify(binPath)} is neither an absolute path nor a plain path inside the project`,
      {
        code: 'MCP_CONFIG_INVALID',
        remedy:
          'Pass node_modules/hestai-hooks/dist/cli/bin.js (a dependency) or the absolute path of dist/cli/bin.js of the installed hestai-hooks package.',
      },
    );
  }
  return { mcpServers: { hestai: { type: 'stdio', command: 'node', args: [binPath, 'mcp'], env: {} } } };
}

/**
 * The new text of `.mcp.json`: the existing document (null when there is none) with `mcpServers.hestai`
 * added or replaced and everything else kept. A file that is not a JSON object is refused, naming it,
 * rather than overwritten.
 */
export function mergeMcpJson(existing: string | null, binPath: string, file: string): string {
  const entry = mcpJsonFor(binPath).mcpServers.hestai;
  const doc = parseJsonObject(existing, (problem) =>
    usageError(`${file} is ${problem}`, {
      file,
      code: 'MCP_CONFIG_INVALID',
      remedy: `Fix or remove ${file}, then run \`hestai init --mcp\` again; it was left unchanged.`,
    }),
  );
  const servers = doc['mcpServers'] ?? {};
  if (!isRecord(servers)) {
    throw usageError(`${file}: mcpServers is not an object`, {
      file,
      code: 'MCP_CONFIG_INVALID',
      remedy: `Fix mcpServers in ${file}; it was left unchanged.`,
    });
  }
  return `${JSON.stringify({ ...doc, mcpServers: { ...servers, hestai: entry } }, null, 2)}\n`;
}
