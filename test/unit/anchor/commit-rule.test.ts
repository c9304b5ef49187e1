import { describe, expect, it } from 'vitest';
import { commitProbePaths } from '../../../src/anchor/rules/commit.js';
import type { CtxProbe } from '../../../src/anchor/rules/types.js';
import { guidanceFor, validateVector, type ValidateOptions } from '../../../src/anchor/validate.js';
import { COMMIT, PROBE, replaceLine, SERVER_ARM, TENSION, VECTOR } from './fixtures.js';

// Issue 18 (seeds 002/003, COMMIT_VALIDATION): the ARTIFACT and the GATE are judged by a positive rule.
// An ARTIFACT is a path (existing, or new directly inside an existing directory), a test name or a
// symbol; a GATE is a runnable command or a named check. Anything else is refused with guidance.

/** The shared fixture's working directory, plus a script. */
const probe: CtxProbe = (p) => (p === 'scripts/check.sh' ? { kind: 'file', lines: 3 } : PROBE(p));

const options = (extra: Partial<ValidateOptions> = {}): ValidateOptions => ({
  role: 'implementation-lead',
  strictness: 'default',
  probe,
  serverArm: SERVER_ARM,
  ...extra,
});

const ARTIFACT_LINE = VECTOR.split('\n').findIndex((l) => l.startsWith('ARTIFACT::')) + 1;
const GATE_LINE = VECTOR.split('\n').findIndex((l) => l.startsWith('GATE::')) + 1;
const withArtifact = (value: string) => replaceLine(VECTOR, 'ARTIFACT::', `ARTIFACT::${value}`);
const withGate = (value: string) => replaceLine(VECTOR, 'GATE::', `GATE::${value}`);
const errorsOf = (text: string) => validateVector(text, options()).errors;

describe('ARTIFACT: a path, a test name or a symbol', () => {
  it.each([
    ['an existing file', 'src/clock-in.ts'],
    ['an existing directory', 'src'],
    ['an existing directory, with a slash', 'src/'],
    ['a new file in an existing directory', 'src/new-module.ts'],
    ['a new file at the root', 'CHANGELOG.md'],
    ['a new directory at the root', 'packages/'],
    ['a new file, ./ prefixed', './src/new-module.ts'],
    ['a test in a file (vitest/jest)', 'src/clock-in.test.ts > clock_in > refuses a stale session'],
    ['a test in a file (pytest)', 'src/test_clock_in.py::test_refuses_stale_session'],
    ['a symbol in a file', 'src/clock-in.ts#clockIn'],
    ['a camelCase symbol', 'clockIn'],
    ['a PascalCase symbol', 'ClockInResponse'],
    ['a Go test function', 'TestClockInRefusesStale'],
    ['a call', 'clock_in()'],
    ['a qualified symbol', 'session.clockIn'],
    ['a Rust path', 'clock_in::refuse_stale'],
  ])('accepts %s: %s', (_what, value) => {
    const result = validateVector(withArtifact(value), options());
    expect(result.errors).toEqual([]);
    expect(result.commit?.artifact).toBe(value);
  });

  it.each([
    'improved code quality',
    'better understanding',
    'analysis',
    'Analysis',
    'a cleaner design',
    'test results of npm test in CI',
    'myResponse',
    'the_answer',
    'response',
    'thoughts',
  ])('refuses "%s": not a path, a test name or a symbol', (value) => {
    const result = validateVector(withArtifact(value), options());
    expect(result.errors).toEqual([
      `COMMIT_ARTIFACT_ABSTRACT: line ${ARTIFACT_LINE}: ARTIFACT "${value}" is not concrete: not a path, a test name or a symbol`,
    ]);
    const guidance = guidanceFor(result);
    expect(guidance).toContain('a path (');
    expect(guidance).toContain('a test (');
    expect(guidance).toContain('a symbol (');
  });

  it('refuses a path whose directory does not exist, naming the directory', () => {
    expect(errorsOf(withArtifact('src/nowhere/x.ts'))).toEqual([
      `COMMIT_ARTIFACT_NOT_FOUND: line ${ARTIFACT_LINE}: ARTIFACT "src/nowhere/x.ts": neither it nor its directory src/nowhere exists in the working directory`,
    ]);
    expect(errorsOf(withArtifact('lib/nowhere.ts > a test'))).toEqual([
      `COMMIT_ARTIFACT_NOT_FOUND: line ${ARTIFACT_LINE}: ARTIFACT "lib/nowhere.ts > a test": neither lib/nowhere.ts nor its directory lib exists in the working directory`,
    ]);
  });

  it.each([
    ['/etc/passwd', 'is an absolute path'],
    ['~/notes.md', 'is an absolute path'],
    ['../other-repo/src/x.ts', 'contains ".." (outside the working directory)'],
    ['escape.ts', 'resolves outside the working directory (symlink)'],
  ])('refuses %s (outside the working directory)', (value, why) => {
    expect(errorsOf(withArtifact(value))).toEqual([
      `COMMIT_ARTIFACT_OUTSIDE: line ${ARTIFACT_LINE}: ARTIFACT "${value}" ${why}`,
    ]);
  });

  it('refuses a test or symbol with an empty name', () => {
    expect(errorsOf(withArtifact('src/clock-in.ts > '))).toEqual([
      `COMMIT_ARTIFACT_ABSTRACT: line ${ARTIFACT_LINE}: ARTIFACT "src/clock-in.ts >" is not concrete: not a path, a test name or a symbol`,
    ]);
  });
});

