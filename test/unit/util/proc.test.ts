import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nearestAncestor, parseProcCmdline, parseProcStat } from '../../../src/util/proc.js';
import { PROJECT_ROOT, tempDir } from '../../helpers/git-repo.js';

describe('/proc parsing', () => {
  it('reads the command name and parent pid, a name with spaces and parentheses included', () => {
    expect(parseProcStat('4242 (git) S 4200 4242 4200 0 -1')).toEqual({ comm: 'git', ppid: 4200 });
    expect(parseProcStat('4242 (a) b (c) R 17 4242')).toEqual({ comm: 'a) b (c', ppid: 17 });
    expect(parseProcStat('garbage')).toBeNull();
  });

  it('splits a NUL-separated command line', () => {
    expect(parseProcCmdline('git\0commit\0-m\0a b\0')).toEqual(['git', 'commit', '-m', 'a b']);
    expect(parseProcCmdline('')).toEqual([]);
  });
});

/** Writes one process of a fake /proc tree under `proc`: stat, cmdline and the exe link. */
const procEntry = (proc: string) => (pid: number, comm: string, ppid: number, argv: string[], exe: string) => {
  fs.mkdirSync(path.join(proc, String(pid)));
  fs.writeFileSync(path.join(proc, String(pid), 'stat'), `${pid} (${comm}) S ${ppid} 1 1`);
  fs.writeFileSync(path.join(proc, String(pid), 'cmdline'), argv.map((a) => `${a}\0`).join(''));
  fs.symlinkSync(exe, path.join(proc, String(pid), 'exe'));
};

describe('nearestAncestor', () => {
  it('walks up a process tree written as /proc files to the nearest process of that name', () => {
    const proc = tempDir();
    const write = procEntry(proc);
    write(30, 'sh', 20, ['/bin/sh', '.git/hooks/commit-msg'], '/usr/bin/dash');
    write(20, 'git', 10, ['git', 'commit', '--amend'], '/usr/bin/git');
    write(10, 'bash', 1, ['bash'], '/usr/bin/bash');
    expect(nearestAncestor('git', { startPid: 30, procRoot: proc })).toEqual({
      kind: 'found',
      pid: 20,
      argv: ['git', 'commit', '--amend'],
    });
    expect(nearestAncestor('make', { startPid: 30, procRoot: proc })).toEqual({ kind: 'none' });
    expect(nearestAncestor('git', { startPid: 30, procRoot: proc, maxDepth: 1 })).toEqual({ kind: 'none' });
    expect(nearestAncestor('git', { startPid: 99, procRoot: proc })).toEqual({ kind: 'unavailable' });
  });

  it('recognises a process by its executable, never by a name or argv[0] someone chose (a script named git)', () => {
    const proc = tempDir();
    const write = procEntry(proc);
    write(40, 'node', 30, ['node', 'hook.cjs'], '/usr/bin/node');
    write(30, 'sh', 25, ['/bin/sh', '.git/hooks/commit-msg'], '/usr/bin/dash');
    write(25, 'g', 20, ['/tmp/fake/g', 'commit', '-F', 'msg'], '/usr/lib/git-core/git');
    write(20, 'git', 10, ['/bin/sh', '/tmp/fake/git', 'commit', '--amend'], '/usr/bin/dash');
    write(10, 'bash', 1, ['bash'], '/usr/bin/bash');
    expect(nearestAncestor('git', { startPid: 30, procRoot: proc })).toEqual({
      kind: 'found',
      pid: 25,
      argv: ['/tmp/fake/g', 'commit', '-F', 'msg'],
    });
  });

  it.runIf(fs.existsSync('/proc/self/stat'))(
    'finds the real git through the real /proc (git running an alias through sh, running node)',
    () => {
      const module = path.join(PROJECT_ROOT, 'dist/util/proc.js'); // the built module (npm test builds first)
      const script = `import('${module}').then((m) => console.log(JSON.stringify(m.nearestAncestor('git'))))`;
      const result = spawnSync(
        'git',
        ['-c', `alias.probe=!"${process.execPath}" --input-type=module -e "${script}"`, 'probe'],
        {
          encoding: 'utf8',
        },
      );
      const found = JSON.parse(result.stdout) as { kind: string; argv: string[] };
      expect(found.kind).toBe('found');
      expect(found.argv.at(-1)).toBe('probe');
    },
  );
});
