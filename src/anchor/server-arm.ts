/**
 * The server-authoritative ARM (docs/design.md §2): PHASE from PROJECT-CONTEXT.oct.md, BRANCH with
 * ahead/behind, FILES (count and top changed), FOCUS from the session and a CONTEXT_HASH over all of it.
 * One git process (`git status --porcelain=v2 --branch -z`).
 */
import { createHash } from 'node:crypto';
import { branchStatusAsync } from '../git/async.js';
import type { BranchStatus } from '../git/parse-status-v2.js';
import type { WorkspacePaths } from '../paths.js';
import { readTextIfExists } from '../state/store.js';
import { canonicalJson, type ArmSnapshot } from '../records/anchor.js';
import { UNKNOWN_PHASE } from './rules/arm.js';

/** How many changed files FILES lists by name. */
export const TOP_FILES = 5;
/** Runtime state the tool writes itself; never counted as a change. */
const OWN_STATE = ['.hestai/sessions/', '.hestai/audit/'];

/** Pure: the PHASE a PROJECT-CONTEXT text declares (`PHASE::B1`, quotes and trailing comments allowed). */
export function phaseFrom(text: string | null): string {
  if (text === null) return UNKNOWN_PHASE;
  const m = /^[ \t]*PHASE::[ \t]*"?([^"\r\n]*?)"?[ \t]*(?:\/\/.*)?\r?$/m.exec(text);
  return m && m[1]!.trim() !== '' ? m[1]!.trim() : UNKNOWN_PHASE;
}

/** Pure: the ARM from a parsed status, the PROJECT-CONTEXT text and the session focus. */
export function armFrom(status: BranchStatus, projectContext: string | null, rawFocus: string): ArmSnapshot {
  const focus = rawFocus.replace(/\s+/g, ' ').trim() || 'general';
  const changed = status.entries.filter((e) => e.code !== '!!' && !OWN_STATE.some((p) => e.path.startsWith(p)));
  const ordered = [...changed.filter((e) => e.code !== '??'), ...changed.filter((e) => e.code === '??')];
  const branch = status.branch ?? (status.head ? `DETACHED@${status.head.slice(0, 7)}` : 'DETACHED');
  const phase = phaseFrom(projectContext);
  const ahead = status.ahead ?? 0;
  const behind = status.behind ?? 0;
  const context_hash = createHash('sha256')
    .update(
      canonicalJson({
        phase,
        branch,
        head: status.head,
        upstream: status.upstream,
        ahead,
        behind,
        changes: changed.map((e) => `${e.code} ${e.path}`).sort(),
        focus,
        project_context: projectContext === null ? null : createHash('sha256').update(projectContext).digest('hex'),
      }),
    )
    .digest('hex');
  return {
    phase,
    branch,
    ahead,
    behind,
    files_count: changed.length,
    top_files: ordered.slice(0, TOP_FILES).map((e) => e.path),
    focus,
    context_hash,
  };
}

/** Computes the ARM for a worktree now (git runs without blocking the caller's event loop: the MCP server). */
export async function computeServerArm(paths: WorkspacePaths, focus: string): Promise<ArmSnapshot> {
  return armFrom(
    await branchStatusAsync(paths.root, { untracked: 'all', renames: true }),
    readTextIfExists(paths.projectContext),
    focus,
  );
}
