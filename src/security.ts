import fs from 'node:fs';
import { appendAudit } from './audit.js';
import type { Clock } from './clock.js';
import { isHestaiError, usageError } from './errors.js';
import { repoInfo } from './git/repo.js';
import { workspacePaths, type WorkspacePaths } from './paths.js';
import { isSafeStatePath } from './state/safe-path.js';
import { hasControl } from './util/text.js';

/** What `auditPathTraversal` did: the error to report, and the audit log it wrote to (null: none). */
export interface SecurityAudit {
  error: unknown;
  auditLog: string | null;
}

/**
 * Seed §8, "Path traversal attempt → block and log security event". Given an error an adapter is about to
 * report, records a `PATH_TRAVERSAL` refusal (a `..` segment, control characters, a state directory
 * symlinked outside the worktree) as a `security.path_traversal` line in the audit log of the workspace
 * the request came from (`callerDir`, read only then: the MCP server's directory, the CLI's current
 * directory), and
 * returns the error with a detail naming that log. The refused path itself is never a place to write.
 *
 * Nothing is written when the caller is not in a workspace that adopted hestai (no `.hestai/`), or when any
 * component on the way to `audit.jsonl` is a symlink (wherever it points) or `audit.jsonl` is anything but
 * a regular file (a symlink in a cloned repository could aim it at ~/.bashrc): the same rule as every write. Recording never masks the refusal:
 * any failure here leaves the original error as it was.
 */
export function auditPathTraversal(error: unknown, callerDir: () => string, via: string, clock: Clock): SecurityAudit {
  if (!isHestaiError(error) || error.code !== 'PATH_TRAVERSAL') return { error, auditLog: null };
  try {
    const paths = adoptedWorkspace(callerDir());
    if (paths === null) return { error, auditLog: null };
    appendAudit(paths, {
      event: 'security.path_traversal',
      session_id: null,
      at: clock().toISOString(),
      via,
      code: error.code,
      message: error.message,
    });
    const recorded = usageError(error.message, {
      code: error.code,
      file: error.file,
      remedy: error.remedy,
      details: [...error.details, `recorded as a security event in ${paths.auditLog}`],
      cause: error,
    });
    return { error: recorded, auditLog: paths.auditLog };
  } catch {
    return { error, auditLog: null };
  }
}

/** The workspace around `dir` (a git worktree, or a directory holding `.hestai/`) that is safe to append to. */
function adoptedWorkspace(dir: string): WorkspacePaths | null {
  if (hasControl(dir) || !fs.existsSync(dir)) return null;
  const real = fs.realpathSync(dir);
  const root = repoInfo(real)?.root ?? real;
  const paths = workspacePaths(root);
  if (!fs.existsSync(paths.hestai)) return null;
  // The guard of every state write decides (src/state/safe-path.ts): no symlink on the way to audit.jsonl,
  // wherever it points (inside the worktree too), and audit.jsonl a regular file when it exists.
  return isSafeStatePath(paths.auditLog, 'file') ? paths : null;
}
