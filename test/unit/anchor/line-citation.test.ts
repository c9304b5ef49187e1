import { describe, expect, it } from 'vitest';
import { guidanceFor, validateVector, type ValidateOptions } from '../../../src/anchor/validate.js';
import type { Strictness } from '../../../src/records/anchor.js';
import { PROBE, replaceLine, SERVER_ARM, VECTOR } from './fixtures.js';

// Issue 18, seed 002 TENSION_VALIDATION `has_line_citation::"Each tension includes L{N}"`. Decision: its
// own guidance example ("TENSION 1 has L315 but no CTX citation") counts the tension as "TENSION 1" and
// L315 as a line, so L{N} is a line-number citation on the CTX, not the `L1::` label. Every strictness
// checks a line citation that is given; `deep` requires one on every CTX. The seed's notation is accepted
// (`:L315`, `:L10-L20`, GitHub's `#L10-L20`) and written canonically as `:315`, `:10-20`.

const options = (strictness: Strictness): ValidateOptions => ({
  role: 'implementation-lead',
  strictness,
  probe: PROBE,
  serverArm: SERVER_ARM,
});
const withL1Ctx = (ctx: string) =>
  replaceLine(
    VECTOR,
    'L1::',
    `L1::[TDD_MANDATE]⇌CTX:${ctx}[no failing test yet]→TRIGGER[write the failing test first]`,
  );

describe('has_line_citation: a line number on the CTX', () => {
  it.each([
    ['src/clock-in.ts:L315', null],
    ['src/clock-in.ts:L12', { from: 12, to: 12 }],
    ['src/clock-in.ts:L10-L20', { from: 10, to: 20 }],
    ['src/clock-in.ts:L10-20', { from: 10, to: 20 }],
    ['src/clock-in.ts#L10-L20', { from: 10, to: 20 }],
    ['src/clock-in.ts#L7', { from: 7, to: 7 }],
  ])('reads the seed notation %s as a line citation', (ctx, range) => {
    const result = validateVector(withL1Ctx(ctx), options('deep'));
    if (range === null) {
      // src/clock-in.ts has 40 lines: L315 is checked, and refused, like :315.
      expect(result.errors).toEqual([
        `TENSION_CTX_RANGE: line 12: L1 CTX "${ctx}": lines 315-315 are outside src/clock-in.ts, which has 40 lines`,
      ]);
      return;
    }
    expect(result.errors).toEqual([]);
    expect(result.tensions![0]!.range).toEqual(range);
  });

  it('writes the canonical form :A-B in the anchor', () => {
    const result = validateVector(withL1Ctx('src/clock-in.ts#L10-L20'), options('deep'));
    expect(result.ok).toBe(true);
    expect(result.tensions![0]!.path).toBe('src/clock-in.ts');
  });

  it('deep: the L1:: label alone is not a line citation', () => {
    const result = validateVector(withL1Ctx('src/clock-in.ts'), options('deep'));
    expect(result.errors).toEqual([
      'TENSION_CTX_RANGE_REQUIRED: line 12: L1 CTX "src/clock-in.ts": strictness deep requires a line range on every CTX',
    ]);
    expect(guidanceFor(result)).toContain('line citation');
    expect(guidanceFor(result)).toContain('CTX:src/clock-in.ts:L315');
  });

  it('quick and default accept a CTX without a line citation, and check one that is given', () => {
    for (const s of ['quick', 'default'] as const) {
      expect(validateVector(withL1Ctx('src/clock-in.ts'), options(s)).errors).toEqual([]);
      expect(validateVector(withL1Ctx('src/clock-in.ts:L41'), options(s)).errors).toHaveLength(1);
    }
  });
});

// A cited path is looked up in git's tree in `hestai verify` (`<head>:<path>`, where `src//a.ts` or
// `src/./a.ts` names nothing) and on disk at anchor time (where it names src/a.ts): the rules cite and look
// up the path git names, so both judge the same file (PROBE is a table of exact paths, as the tree is).
describe('a CTX path written with ./, // or /./ is the path git names', () => {
  it.each(['./src/clock-in.ts:10-20', 'src//clock-in.ts:10-20', 'src/./clock-in.ts:10-20', './/src/clock-in.ts:10-20'])(
    '%s is src/clock-in.ts in the canonical anchor and in the lookup',
    (ctx) => {
      const result = validateVector(withL1Ctx(ctx), options('deep'));
      expect(result.errors).toEqual([]);
      expect(result.tensions![0]!.path).toBe('src/clock-in.ts');
    },
  );
});
