import { randomUUID } from 'node:crypto';
import { sealAnchor, anchorFile, type AnchorRecord } from '../../src/anchor/record.js';
import { workspacePaths } from '../../src/paths.js';
import { writeSession, type SessionRecord } from '../../src/session/record.js';
import { writeJsonAtomic } from '../../src/state/store.js';

/**
 * Seeds an active session (and optionally a sealed anchor) on disk through the real record writers,
 * for tests of readers (gating, resources) that must not depend on the clock-in or anchor flows.
 */
export function seedSession(root: string, overrides: Partial<SessionRecord> = {}): SessionRecord {
  const at = '2026-11-22T10:00:00.000Z';
  const record: SessionRecord = {
    version: 1,
    session_id: randomUUID(),
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
    ...overrides,
  };
  writeSession(workspacePaths(root), record);
  return record;
}

/** Writes a sealed, validated anchor.json for a seeded session. */
export function seedAnchor(root: string, token: string, overrides: Partial<AnchorRecord> = {}): AnchorRecord {
  const anchor = sealAnchor({
    version: 1,
    token,
    validated: true,
    role: 'implementation-lead',
    mode: 'full',
    tier: 'default',
    source: 'anchor',
    validated_at: '2026-11-22T10:05:00.000Z',
    arm: { phase: 'B1', branch: 'main', ahead: 0, behind: 0, files_count: 0, top_files: [], focus: 'general', context_hash: 'abc' },
    canonical_anchor: '===RAPH_VECTOR::v4.0===\n===END_RAPH_VECTOR===',
  });
  const record = { ...anchor, ...overrides };
  writeJsonAtomic(anchorFile(workspacePaths(root), token), record);
  return record;
}
