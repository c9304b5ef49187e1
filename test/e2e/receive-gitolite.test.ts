import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anchoredRepo } from '../helpers/anchored-repo.js';
import { CLI, tempDir } from '../helpers/git-repo.js';

// Issue 43: `hestai receive` installed in gitolite3 (Debian's package) as docs/server.md says: a VREF, and a
// post-receive hook in $LOCAL_CODE/hooks/common; pushed to over ssh on 127.0.0.1 (an sshd of the test's own,
// for the user running it). Skipped when gitolite3 or openssh-server is not installed.

const SSHD = '/usr/sbin/sshd';
const found = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const MISSING = [
  ['gitolite', 'gitolite3'],
  [SSHD, 'openssh-server'],
  ['ssh-keygen', 'openssh-client'],
].flatMap(([cmd, pkg]) => (found(cmd!) ? [] : [`${pkg} is not installed (no ${cmd})`]));
const SKIP = MISSING.length === 0 ? null : `${MISSING.join('; ')}: apt-get install gitolite3 openssh-server`;

const run = (cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env) => {
  const result = spawnSync(cmd, args, { encoding: 'utf8', env });
  expect(result.status, `${cmd} ${args.join(' ')}: ${result.stderr}${result.stdout}`).toBe(0);
  return result.stdout;
};

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let sshd: ChildProcess | undefined;
afterAll(() => {
  sshd?.kill();
});

/** gitolite set up for `alice` under a temporary HOME, hestai installed as docs/server.md says, its sshd started. */
function setUpGitolite(): { dir: string; home: string } {
  const dir = tempDir('hestai-gitolite-');
  const home = path.join(dir, 'gitolite');
  fs.mkdirSync(home);
  const env = { ...process.env, HOME: home };
  for (const name of ['admin', 'alice', 'host'])
    run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', path.join(dir, name)]);
  // Repositories gitolite creates get HEAD on main, the project's default branch.
  run('git', ['config', '-f', path.join(home, '.gitconfig'), 'init.defaultBranch', 'main']);
  run('gitolite', ['setup', '-pk', path.join(dir, 'admin.pub')], env);
  const rc = path.join(home, '.gitolite.rc');
  const text = fs.readFileSync(rc, 'utf8');
  const enabled = text.replace(/# (LOCAL_CODE\s*=>\s*"\$ENV\{HOME\}\/local",)/, '$1');
  expect(enabled).not.toBe(text);
  fs.writeFileSync(rc, enabled);
  fs.copyFileSync(path.join(dir, 'alice.pub'), path.join(home, '.gitolite/keydir/alice.pub'));
  fs.writeFileSync(
    path.join(home, '.gitolite/conf/gitolite.conf'),
    'repo gitolite-admin\n    RW+ = admin\n\nrepo project\n    RW+ = alice\n    - VREF/HESTAI = @all\n',
  );
  // docs/server.md: the update script as $LOCAL_CODE/VREF/HESTAI, the post-receive one in hooks/common.
  const script = (extra: string) => `#!/bin/sh\nexec ${process.execPath} ${CLI} receive${extra} "$@"\n`;
  for (const [file, extra] of [
    ['VREF/HESTAI', ''],
    ['hooks/common/post-receive', ' --receipts'],
  ] as const) {
    fs.mkdirSync(path.dirname(path.join(home, 'local', file)), { recursive: true });
    fs.writeFileSync(path.join(home, 'local', file), script(extra), { mode: 0o755 });
  }
  run('gitolite', ['setup'], env);
  run('gitolite', ['setup', '--hooks-only'], env);
  return { dir, home };
}

describe('hestai receive as a gitolite3 VREF, over ssh on 127.0.0.1', () => {
  it('refuses an unanchored commit with its message and accepts an honest anchored push, with a receipt naming GL_USER', async (ctx) => {
    if (SKIP !== null) return ctx.skip(SKIP);
    const { dir, home } = setUpGitolite();
    const port = await freePort();
    const config = path.join(dir, 'sshd_config');
    fs.writeFileSync(
      config,
      [
        `Port ${port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${path.join(dir, 'host')}`,
        `PidFile ${path.join(dir, 'sshd.pid')}`,
        `AuthorizedKeysFile ${path.join(home, '.ssh/authorized_keys')}`,
        'StrictModes no',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'UsePAM no',
        // gitolite-shell finds its rc and repositories under HOME: the gitolite home, not the user's.
        `SetEnv HOME=${home}`,
        '',
      ].join('\n'),
    );
    // As root, sshd's privilege separation needs its directory (the ssh service makes it when it starts).
    if (process.getuid?.() === 0) fs.mkdirSync('/run/sshd', { recursive: true });
    sshd = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    sshd.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const sshEnv = {
      GIT_SSH_COMMAND: `ssh -i ${path.join(dir, 'alice')} -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR -p ${port}`,
    };
    const user = os.userInfo().username;
    let info = '';
    for (let i = 0; i < 50 && !info.includes('project'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      info = spawnSync('sh', ['-c', `${sshEnv.GIT_SSH_COMMAND} ${user}@127.0.0.1 info`], { encoding: 'utf8' }).stdout;
    }
    expect(info, log).toMatch(/hello alice, .*gitolite3/);
    const url = `ssh://${user}@127.0.0.1:${port}/project`;
    const bare = path.join(home, 'repositories/project.git');

    const repo = anchoredRepo();
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.anchor();
    const push = (refs: string[]) => repo.git(['push', url, ...refs], { allowFail: true, env: sshEnv });
    const first = push(['main']);
    expect(first.status, first.stderr).toBe(0);

    repo.commit('docs: past the hooks', { 'docs/a.md': 'a\n' });
    const refused = push(['feat/x']);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/remote: .*anchor: .*no HestAI-Anchor trailer/);
    expect(refused.stderr).toMatch(/remote: .*VREF\/HESTAI/);
    const onServer = (ref: string) =>
      spawnSync('git', ['--git-dir', bare, 'rev-parse', '--verify', '--quiet', ref], {
        encoding: 'utf8',
      }).stdout.trim();
    expect(onServer('refs/heads/feat/x')).toBe('');

    repo.git(['reset', '-q', '--hard', 'HEAD~1']);
    expect(repo.commitHooked('docs: anchored', { 'docs/a.md': 'a\n' }).status).toBe(0);
    const accepted = push(['feat/x']);
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(onServer('refs/heads/feat/x')).toBe(repo.git(['rev-parse', 'HEAD']).stdout.trim());
    const receipts = spawnSync('git', ['--git-dir', bare, 'log', '--format=%B', 'refs/hestai/receipts'], {
      encoding: 'utf8',
    }).stdout;
    expect(receipts).toMatch(/"ref":"refs\/heads\/feat\/x".*"pusher":"alice"/);
  });
});
