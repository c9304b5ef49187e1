import { describe, expect, it } from 'vitest';
import type { SessionLookup } from '../../../src/anchor/rules/types.js';
import { validateVector, type ValidateOptions } from '../../../src/anchor/validate.js';
import { BIND, PROBE, replaceLine } from './fixtures.js';

// Issue 18 (seed 003 BIND): `AUTHORITY::DELEGATED[{parent_session_id}]` names a real session (live or
// archived) of this worktree. The rule is pure: the session lookup is passed in, as the CTX probe is.

const SELF = '6f1c7a4e-0000-4000-8000-000000000001';
const LIVE = '6f1c7a4e-0000-4000-8000-000000000002';
const ARCHIVED = '6f1c7a4e-0000-4000-8000-000000000003';
const UNKNOWN = '6f1c7a4e-0000-4000-8000-000000000004';
const sessions: SessionLookup = (id) => (id === LIVE || id === SELF ? 'live' : id === ARCHIVED ? 'archived' : null);

const options = (extra: Partial<ValidateOptions> = {}): ValidateOptions => ({
  role: 'implementation-lead',
  strictness: 'default',
  probe: PROBE,
  part: 'bind',
  sessions,
  sessionId: SELF,
  ...extra,
});
const delegated = (value: string) => replaceLine(BIND, 'AUTHORITY::', `AUTHORITY::DELEGATED[${value}]`);

describe('AUTHORITY::DELEGATED[parent_session_id]', () => {
  it.each([
    ['a live session', LIVE],
    ['an archived session', ARCHIVED],
  ])('accepts %s of this worktree', (_what, id) => {
    const result = validateVector(delegated(id), options());
    expect(result.errors).toEqual([]);
    expect(result.bind?.authority).toBe(`DELEGATED[${id}]`);
  });

  it('refuses a session id this worktree has never seen, saying where it looked', () => {
    const result = validateVector(delegated(UNKNOWN), options());
    expect(result.errors).toEqual([
      `BIND_AUTHORITY_DELEGATED: line 4: AUTHORITY DELEGATED[${UNKNOWN}] names no session of this worktree (neither live in .hestai/sessions/active/ nor archived)`,
    ]);
    expect(result.templates.find((t) => t.section === '## BIND')?.text).toContain('AUTHORITY::RESPONSIBLE[');
  });

  it('refuses the session delegating to itself', () => {
    expect(validateVector(delegated(SELF), options()).errors).toEqual([
      `BIND_AUTHORITY_DELEGATED: line 4: AUTHORITY DELEGATED[${SELF}] names this session itself; a delegation names the parent session`,
    ]);
  });

  it.each(['parent_session', 'the orchestrator', '6F1C7A4E-0000-4000-8000-000000000002', 'a/../b'])(
    'refuses "%s": not a session id',
    (value) => {
      expect(validateVector(delegated(value), options()).errors).toEqual([
        `BIND_AUTHORITY_DELEGATED: line 4: AUTHORITY DELEGATED[${value}] is not a session id (a lower-case UUID v4 from clock-in)`,
      ]);
    },
  );

  it('without a lookup (hestai verify in CI, which has no local sessions) only the form is checked', () => {
    expect(validateVector(delegated(UNKNOWN), options({ sessions: undefined })).errors).toEqual([]);
    expect(validateVector(delegated('parent_session'), options({ sessions: undefined })).errors).toHaveLength(1);
  });

  it('RESPONSIBLE[scope] is free text and needs no lookup', () => {
    expect(validateVector(BIND, options()).errors).toEqual([]);
  });
});
