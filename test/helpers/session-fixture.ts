import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { sealAnchor, anchorFile, type AnchorRecord } from '../../src/anchor/record.js';
import { workspacePaths } from '../../src/paths.js';
import { writeSession, type SessionRecord } from '../../src/session/record.js';
import { writeJsonAtomic } from '../../src/state/store.js';
import { PROJECT_ROOT, type RunResult } from './git-repo.js';

export interface SessionFixture {
  token: string;
  session: SessionRecord;
  anchor: AnchorRecord | null;
}

/**
 * Writes an active session (and, unless `anchored: false`, a sealed anchor) in exactly the on-disk format
 * `hestai clock-in` and `hestai anchor` write, for hook tests.
 */
export function makeSession(
  root: string,
  options: { anchored?: boolean; generatedAt?: string; validatedAt?: string; session?: Partial<SessionRecord> } = {},
): SessionFixture {
  const paths = workspacePaths(root);
  const token = randomUUID();
  const at = options.generatedAt ?? new Date().toISOString();
  const session: SessionRecord = {
    version: 1,
    session_id: token,
    role: 'implementation-lead',
    focus: 'general',
    focus_source: 'default',
    branch: 'main',
    working_dir: root,
    model: null,
    started_at: at,
    context_generated_at: at,
    last_activity: at,
    state: 'ACTIVE',
    starting_commit: null,
    ownership_log: [],
    acknowledgments: [],
    ...options.session,
  };
  writeSession(paths, session);
  if (options.anchored === false) return { token, session, anchor: null };
  const anchor = sealAnchor({
    version: 1,
    token,
    validated: true,
    role: session.role,
    mode: 'full',
    tier: 'default',
    source: 'anchor',
    validated_at: options.validatedAt ?? at,
    arm: { phase: 'B1', branch: 'main', ahead: 0, behind: 0, files_count: 0, top_files: [], focus: 'general', context_hash: 'abc' },
    canonical_anchor: '===RAPH_VECTOR::v4.0===\n===END_RAPH_VECTOR===',
  });
  writeJsonAtomic(anchorFile(paths, token), anchor);
  return { token, session, anchor };
}

/** Runs a hook entrypoint (`hooks/pre-commit`, `hooks/commit-msg`) as git would: cwd = the worktree root. */
export function runHook(name: 'pre-commit' | 'commit-msg', cwd: string, env: NodeJS.ProcessEnv, args: string[] = []): RunResult {
  const result = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'hooks', name), ...args], { cwd, env, encoding: 'utf8' });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
