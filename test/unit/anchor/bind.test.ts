import { describe, expect, it } from 'vitest';
import { checkBind } from '../../../src/anchor/rules/bind.js';
import type { SessionLookup } from '../../../src/anchor/rules/types.js';
import { parseVector } from '../../../src/anchor/vector.js';

const ROLE = 'implementation-lead';
const PARENT = '6f1c7a4e-0000-4000-8000-000000000000';
const SELF = '0b6c9d52-3f1e-4a7b-9c2d-8e5f6a7b8c9d';
const COG_FIX =
  'Write "COGNITION::TYPE::ARCHETYPE" with TYPE one of ETHOS, LOGOS, PATHOS and archetypes joined by ⊕ (or +), e.g. "COGNITION::LOGOS::ATHENA⊕HEPHAESTUS"; take them from your constitution.';
const AUTH_FIX =
  'Write "AUTHORITY::RESPONSIBLE[scope of what you own]" or "AUTHORITY::DELEGATED[parent_session_id]" (brackets required, not empty).';

/** A ## BIND section (header on line 1) with ROLE, COGNITION and AUTHORITY on lines 2-4 unless replaced. */
function section(over: { ROLE?: string | null; COGNITION?: string | null; AUTHORITY?: string | null } = {}) {
  const fields = { ROLE, COGNITION: 'LOGOS::ATHENA+HEPHAESTUS', AUTHORITY: 'RESPONSIBLE[the parser]', ...over };
  const lines = Object.entries(fields)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k}::${v}`);
  return parseVector(['## BIND (Identity Lock)', ...lines].join('\n')).sections[0]!;
}

describe('checkBind', () => {
  it('passes and yields the normalized facts', () => {
    expect(checkBind(section(), ROLE)).toEqual({
      violations: [],
      facts: { role: ROLE, cognition: 'LOGOS::ATHENA⊕HEPHAESTUS', authority: 'RESPONSIBLE[the parser]' },
    });
    expect(checkBind(section({ AUTHORITY: 'RESPONSIBLE[  spaced  ]' }), ROLE).facts?.authority).toBe(
      'RESPONSIBLE[spaced]',
    );
    expect(checkBind(undefined, ROLE)).toEqual({ violations: [], facts: null });
  });

  it('missing fields carry no line; empty ones carry theirs; no facts either way', () => {
    expect(checkBind(section({ ROLE: null, COGNITION: null, AUTHORITY: null }), ROLE)).toStrictEqual({
      violations: [
        { rule: 'BIND_ROLE_MISSING', section: 'BIND', message: 'ROLE is missing', fix: `Add "ROLE::${ROLE}".` },
        { rule: 'BIND_COGNITION_MISSING', section: 'BIND', message: 'COGNITION is missing', fix: COG_FIX },
        { rule: 'BIND_AUTHORITY_MISSING', section: 'BIND', message: 'AUTHORITY is missing', fix: AUTH_FIX },
      ],
      facts: null,
    });
    const empty = checkBind(section({ COGNITION: '', AUTHORITY: '' }), ROLE);
    expect(empty.violations).toStrictEqual([
      { rule: 'BIND_COGNITION_MISSING', section: 'BIND', message: 'line 3: COGNITION is empty', fix: COG_FIX, line: 3 },
      {
        rule: 'BIND_AUTHORITY_MISSING',
        section: 'BIND',
        message: 'line 4: AUTHORITY is empty',
        fix: AUTH_FIX,
        line: 4,
      },
    ]);
    expect(empty.facts).toBeNull();
  });

  it('a wrong role names both and says what to write', () => {
    expect(checkBind(section({ ROLE: 'tester' }), ROLE)).toEqual({
      violations: [
        {
          rule: 'BIND_ROLE_MISMATCH',
          section: 'BIND',
          message: `line 2: ROLE is "tester" but the requested role is "${ROLE}"`,
          fix: `Write "ROLE::${ROLE}" (the role you are binding as).`,
          line: 2,
        },
      ],
      facts: null,
    });
  });

  it.each(['9LOGOS::ATHENA', 'LOGOS:ATHENA', 'x LOGOS::ATHENA'])('COGNITION %j is not TYPE::ARCHETYPE', (value) => {
    expect(checkBind(section({ COGNITION: value }), ROLE).violations).toEqual([
      {
        rule: 'BIND_COGNITION_FORMAT',
        section: 'BIND',
        message: `line 3: COGNITION "${value}" is not TYPE::ARCHETYPE`,
        fix: COG_FIX,
        line: 3,
      },
    ]);
  });

  it('a wrong type and unknown archetypes are both reported, archetypes named in the plural', () => {
    const { violations, facts } = checkBind(section({ COGNITION: 'MYTHOS::ZORRO ⊕ ATHENA+ NEMO' }), ROLE);
    expect(violations.map((v) => v.message)).toEqual([
      'line 3: COGNITION type "MYTHOS" is not one of ETHOS, LOGOS, PATHOS',
      expect.stringMatching(/^line 3: COGNITION archetypes "ZORRO", "NEMO" not in ZEUS, ATHENA, /),
    ]);
    expect(facts).toBeNull();
  });

  it('archetypes joined with spaces around ⊕ or + are read one by one', () => {
    expect(checkBind(section({ COGNITION: 'ETHOS::ATHENA ⊕ HEPHAESTUS' }), ROLE).facts?.cognition).toBe(
      'ETHOS::ATHENA⊕HEPHAESTUS',
    );
  });

  describe('against the constitution', () => {
    const declared = { type: 'LOGOS', archetypes: ['ATHENA', 'HEPHAESTUS'] };

    it('a subset of its archetypes with its type passes', () => {
      expect(checkBind(section({ COGNITION: 'LOGOS::HEPHAESTUS' }), ROLE, declared).violations).toEqual([]);
    });

    it('another type: the fix gives the declared cognition', () => {
      expect(checkBind(section({ COGNITION: 'ETHOS::ATHENA' }), ROLE, declared).violations).toEqual([
        {
          rule: 'BIND_COGNITION_CONSTITUTION',
          section: 'BIND',
          message: "line 3: COGNITION type ETHOS differs from the constitution's LOGOS",
          fix: 'Extract the cognition from your constitution: "COGNITION::LOGOS::ATHENA⊕HEPHAESTUS" (or a subset of its archetypes).',
          line: 3,
        },
      ]);
    });

    it('foreign archetypes are named, in the plural when several', () => {
      const { violations, facts } = checkBind(section({ COGNITION: 'LOGOS::ZEUS+ATHENA+APOLLO' }), ROLE, declared);
      expect(violations[0]?.message).toBe(
        'line 3: COGNITION archetypes ZEUS, APOLLO not declared by the constitution (ATHENA, HEPHAESTUS)',
      );
      expect(facts).toBeNull();
    });

    it('a constitution without a type or archetypes constrains only what it declares', () => {
      expect(
        checkBind(section({ COGNITION: 'PATHOS::ATHENA' }), ROLE, { type: null, archetypes: ['ATHENA'] }).violations,
      ).toEqual([]);
      const wrong = checkBind(section({ COGNITION: 'PATHOS::ZEUS' }), ROLE, { type: null, archetypes: ['ATHENA'] });
      expect(wrong.violations[0]?.fix).toBe(
        'Extract the cognition from your constitution: "COGNITION::PATHOS::ATHENA" (or a subset of its archetypes).',
      );
      expect(
        checkBind(section({ COGNITION: 'LOGOS::ZEUS' }), ROLE, { type: 'LOGOS', archetypes: [] }).violations,
      ).toEqual([]);
      const type = checkBind(section({ COGNITION: 'ETHOS::ZEUS' }), ROLE, { type: 'LOGOS', archetypes: [] });
      expect(type.violations[0]?.fix).toBe(
        'Extract the cognition from your constitution: "COGNITION::LOGOS::ZEUS" (or a subset of its archetypes).',
      );
    });
  });

  it.each([
    ['RESPONSIBLE', 'is not RESPONSIBLE[...] or DELEGATED[...]'],
    ['xRESPONSIBLE[a]', 'is not RESPONSIBLE[...] or DELEGATED[...]'],
    ['RESPONSIBLE[a]x', 'is not RESPONSIBLE[...] or DELEGATED[...]'],
    ['responsible[a]', 'is not RESPONSIBLE[...] or DELEGATED[...]'],
    ['RESPONSIBLE[   ]', 'has no scope in its brackets'],
    ['RESPONSIBLE[{scope}]', 'has no scope in its brackets'],
    ['DELEGATED[ {parent_session_id} ]', 'has no scope in its brackets'],
  ])('AUTHORITY %j %s', (value, problem) => {
    expect(checkBind(section({ AUTHORITY: value }), ROLE).violations).toEqual([
      {
        rule: 'BIND_AUTHORITY_FORMAT',
        section: 'BIND',
        message: `line 4: AUTHORITY "${value}" ${problem}`,
        fix: AUTH_FIX,
        line: 4,
      },
    ]);
  });

  it('a scope that only contains braces is a scope', () => {
    expect(checkBind(section({ AUTHORITY: 'RESPONSIBLE[a {b} c]' }), ROLE).violations).toEqual([]);
    expect(checkBind(section({ AUTHORITY: 'RESPONSIBLE[{a} b]' }), ROLE).violations).toEqual([]);
  });

  describe('DELEGATED[parent]', () => {
    const known: SessionLookup = (id) => (id === PARENT ? 'archived' : null);
    const delegated = (parent: string, delegation: Parameters<typeof checkBind>[3] = {}) =>
      checkBind(section({ AUTHORITY: `DELEGATED[${parent}]` }), ROLE, null, delegation).violations.map(
        (v) => v.message,
      );

    it('names a known session other than this one', () => {
      expect(delegated(PARENT, { sessions: known, sessionId: SELF })).toEqual([]);
      expect(delegated(` ${PARENT} `, { sessionId: null })).toEqual([]);
    });

    it('refuses a scope that is not a session id, this session itself, or an unknown session', () => {
      expect(delegated('the lead')).toEqual([
        'line 4: AUTHORITY DELEGATED[the lead] is not a session id (a lower-case UUID v4 from clock-in)',
      ]);
      expect(delegated(SELF, { sessionId: SELF })).toEqual([
        `line 4: AUTHORITY DELEGATED[${SELF}] names this session itself; a delegation names the parent session`,
      ]);
      expect(delegated(SELF, { sessions: known })).toEqual([
        `line 4: AUTHORITY DELEGATED[${SELF}] names no session of this worktree (neither live in .hestai/sessions/active/ nor archived)`,
      ]);
    });

    it('RESPONSIBLE scopes are never looked up', () => {
      expect(
        checkBind(section({ AUTHORITY: 'RESPONSIBLE[the lead]' }), ROLE, null, {
          sessions: () => null,
          sessionId: SELF,
        }).violations,
      ).toEqual([]);
    });
  });
});
