import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT } from '../helpers/git-repo.js';
import { seedAnchor } from '../helpers/session-fixture.js';
import { pathWithoutGh } from '../helpers/session-fixtures.js';

// Issue 15 (Speed): `hestai session ...` runs its plain forms without commander (src/cli/session-argv.ts,
// one bundle). The answer must be the one the full CLI gives: same stdout, stderr and exit code, for
// results and for errors alike. The full CLI is run through its commander entry (dist/cli/main.js).

const MAIN = path.join(PROJECT_ROOT, 'dist/cli/main.js');

describe('the `hestai session` fast path answers exactly as the full CLI', () => {
  it('gives the same output and exit code for results and errors', () => {
    const repo = makeRepo();
    const env = { ...repo.env, PATH: pathWithoutGh(), NO_COLOR: '1' };
    const cli = (args: string[]) => repo.hestai(args, { env });
    expect(cli(['init', '--no-husky']).status).toBe(0);
    repo.commit('chore: hestai init');
    repo.git(['switch', '-q', '-c', 'feat/fast']);
    const clock = cli(['clock-in', '--role', 'implementation-lead', '--focus', 'fast', '--json']);
    const token = (JSON.parse(clock.stdout) as { session_id: string }).session_id;
    seedAnchor(repo.dir, token, {}, { role: 'implementation-lead' });
    expect(cli(['session', 'start', '--objective', 'fast path']).status).toBe(0);
    const full = (args: string[]) => {
      const r = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { main } = await import(${JSON.stringify(MAIN)}); process.exitCode = await main(['node', 'hestai', ...JSON.parse(process.argv[1])]);`,
          JSON.stringify(args),
        ],
        { cwd: repo.dir, env, encoding: 'utf8' },
      );
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    for (const args of [
      ['session', 'show', '--json'],
      ['session', 'show'],
      ['session', 'show', '--history'],
      ['session', 'show', '--violations', '--json'],
      ['session', 'blocked'],
      ['session', 'blocked', '--json', '--session', token],
      ['session', 'gate', 'BINDING', '--json'],
      ['session', 'gate', 'BINDING', '--step', 'anchor'],
      ['session', 'gate', 'NOPE'],
      ['session', 'gate', 'BINDING', '--step', 'nope', '--json'],
      ['session', 'evidence', 'BINDING', '--type', 'bogus', '--value', 'x'],
      ['session', 'advance', '--to', 'NOPE', '--json'],
      ['session', 'show', '--session', 'not-a-session'],
      ['session', 'show', '--cwd', path.join(repo.dir, 'missing')],
      ['session', 'end', '--summary', '   '],
    ]) {
      const fast = cli(args);
      expect({ status: fast.status, stdout: fast.stdout, stderr: fast.stderr }, args.join(' ')).toEqual(full(args));
    }
  });
});
