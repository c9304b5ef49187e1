import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/git-repo.js';
import { runs } from '../helpers/property.js';

// Issue 38, item 6: property tests take their run counts from one place (runs() in test/helpers/property.ts),
// sized so the unit project passes on a loaded 2-core machine; HESTAI_PROPERTY_SCALE runs them deeper.

/** The test files under test/, relative to the project. */
function testFiles(dir = path.join(PROJECT_ROOT, 'test')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(file);
    return entry.name.endsWith('.ts') ? [path.relative(PROJECT_ROOT, file)] : [];
  });
}

describe('runs', () => {
  it('gives the run count, multiplied by HESTAI_PROPERTY_SCALE when it is set', () => {
    expect(runs(200, {})).toEqual({ numRuns: 200 });
    expect(runs(200, { HESTAI_PROPERTY_SCALE: '10' })).toEqual({ numRuns: 2000 });
    expect(runs(200, { HESTAI_PROPERTY_SCALE: '0.001' })).toEqual({ numRuns: 1 });
  });

  it('refuses a scale that is not a positive number, naming the variable', () => {
    for (const bad of ['abc', '0', '-2', ''])
      expect(() => runs(10, { HESTAI_PROPERTY_SCALE: bad })).toThrow(/HESTAI_PROPERTY_SCALE .*positive number/);
  });

  it('is where every property test takes its run count (no numRuns of its own)', () => {
    const mine = [path.join('test', 'helpers', 'property.ts'), path.join('test', 'unit', 'property-runs.test.ts')];
    const files = testFiles().filter((file) => !mine.includes(file));
    const own = files.filter((file) => /numRuns/.test(fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8')));
    expect(own).toEqual([]);
    const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
    const properties = files
      .map((file) => ({ file, text: fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8') }))
      .filter(({ text }) => /fc\.assert\(/.test(text));
    expect(properties.length).toBeGreaterThan(0);
    // one runs() per fc.assert in each file
    for (const { file, text } of properties)
      expect(count(text, /\bruns\(/g), file).toBeGreaterThanOrEqual(count(text, /fc\.assert\(/g));
  });
});
