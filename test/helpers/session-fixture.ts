import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { sealAnchor, anchorFile, type AnchorRecord, type UnsealedAnchor } from '../../src/records/anchor.js';
import { workspacePaths } from '../../src/paths.js';
import { writeSession, type SessionRecord } from '../../src/records/session.js';
import { writeJsonAtomic } from '../../src/state/store.js';
import { PROJECT_ROOT, type RunResult } from './git-repo.js';
import { SEEDED_AT, sessionRecord, unsealedAnchor } from './records.js';

// Sessions and anchors written through the real record writers, in exactly the on-disk format
// `hestai clock-in` and `hestai anchor` write, for tests of the readers (hooks, gating, resources, verify)
// that must not depend on the clock-in or anchor flows.

/** Writes an ACTIVE session (every field overridable) and returns its record. */
export function seedSession(root: string, overrides: Partial<SessionRecord> = {}): SessionRecord {
  const record = sessionRecord({ working_dir: root, ...overrides }, overrides.context_generated_at ?? SEEDED_AT);
  writeSession(workspacePaths(root), record);
  return record;
}

/**
 * Writes a sealed, validated anchor.json for a session: `fields` are sealed in; `tamper` is applied after
 * sealing (an anchor whose integrity no longer holds).
 */
export function seedAnchor(
  root: string,
  token: string,
  tamper: Partial<AnchorRecord> = {},
  fields: Partial<UnsealedAnchor> = {},
): AnchorRecord {
  // Validated now unless the test says when: an anchor covers commits for anchor.valid_hours only.
  const record = {
    ...sealAnchor(unsealedAnchor(token, { validated_at: new Date().toISOString(), ...fields })),
    ...tamper,
  };
  writeJsonAtomic(anchorFile(workspacePaths(root), token), record);
  return record;
}

export interface SessionFixture {
  token: string;
  session: SessionRecord;
  anchor: AnchorRecord | null;
}

/** For hook tests: a session generated `generatedAt` (default now) and, unless `anchored: false`, its anchor. */
export function makeSession(
  root: string,
  options: { anchored?: boolean; generatedAt?: string; validatedAt?: string; session?: Partial<SessionRecord> } = {},
): SessionFixture {
  const at = options.generatedAt ?? new Date().toISOString();
  const session = seedSession(root, { context_generated_at: at, ...options.session });
  if (options.anchored === false) return { token: session.session_id, session, anchor: null };
  const anchor = seedAnchor(
    root,
    session.session_id,
    {},
    { role: session.role, validated_at: options.validatedAt ?? at },
  );
  return { token: session.session_id, session, anchor };
}

/** Runs a hook entrypoint (`hooks/pre-commit`, `hooks/commit-msg`) as git would: cwd = the worktree root. */
export function runHook(
  name: 'pre-commit' | 'commit-msg',
  cwd: string,
  env: NodeJS.ProcessEnv,
  args: string[] = [],
): RunResult {
  const result = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'hooks', name), ...args], {
    cwd,
    env,
    encoding: 'utf8',
  });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
