import { randomUUID } from 'node:crypto';
import type { UnsealedAnchor } from '../../src/records/anchor.js';
import type { SessionRecord } from '../../src/records/session.js';

// Pure builders of the on-disk records (nothing is written), shared by the unit tests of the rules and
// by the fixtures that write them (session-fixture.ts).

export const SEEDED_AT = '2026-11-22T10:00:00.000Z';

/** An ACTIVE session record started, generated and last active `at` (every field overridable). */
export function sessionRecord(overrides: Partial<SessionRecord> = {}, at: string = SEEDED_AT): SessionRecord {
  return {
    version: 1,
    session_id: randomUUID(),
    role: 'implementation-lead',
    focus: 'general',
    focus_source: 'default',
    branch: 'main',
    working_dir: '/repo',
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
}

/** A validated anchor for `token`, before sealing (every field overridable). */
export function unsealedAnchor(token: string, fields: Partial<UnsealedAnchor> = {}): UnsealedAnchor {
  return {
    version: 1,
    token,
    validated: true,
    role: 'implementation-lead',
    mode: 'full',
    tier: 'default',
    source: 'anchor',
    validated_at: '2026-11-22T10:05:00.000Z',
    arm: {
      phase: 'B1',
      branch: 'main',
      ahead: 0,
      behind: 0,
      files_count: 0,
      top_files: [],
      focus: 'general',
      context_hash: 'abc',
    },
    canonical_anchor: '===RAPH_VECTOR::v4.0===\n===END_RAPH_VECTOR===',
    ...fields,
  };
}
