import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { hestai, noStack } from './helpers.js';

// Issue 12, item 7 (part): HESTAI_NOW must be an ISO-8601 instant; anything Date.parse merely tolerates
// ("1", "Tuesday 2026", a date without a time) is exit 2, never a silently shifted clock.

describe('time: HESTAI_NOW', () => {
  for (const value of ['1', 'Tue, 10 Nov 2026', '2026-11-10', 'December 17, 1995 03:24:00']) {
    it(`refuses HESTAI_NOW=${JSON.stringify(value)} with exit 2`, () => {
      const repo = makeRepo();
      const result = hestai(repo, ['status'], { HESTAI_NOW: value });
      noStack(result);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/HESTAI_NOW is not an ISO-8601 instant/);
    });
  }

  it('accepts a full ISO-8601 instant with a zone', () => {
    const repo = makeRepo();
    expect(hestai(repo, ['status'], { HESTAI_NOW: '2026-11-10T12:00:00+01:00' }).status).toBe(0);
  });
});
