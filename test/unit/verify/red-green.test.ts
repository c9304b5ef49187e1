import { describe, expect, it } from 'vitest';
import { redGreenVerdict, type CommandRun } from '../../../src/verify/red-green.js';

const TEST = 'a'.repeat(40);
const FEAT = 'b'.repeat(40);
const run = (status: number | null, timedOut = false): CommandRun => ({
  status,
  timedOut,
  tail: timedOut ? '' : 'tail',
});

describe('redGreenVerdict (pure)', () => {
  it('passes when the test commit fails and the feat commit passes', () => {
    expect(redGreenVerdict(TEST, FEAT, run(1), run(0), 'npm test')).toMatchObject({
      rule: 'red-green',
      clause: 'docs/design.md §6 (--red-green, tdd.test_command)',
      status: 'pass',
      message: 'RED at aaaaaaa (exit 1), GREEN at bbbbbbb',
    });
  });

  it('never counts a timeout at the test commit as the RED it expects', () => {
    // A killed run has no exit status: read naively, "not 0" would look like a failing test.
    const verdict = redGreenVerdict(TEST, FEAT, run(null, true), run(0), 'npm test');
    expect(verdict).toEqual({
      rule: 'red-green',
      clause: 'docs/design.md §6 (--red-green, tdd.test_command)',
      status: 'fail',
      message: '`npm test` timed out at aaaaaaa',
    });
  });

  it('names the feat commit when the GREEN run times out', () => {
    expect(redGreenVerdict(TEST, FEAT, run(1), run(null, true), 'npm test')).toEqual({
      rule: 'red-green',
      clause: 'docs/design.md §6 (--red-green, tdd.test_command)',
      status: 'fail',
      message: '`npm test` timed out at bbbbbbb',
    });
  });

  it('fails when the test already passes before the implementation, or the feat does not pass', () => {
    expect(redGreenVerdict(TEST, FEAT, run(0), run(0), 'npm test')).toEqual({
      rule: 'red-green',
      clause: 'docs/design.md §6 (--red-green, tdd.test_command)',
      status: 'fail',
      message:
        'RED expected at test commit aaaaaaa, but `npm test` passed there: the test did not fail before the implementation',
    });
    expect(redGreenVerdict(TEST, FEAT, run(1), run(2), 'npm test')).toEqual({
      rule: 'red-green',
      clause: 'docs/design.md §6 (--red-green, tdd.test_command)',
      status: 'fail',
      message: 'GREEN expected at bbbbbbb, but `npm test` failed (exit 2): tail',
    });
  });
});
