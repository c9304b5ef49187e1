import { describe, expect, it } from 'vitest';
import { isContextOld } from '../../../src/records/freshness.js';
import type { ProofRecord } from '../../../src/records/proof-record.js';
import type { SessionRecord } from '../../../src/records/session.js';
import type { CommitFacts } from '../../../src/tdd/commit.js';
import { checkAnchor, type AnchorEvidence } from '../../../src/verify/anchor-rule.js';

// Issue 27 item 4: the context age at a given time has one definition (records/freshness.ts), used by the
// hooks and by verify's anchor rule alike; the boundary is tested from both sides: exactly max_age_hours old
// is fresh, one second more is old, for both.

const SESSION = '00000000-0000-4000-8000-000000000001';
const DIGEST = 'a'.repeat(64);
const GENERATED = '2026-01-01T00:00:00.000Z';
const MAX = 24;

const record = {
  session_id: SESSION,
  role: 'implementation-lead',
  tier: 'default',
  head: 'b'.repeat(40),
  anchored_at: GENERATED,
  context_generated_at: GENERATED,
  acknowledgments: [],
  resets: [],
} as unknown as ProofRecord;

const evidence: AnchorEvidence = {
  refs: ['refs/heads/hestai/anchors'],
  records: new Map([[DIGEST, { digest: DIGEST, problem: null, record, headMissing: false, ruleErrors: [] }]]),
  events: new Map(),
};

const commitAt = (committerDate: string) =>
  ({
    sha: 'c'.repeat(40),
    kind: 'normal',
    committerDate,
    trailers: [
      { key: 'HestAI-Session', value: SESSION },
      { key: 'HestAI-Anchor', value: `sha256:${DIGEST}` },
    ],
  }) as unknown as CommitFacts & { committerDate: string };

const verify = (at: string) =>
  checkAnchor(commitAt(at), commitAt(at), evidence, {
    level: 'error',
    required: true,
    publish: true,
    maxAgeHours: MAX,
  })!.status;
const hooks = (at: string) =>
  isContextOld({ context_generated_at: GENERATED } as SessionRecord, new Date(at), MAX) ? 'old' : 'fresh';

describe('context age at a given time: one rule for the hooks and verify', () => {
  it('exactly max_age_hours old is fresh for both', () => {
    expect(hooks('2026-01-02T00:00:00.000Z')).toBe('fresh');
    expect(verify('2026-01-02T00:00:00.000Z')).toBe('pass');
  });

  it('one second over max_age_hours is old for both', () => {
    expect(hooks('2026-01-02T00:00:01.000Z')).toBe('old');
    expect(verify('2026-01-02T00:00:01.000Z')).toBe('fail');
  });
});
