import { describe, expect, it } from 'vitest';
import { sessionArgv } from '../../src/cli/session-argv.js';

// Issue 15 (Speed): `hestai session ...` skips commander for its plain forms; everything else must go
// through the full CLI (null), which answers help, unknown options and usage errors as before.

describe('sessionArgv (the `hestai session` fast path)', () => {
  it('takes the plain forms of all seven commands, options in any order, with the global options anywhere', () => {
    expect(sessionArgv(['session', 'show', '--json'])).toEqual({
      sub: 'show',
      cwd: undefined,
      json: true,
      session: undefined,
      phase: undefined,
      opts: {},
    });
    expect(sessionArgv(['--cwd', '/r', 'session', 'gate', '--step', 'tests', 'CHECK', '--session=abc'])).toEqual({
      sub: 'gate',
      cwd: '/r',
      json: false,
      session: 'abc',
      phase: 'CHECK',
      opts: { step: 'tests' },
    });
    expect(
      sessionArgv(['session', 'evidence', 'P', '--type', 'manual', '--value=a = b', '--json', '--cwd=/x']),
    ).toMatchObject({ sub: 'evidence', phase: 'P', cwd: '/x', json: true, opts: { type: 'manual', value: 'a = b' } });
    expect(sessionArgv(['session', 'start', '--objective', 'ship it', '--starting-commit', 'HEAD~1'])).toMatchObject({
      opts: { objective: 'ship it', startingCommit: 'HEAD~1' },
    });
    expect(sessionArgv(['session', 'advance', '--force', '--to', 'END'])).toMatchObject({
      opts: { force: true, to: 'END' },
    });
    expect(
      sessionArgv(['session', 'end', '--summary', 's', '--decision', 'a', '--decision', 'b', '--next', 'n']),
    ).toMatchObject({ opts: { summary: 's', decision: ['a', 'b'], next: 'n' } });
    expect(sessionArgv(['session', 'blocked'])).toMatchObject({ sub: 'blocked', opts: {} });
    expect(sessionArgv(['session', 'show', '--history'])).toMatchObject({ opts: { history: true } });
    expect(sessionArgv(['session', 'start', '--objective', ''])).toMatchObject({ opts: { objective: '' } });
  });

  it('leaves everything else to the full CLI', () => {
    for (const argv of [
      [],
      ['session'],
      ['session', 'nope'],
      ['status'],
      ['session', 'show', '--help'],
      ['session', 'show', '-h'],
      ['--version', 'session', 'show'],
      ['session', 'show', '--unknown'],
      ['session', 'show', 'extra'],
      ['session', 'show', '--history', '--history'],
      ['session', 'show', '--json', '--json'],
      ['session', 'show', '--'],
      ['session', '--session', 'x', 'show'],
      ['--session', 'x', 'session', 'show'],
      ['session', 'gate'],
      ['session', 'gate', 'A', 'B'],
      ['session', 'gate', 'A', '--step'],
      ['session', 'gate', 'A', '--step', '--json'],
      ['session', 'gate', 'A', '--step', 'x', '--step', 'y'],
      ['session', 'start'],
      ['session', 'start', '--objective'],
      ['session', 'start', '--objective', '-x'],
      ['session', 'evidence', 'P', '--type', 'manual'],
      ['session', 'end', '--decision', 'a'],
      ['session', 'show', '--cwd', '/a', '--cwd', '/b'],
      ['session', 'show', '--cwd'],
      ['session', 'blocked', '--force'],
      ['session', 'show', '--objective', 'x'],
    ])
      expect(sessionArgv(argv), argv.join(' ')).toBeNull();
  });
});
