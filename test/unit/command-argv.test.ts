import { describe, expect, it } from 'vitest';
import { commandArgv } from '../../src/cli/command-argv.js';

// Issue 27, item 7: `hestai <command>` runs from the command's own bundle when the command is plain to see;
// everything else goes through the full CLI (null).

describe('commandArgv (which command a plain invocation runs)', () => {
  it('names the command after the global options commander reads one way only', () => {
    expect(commandArgv(['status'])).toBe('status');
    expect(commandArgv(['verify', '--from', 'HEAD~1', '--json'])).toBe('verify');
    expect(commandArgv(['--json', 'clock-in', '--role', 'x'])).toBe('clock-in');
    expect(commandArgv(['--cwd', '/r', '--json', 'odyssean-anchor'])).toBe('odyssean-anchor');
    expect(commandArgv(['--cwd=/r', 'init', '--no-husky'])).toBe('init');
    expect(commandArgv(['--cwd', 'status', 'verify'])).toBe('verify'); // the directory is named status
  });

  it('leaves help, version, no command and anything unusual to the full CLI', () => {
    expect(commandArgv([])).toBeNull();
    expect(commandArgv(['--json'])).toBeNull();
    expect(commandArgv(['--help'])).toBeNull();
    expect(commandArgv(['-V', 'status'])).toBeNull();
    expect(commandArgv(['--cwd'])).toBeNull();
    expect(commandArgv(['--cwd', '--json', 'status'])).toBeNull();
    expect(commandArgv(['--verbose', 'status'])).toBeNull();
    expect(commandArgv(['../hooks/pre-commit'])).toBeNull();
    expect(commandArgv(['Status'])).toBeNull();
    expect(commandArgv(['status/x'])).toBeNull();
  });
});
