/** The gating check for callers that hold a working directory (hooks use `hasValidAnchor(paths, token)`). */
import { resolveWorkspace } from '../workspace.js';
import { hasValidAnchor, type AnchorCheck } from '../records/anchor.js';

/** `hasValidAnchor` for a working directory: resolves the worktree, then checks `active/{token}/anchor.json`. */
export function hasValidAnchorAt(workingDir: string, token: string): AnchorCheck {
  return hasValidAnchor(resolveWorkspace(workingDir).paths, token);
}
