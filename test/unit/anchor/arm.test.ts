import { describe, expect, it } from 'vitest';
import { checkArm, filesTolerance, renderBranch, UNKNOWN_PHASE } from '../../../src/anchor/rules/arm.js';
import { parseVector } from '../../../src/anchor/vector.js';
import type { ArmSnapshot } from '../../../src/records/anchor.js';
import { SERVER_ARM } from './fixtures.js';

/** The ## ARM section of a vector holding the given entry lines (line 1 is the header, entries from line 2). */
function section(...lines: string[]) {
  return parseVector(['## ARM (Context Proof - SERVER INJECTED)', ...lines].join('\n')).sections[0]!;
}

const VALID = ['PHASE::B1', 'BRANCH::feat/clock-in[2↑0↓]', 'FILES::3[src/a.ts,src/b.ts,test/a.test.ts]'];
/** The valid ARM with one field replaced (matched by its key). */
const arm = (key: string, value: string, server: ArmSnapshot = SERVER_ARM) =>
  checkArm(section(...VALID.map((l) => (l.startsWith(`${key}::`) ? `${key}::${value}` : l))), server);
const rules = (result: ReturnType<typeof checkArm>) => result.violations.map((v) => v.rule);

describe('checkArm: a matching ARM', () => {
  it('passes without warnings, FOCUS being optional', () => {
    expect(checkArm(section(...VALID), SERVER_ARM)).toEqual({ violations: [], warnings: [] });
    expect(checkArm(section(...VALID, 'FOCUS::implement clock_in'), SERVER_ARM)).toEqual({
      violations: [],
      warnings: [],
    });
  });

  it('judges nothing when there is no ARM section (stage payloads: the server injects it)', () => {
    expect(checkArm(undefined, SERVER_ARM)).toEqual({ violations: [], warnings: [] });
  });
});

describe('checkArm: required fields', () => {
  it.each(['PHASE', 'BRANCH', 'FILES'])('%s missing is ARM_FIELD_MISSING, without a line number', (key) => {
    const { violations } = checkArm(section(...VALID.filter((l) => !l.startsWith(`${key}::`))), SERVER_ARM);
    expect(violations).toStrictEqual([
      {
        rule: 'ARM_FIELD_MISSING',
        section: 'ARM',
        message: `${key} is missing`,
        fix: `Copy the server's ARM: ${key} is required.`,
      },
    ]);
  });

  it('an empty section lists all three', () => {
    expect(checkArm(section(), SERVER_ARM).violations.map((v) => v.message)).toEqual([
      'PHASE is missing',
      'BRANCH is missing',
      'FILES is missing',
    ]);
  });
});

describe('checkArm: PHASE', () => {
  it('a different PHASE fails at its line, naming the true value', () => {
    expect(arm('PHASE', 'B2').violations).toEqual([
      {
        rule: 'ARM_PHASE_MISMATCH',
        section: 'ARM',
        message: 'line 2: ARM shows PHASE::B2 but PROJECT-CONTEXT.oct.md shows B1',
        fix: 'Update PHASE to match context: PHASE::B1.',
        line: 2,
      },
    ]);
  });

  it('a placeholder PHASE is refused, with where to read it', () => {
    expect(arm('PHASE', '{phase}').violations).toEqual([
      {
        rule: 'ARM_PLACEHOLDER',
        section: 'ARM',
        message: 'line 2: PHASE "{phase}" is a placeholder',
        fix: 'Read PHASE from .hestai/context/PROJECT-CONTEXT.oct.md: it is B1.',
        line: 2,
      },
    ]);
  });

  it('when the context declares no PHASE, any concrete PHASE is a warning; a placeholder still fails', () => {
    const server = { ...SERVER_ARM, phase: UNKNOWN_PHASE };
    expect(arm('PHASE', 'B3', server)).toEqual({
      violations: [],
      warnings: ['ARM PHASE "B3" not verified: PROJECT-CONTEXT.oct.md declares no PHASE'],
    });
    expect(rules(arm('PHASE', 'TODO', server))).toEqual(['ARM_PLACEHOLDER']);
    expect(arm('PHASE', UNKNOWN_PHASE, server)).toEqual({ violations: [], warnings: [] });
  });
});