describe('GATE: a runnable command or a named check', () => {
  it.each([
    'npm test',
    'npx vitest run test/unit/clock-in.test.ts',
    'pnpm -r test',
    'make check',
    'pytest -q tests/test_clock_in.py',
    'cargo test --all',
    'go test ./...',
    'node test/greet.test.js',
    'CI=1 npm test',
    '`npm run lint`',
    'node_modules/.bin/vitest run',
    './scripts/check.sh',
    'src/clock-in.ts --self-test',
    'hestai verify',
    'check:ci/build',
    'check:code-review',
  ])('accepts %s', (value) => {
    const result = validateVector(withGate(value), options());
    expect(result.errors).toEqual([]);
    expect(result.commit?.gate).toBe(value);
  });

  it.each(['looks good', 'tests pass', 'manual review', 'CI green', 'it works', 'check:', 'check:looks good'])(
    'refuses "%s": not a runnable command or a named check',
    (value) => {
      const result = validateVector(withGate(value), options());
      expect(result.errors).toEqual([
        `COMMIT_GATE_VAGUE: line ${GATE_LINE}: GATE "${value}" is not a runnable command or a named check`,
      ]);
      expect(guidanceFor(result)).toContain('check:NAME');
    },
  );

  it('refuses a script path that does not exist', () => {
    expect(errorsOf(withGate('./scripts/nowhere.sh --all'))).toEqual([
      `COMMIT_GATE_NOT_FOUND: line ${GATE_LINE}: GATE "./scripts/nowhere.sh --all": scripts/nowhere.sh does not exist in the working directory`,
    ]);
  });

  it('keeps a valid GATE and ARTIFACT in the corrected template', () => {
    const result = validateVector(withGate('looks good'), options());
    expect(result.templates.find((t) => t.section === '## COMMIT')?.text).toBe(
      '## COMMIT (Falsifiable Contract)\nARTIFACT::src/clock-in.ts\nGATE::{a command or a named check, e.g. npm test or check:ci/build}',
    );
  });
});

describe('what verify re-checks at the recorded HEAD', () => {
  it('names every path the COMMIT rule asks the probe about, so the tree lookup can be batched', () => {
    expect(commitProbePaths('src/new/x.ts', 'npm test')).toEqual(['src/new/x.ts', 'src/new']);
    expect(commitProbePaths('src/x.test.ts > a test', './scripts/check.sh')).toEqual([
      'src/x.test.ts',
      'src',
      'scripts/check.sh',
    ]);
    expect(commitProbePaths('clockIn', 'check:ci')).toEqual([]);
  });

  it('the proof payload of the stage handshake is judged the same way', () => {
    const proof = `${TENSION}\n${replaceLine(COMMIT, 'GATE::', 'GATE::looks good')}`;
    expect(validateVector(proof, options({ part: 'proof' })).errors).toEqual([
      'COMMIT_GATE_VAGUE: line 7: GATE "looks good" is not a runnable command or a named check',
    ]);
  });
});
