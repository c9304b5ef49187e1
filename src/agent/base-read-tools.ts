import { configFromText } from '../config/load.js';
import { isHestaiError } from '../errors.js';
import { fileAtCommit } from '../git/show.js';
import { WORKSPACE_CONFIG_FILE, workspacePaths } from '../paths.js';
import { resolveBase } from '../verify/range.js';

/** The reads a base policy lists (`agents.read_tools`), where they were read, and why none could be. */
export interface BaseReadTools {
  patterns: readonly string[];
  /** `main (no origin remote):.hestai_workspace.yaml`, `origin/HEAD:.hestai_workspace.yaml`, ... */
  where: string;
  /** Why the base policy could not be read (then no tool is listed), or null. */
  problem: string | null;
}

/**
 * `agents.read_tools` from the committed `.hestai_workspace.yaml` of the base — the same base `hestai verify`
 * takes (`resolveBase`: `origin/HEAD`, or the local default branch in a repository without a remote) — never
 * from the worktree's file or the branch's own commits (docs/SECURITY.md, "The agent boundary"). Asked only
 * for a tool hestai does not know, and only when the call would be refused otherwise; it starts git (its own
 * bundle in the hook). A base that cannot be resolved, or an invalid file there, lists nothing: the call stays
 * refused and the refusal says why.
 */
export async function baseReadTools(root: string): Promise<BaseReadTools> {
  const file = WORKSPACE_CONFIG_FILE;
  let base;
  try {
    base = resolveBase({ root, repo: null, paths: workspacePaths(root) }, {}, {});
  } catch (error) {
    return { patterns: [], where: `the base's ${file}`, problem: why(error) };
  }
  const where = `${base.source}:${file}`;
  try {
    const config = await configFromText(fileAtCommit(root, base.rev, file), `${base.rev.slice(0, 7)}:${file}`);
    return { patterns: config.agents.read_tools, where, problem: null };
  } catch (error) {
    return { patterns: [], where, problem: why(error) };
  }
}

function why(error: unknown): string {
  if (isHestaiError(error)) return [error.message, ...error.details].join('; ');
  return error instanceof Error ? error.message : String(error);
}