describe('checkArm: BRANCH', () => {
  it('a different branch fails, naming git’s branch and the full value to write', () => {
    expect(arm('BRANCH', 'main[2↑0↓]').violations).toEqual([
      {
        rule: 'ARM_BRANCH_MISMATCH',
        section: 'ARM',
        message: 'line 3: ARM shows BRANCH::main but git shows feat/clock-in',
        fix: 'Update BRANCH to match git: BRANCH::feat/clock-in[2↑0↓].',
        line: 3,
      },
    ]);
  });

  it('counts of several digits are read as counts, and a name is compared without surrounding spaces', () => {
    const server = { ...SERVER_ARM, ahead: 12, behind: 305 };
    expect(arm('BRANCH', 'feat/clock-in[12↑305↓]', server)).toEqual({ violations: [], warnings: [] });
    expect(arm('BRANCH', 'main [12↑305↓]', server).violations[0]?.message).toBe(
      'line 3: ARM shows BRANCH::main but git shows feat/clock-in',
    );
  });

  it('the counts are optional, may use ^ and v, and may hold spaces', () => {
    for (const value of ['feat/clock-in', 'feat/clock-in[2^0v]', 'feat/clock-in [2 ↑ 0 ↓]', 'feat/clock-in[2↑ 0v]']) {
      expect(arm('BRANCH', value), value).toEqual({ violations: [], warnings: [] });
    }
  });

  it('different ahead or behind counts only warn (the canonical anchor carries git’s)', () => {
    expect(arm('BRANCH', 'feat/clock-in[3↑0↓]').warnings).toEqual([
      "ARM BRANCH says 3↑0↓ but git shows 2↑0↓ (the canonical anchor carries git's)",
    ]);
    expect(arm('BRANCH', 'feat/clock-in[2↑1↓]')).toEqual({
      violations: [],
      warnings: ["ARM BRANCH says 2↑1↓ but git shows 2↑0↓ (the canonical anchor carries git's)"],
    });
  });

  it('a placeholder branch name, with or without counts, is refused with the value to copy', () => {
    for (const value of ['TODO', '<branch>', '{name}[{ahead}↑{behind}↓]', 'TBD[2↑0↓]', '...[0↑0↓]']) {
      const { violations } = arm('BRANCH', value);
      expect(violations, value).toEqual([
        {
          rule: 'ARM_PLACEHOLDER',
          section: 'ARM',
          message: `line 3: BRANCH "${value}" is a placeholder`,
          fix: 'Read the branch from git: BRANCH::feat/clock-in[2↑0↓].',
          line: 3,
        },
      ]);
    }
  });

  it('counts that do not parse belong to the name, which then differs from git’s', () => {
    expect(arm('BRANCH', 'feat/clock-in[x↑0↓]').violations[0]?.message).toBe(
      'line 3: ARM shows BRANCH::feat/clock-in[x↑0↓] but git shows feat/clock-in',
    );
  });
});

