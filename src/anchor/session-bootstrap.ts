/**
 * The identity stage without a token performs the clock-in first (DESIGN.md §2, CI-I1). Until the full
 * `clockIn` is wired here, this registers a minimal active session (focus from the topic, else
 * "general") through the session record store.
 */
import { randomUUID } from 'node:crypto';
import { branchStatus } from '../git/branch-status.js';
import type { WorkspacePaths } from '../paths.js';
import { writeSession, type SessionRecord } from '../session/record.js';

export function startMinimalSession(paths: WorkspacePaths, role: string, topic: string | null, now: string): SessionRecord {
  const status = branchStatus(paths.root);
  const record: SessionRecord = {
    version: 1,
    session_id: randomUUID(),
    role,
    focus: topic ?? 'general',
    focus_source: topic ? 'explicit' : 'default',
    branch: status.branch,
    working_dir: paths.root,
    model: null,
    started_at: now,
    context_generated_at: now,
    last_activity: now,
    state: 'ACTIVE',
    starting_commit: status.head,
    ownership_log: [],
    acknowledgments: [],
  };
  writeSession(paths, record);
  return record;
}
