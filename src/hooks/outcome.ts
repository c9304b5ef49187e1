import fs from 'node:fs';
import { appendAudit, type AuditRecord } from '../audit.js';
import type { Clock } from '../clock.js';
import type { WorkspacePaths } from '../paths.js';

/** A hook's decision, computed first and applied after (plan, then apply). */
export interface HookOutcome {
  /** 0 let the commit through, 1 blocked, 2 usage/config error. */
  exitCode: 0 | 1 | 2;
  /** Lines for stderr (git shows them to the committer). */
  lines: string[];
  /** Audit lines to append (bypasses). */
  audit: AuditRecord[];
  /** The commit message file and its new content (commit-msg with trailers), when it changes. */
  rewrite?: { file: string; content: string };
  /** The session the hook used, if any. */
  session_id: string | null;
}

/** Applies an outcome: rewrites the message file, appends audit lines, prints the lines. */
export function applyHookOutcome(
  outcome: HookOutcome,
  paths: WorkspacePaths,
  clock: Clock,
  stderr: (text: string) => void,
): number {
  if (outcome.rewrite) fs.writeFileSync(outcome.rewrite.file, outcome.rewrite.content);
  for (const record of outcome.audit) appendAudit(paths, { ...record, at: clock().toISOString() });
  if (outcome.lines.length > 0) stderr(`${outcome.lines.join('\n')}\n`);
  return outcome.exitCode;
}
