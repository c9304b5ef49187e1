import { describe, expect, it } from 'vitest';
import { checkStructure } from '../../../src/anchor/rules/structure.js';
import { parseVector } from '../../../src/anchor/vector.js';
import { BIND, COMMIT, TENSION, VECTOR } from './fixtures.js';

const check = (text: string, part: 'vector' | 'bind' | 'proof' = 'vector') => checkStructure(parseVector(text), part);

describe('checkStructure', () => {
  it('a whole vector and the two stage payloads pass', () => {
    expect(check(VECTOR)).toEqual([]);
    expect(check(BIND, 'bind')).toEqual([]);
    expect(check(`${TENSION}\n${COMMIT}`, 'proof')).toEqual([]);
  });

  it('the markers are required of the whole vector only, each with how to write it', () => {
    const bare = VECTOR.split('\n').slice(1, -1).join('\n');
    expect(check(bare)).toEqual([
      {
        rule: 'STRUCTURE_MARKERS',
        section: 'STRUCTURE',
        message: 'missing the opening marker ===RAPH_VECTOR::v4.0===',
        fix: 'Start the vector with the line ===RAPH_VECTOR::v4.0=== (schema v4.0).',
      },
      {
        rule: 'STRUCTURE_MARKERS',
        section: 'STRUCTURE',
        message: 'missing the closing marker ===END_RAPH_VECTOR===',
        fix: 'End the vector with the line ===END_RAPH_VECTOR===.',
      },
    ]);
    expect(check(`===RAPH_VECTOR::v4.0===\n${BIND}\n===END_RAPH_VECTOR===`, 'bind')).toEqual([]);
  });

  it('a duplicate section is reported once, at its second header, naming the first', () => {
    const text = `${BIND}\n${BIND}\n${BIND}`;
    expect(check(text, 'bind')).toEqual([
      {
        rule: 'STRUCTURE_DUPLICATE_SECTION',
        section: 'STRUCTURE',
        line: 5,
        message: 'line 5: section ## BIND appears twice (first on line 1)',
        fix: 'Merge the two ## BIND sections into one.',
      },
      {
        rule: 'STRUCTURE_DUPLICATE_SECTION',
        section: 'STRUCTURE',
        line: 9,
        message: 'line 9: section ## BIND appears twice (first on line 1)',
        fix: 'Merge the two ## BIND sections into one.',
      },
    ]);
  });

  it('a section of another stage is named without the allowed list, and the fix lists what the payload holds', () => {
    expect(check(`${TENSION}\n${COMMIT}\n${BIND}`, 'proof')).toEqual([
      {
        rule: 'STRUCTURE_EXTRA_SECTION',
        section: 'STRUCTURE',
        line: 8,
        message: 'line 8: section ## BIND is not allowed in the proof-stage payload (## TENSION and ## COMMIT)',
        fix: 'Remove ## BIND; the proof-stage payload (## TENSION and ## COMMIT) holds only ## TENSION, ## COMMIT.',
      },
    ]);
  });

  it('an unknown section lists the allowed ones; a legacy section says where its content went', () => {
    expect(check(`${BIND}\n## NOTES\nx::y`, 'bind')).toEqual([
      {
        rule: 'STRUCTURE_EXTRA_SECTION',
        section: 'STRUCTURE',
        line: 5,
        message: 'line 5: section ## NOTES is not allowed in the context-stage payload (## BIND alone) (allowed: BIND)',
        fix: 'Remove ## NOTES; the context-stage payload (## BIND alone) holds only ## BIND.',
      },
    ]);
    expect(check(`${BIND}\n## SHANK\nx::y`, 'bind')[0]?.fix).toBe(
      'Remove ## SHANK: authority goes in BIND AUTHORITY, hazards and sources in TENSION CTX citations.',
    );
  });

  it('each missing section is named with how to add it', () => {
    expect(check('', 'proof')).toEqual(
      ['TENSION', 'COMMIT'].map((name) => ({
        rule: 'STRUCTURE_MISSING_SECTION',
        section: 'STRUCTURE',
        message: `section ## ${name} is missing from the proof-stage payload (## TENSION and ## COMMIT) (a header counts only at column 0)`,
        fix: `Add a "## ${name}" header at the start of a line, followed by its lines.`,
      })),
    );
  });

  it('a line outside every section is quoted, trimmed and cut to 60 characters', () => {
    const long = `  ${'word '.repeat(20)}`;
    expect(check(`${long}\n${BIND}\n===END_RAPH_VECTOR===\nthanks`, 'bind')).toEqual([
      {
        rule: 'STRUCTURE_STRAY_LINE',
        section: 'STRUCTURE',
        line: 1,
        message: `line 1: ${JSON.stringify('word '.repeat(12))} is outside every section`,
        fix: 'Put every line under a "## SECTION" header, inside the vector markers.',
      },
      {
        rule: 'STRUCTURE_STRAY_LINE',
        section: 'STRUCTURE',
        line: 7,
        message: 'line 7: "thanks" is outside every section',
        fix: 'Put every line under a "## SECTION" header, inside the vector markers.',
      },
    ]);
  });
});