describe('checkArm: FILES', () => {
  it('a value that is not COUNT[top files] is ARM_FORMAT, with the value to write', () => {
    for (const value of ['three', '3 files', '[src/a.ts]', '-1[]']) {
      expect(arm('FILES', value).violations, value).toEqual([
        {
          rule: 'ARM_FORMAT',
          section: 'ARM',
          message: `line 4: FILES "${value}" is not COUNT[top files]`,
          fix: 'Write FILES::3[src/a.ts,src/b.ts,test/a.test.ts].',
          line: 4,
        },
      ]);
    }
  });

  it('the file list is optional and not compared', () => {
    expect(arm('FILES', '3').violations).toEqual([]);
    expect(arm('FILES', '3 [other.ts]').violations).toEqual([]);
  });

  it('FILES::0 with no list while git shows changes is a placeholder; with a clean tree it is the truth', () => {
    for (const value of ['0[]', '0', '0[  ]']) {
      expect(arm('FILES', value).violations, value).toEqual([
        {
          rule: 'ARM_PLACEHOLDER',
          section: 'ARM',
          message: 'line 4: FILES::0[] while git shows 3 changed files',
          fix: 'Read git status: FILES::3[src/a.ts,src/b.ts,test/a.test.ts].',
          line: 4,
        },
      ]);
    }
    const one = { ...SERVER_ARM, files_count: 1, top_files: ['src/a.ts'] };
    expect(arm('FILES', '0[]', one).violations[0]?.message).toBe('line 4: FILES::0[] while git shows 1 changed file');
    const clean = { ...SERVER_ARM, files_count: 0, top_files: [] };
    expect(arm('FILES', '0[]', clean).violations).toEqual([]);
    expect(arm('FILES', '2[]', clean).violations).toEqual([]);
  });

  it('a count off by more than the tolerance is implausible, in either direction', () => {
    expect(rules(arm('FILES', '5[x]'))).toEqual([]);
    expect(rules(arm('FILES', '1[x]'))).toEqual([]);
    expect(arm('FILES', '6[x]').violations).toEqual([
      {
        rule: 'ARM_FILES_IMPLAUSIBLE',
        section: 'ARM',
        message: 'line 4: ARM shows FILES::6 but git shows 3 changed files',
        fix: 'Update FILES to match git status: FILES::3[src/a.ts,src/b.ts,test/a.test.ts].',
        line: 4,
      },
    ]);
    expect(rules(arm('FILES', '0[src/a.ts]'))).toEqual(['ARM_FILES_IMPLAUSIBLE']);
    const one = { ...SERVER_ARM, files_count: 1, top_files: ['a'] };
    expect(arm('FILES', '4[a]', one).violations[0]?.message).toBe(
      'line 4: ARM shows FILES::4 but git shows 1 changed file',
    );
  });

  it('the tolerance is 2 files or 20 % of git’s count, whichever is larger (rounded up)', () => {
    expect([0, 1, 10, 11, 15, 100].map(filesTolerance)).toEqual([2, 2, 2, 3, 3, 20]);
    const many = { ...SERVER_ARM, files_count: 100 };
    expect(rules(arm('FILES', '120', many))).toEqual([]);
    expect(rules(arm('FILES', '80', many))).toEqual([]);
    expect(rules(arm('FILES', '121', many))).toEqual(['ARM_FILES_IMPLAUSIBLE']);
    expect(rules(arm('FILES', '79', many))).toEqual(['ARM_FILES_IMPLAUSIBLE']);
  });
});

describe('checkArm: FOCUS', () => {
  it('a different focus warns; a placeholder focus is refused', () => {
    expect(checkArm(section(...VALID, 'FOCUS::something else'), SERVER_ARM)).toEqual({
      violations: [],
      warnings: [
        `ARM FOCUS "something else" differs from the session's "implement clock_in" (the canonical anchor carries the session's)`,
      ],
    });
    expect(checkArm(section(...VALID, 'FOCUS::N/A'), SERVER_ARM)).toEqual({
      violations: [
        {
          rule: 'ARM_PLACEHOLDER',
          section: 'ARM',
          message: 'line 5: FOCUS "N/A" is a placeholder',
          fix: "Use the session's focus: FOCUS::implement clock_in.",
          line: 5,
        },
      ],
      warnings: [],
    });
  });
});

describe('renderBranch', () => {
  it('renders git’s branch with its ahead and behind counts', () => {
    expect(renderBranch({ ...SERVER_ARM, branch: 'main', ahead: 0, behind: 12 })).toBe('main[0↑12↓]');
  });
});
