import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anchoredRepo, type AnchoredRepo } from '../helpers/anchored-repo.js';
import { sharedFixture, type RunResult } from '../helpers/git-repo.js';

// Issue 43: `hestai receive` as the server's pre-receive (and update) hook, installed by `hestai init --server`,
// judged over real transports: a push to file://, and to `git daemon --enable=receive-pack` on 127.0.0.1.

const served = sharedFixture(() => {
  const repo = anchoredRepo();
  const init = repo.hestai(['init', '--server', repo.remote]);
  expect(init.status, init.stderr + init.stdout).toBe(0);
  repo.git(['checkout', '-q', '-b', 'feat/x']);
  return { repo, token: repo.anchor() };
});

const url = (repo: AnchoredRepo) => `file://${repo.remote}`;
const push = (repo: AnchoredRepo, args: string[], to = url(repo)): RunResult =>
  repo.git(['push', to, ...args], { allowFail: true });
const remoteHas = (repo: AnchoredRepo, ref: string) =>
  repo.git(['--git-dir', repo.remote, 'rev-parse', '--verify', '--quiet', ref], { allowFail: true }).stdout.trim();

/** The `npx hestai ...` remedy the refusal printed, run as printed in the client. */
function runRemedy(repo: AnchoredRepo, output: string) {
  const printed = /npx hestai (verify [^\n]*?)\s*$/m.exec(output);
  expect(printed, output).not.toBeNull();
  return repo.hestai(printed![1]!.trim().split(' '));
}

/** A commit on hestai/anchors made by hand (no hook): `change` edits an index read from the tip. */
function anchorsCommit(repo: AnchoredRepo, change: (env: NodeJS.ProcessEnv) => void): string {
  const tip = repo.git(['rev-parse', 'refs/heads/hestai/anchors']).stdout.trim();
  const env = { GIT_INDEX_FILE: `${repo.dir}/.git/anchors-index` };
  repo.git(['read-tree', tip], { env });
  change(env);
  const tree = repo.git(['write-tree'], { env }).stdout.trim();
  const commit = repo.git(['commit-tree', tree, '-p', tip, '-m', 'by hand']).stdout.trim();
  repo.git(['update-ref', 'refs/heads/hestai/anchors', commit]);
  return commit;
}

describe('hestai receive over file://', () => {
  it('init --server writes the pre-receive and post-receive hooks and the config', () => {
    const { repo } = served();
    for (const hook of ['pre-receive', 'post-receive']) {
      const file = path.join(repo.remote, 'hooks', hook);
      expect(fs.statSync(file).mode & 0o111).not.toBe(0);
      expect(fs.readFileSync(file, 'utf8')).toContain(' receive');
    }
    expect(repo.git(['--git-dir', repo.remote, 'config', 'hestai.receive.tags']).stdout.trim()).toBe('pass');
  });

  it('an honest anchored push is accepted', () => {
    const { repo } = served();
    expect(repo.commitHooked('test(greet): greets', { 'test/greet.test.js': 'x\n' }).status).toBe(0);
    expect(repo.commitHooked('feat(greet): greet', { 'src/greet.js': 'y\n' }).status).toBe(0);
    const pushed = push(repo, ['feat/x']);
    expect(pushed.status, pushed.stderr).toBe(0);
    expect(remoteHas(repo, 'refs/heads/feat/x')).toBe(repo.git(['rev-parse', 'HEAD']).stdout.trim());
  });

  it('an untested feat is refused with its rule, and the printed remedy reproduces the verdict in the client', () => {
    const { repo } = served();
    // Past the local hooks (which would stop it at commit time), as a machine without them makes it.
    repo.commit('feat(greet): greet', { 'src/greet.js': 'y\n' });
    const sha = repo.git(['rev-parse', '--short=7', 'HEAD']).stdout.trim();
    const pushed = push(repo, ['feat/x']);
    expect(pushed.status).not.toBe(0);
    expect(pushed.stderr).toMatch(new RegExp(`remote: .*${sha}.*feat\\(greet\\): greet`));
    expect(pushed.stderr).toMatch(/remote: .*test-first/);
    expect(pushed.stderr).toContain('pre-receive hook declined');
    expect(remoteHas(repo, 'refs/heads/feat/x')).toBe('');
    const remedy = runRemedy(repo, pushed.stderr.replace(/^remote: /gm, ''));
    expect(remedy.status).toBe(1);
    expect(remedy.stdout).toContain('test-first');
  });

  it('an unanchored commit is refused by the anchor rule', () => {
    const { repo } = served();
    repo.commit('docs: past the hooks', { 'docs/a.md': 'a\n' });
    const pushed = push(repo, ['feat/x']);
    expect(pushed.status).not.toBe(0);
    expect(pushed.stderr).toMatch(/remote: .*anchor: .*no HestAI-Anchor trailer/);
  });

  it('a branch that weakens its own policy is judged by the default branch\u2019s', () => {
    const { repo } = served();
    const config = fs.readFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'utf8');
    repo.commit('chore: relax', {
      '.hestai_workspace.yaml': `${config}verify:\n  anchors: off\n  trailers: off\n`,
    });
    repo.commit('feat(greet): untested and unanchored', { 'src/greet.js': 'y\n' });
    const pushed = push(repo, ['feat/x']);
    expect(pushed.status).not.toBe(0);
    expect(pushed.stderr).toMatch(/remote: .*test-first/);
    expect(pushed.stderr).toMatch(/remote: .*the branch changes verify\.anchors/);
  });

  it('hestai/anchors is append-only: a push deleting a published record is refused', () => {
    const { repo } = served();
    expect(repo.commitHooked('docs: anchored', { 'docs/a.md': 'a\n' }).status).toBe(0);
    expect(push(repo, ['feat/x']).status).toBe(0);
    const record = repo
      .git(['ls-tree', '--name-only', 'refs/heads/hestai/anchors', 'records/'])
      .stdout.trim()
      .split('\n')[0]!;
    anchorsCommit(repo, (env) => repo.git(['rm', '-q', '--cached', record], { env }));
    const pushed = push(repo, ['hestai/anchors']);
    expect(pushed.status).not.toBe(0);
    expect(pushed.stderr).toMatch(new RegExp(`remote: .*deletes ${record.replace('.', '\\.')}`));
    expect(pushed.stderr).toContain('append-only');
    const remedy = /remedy: git (branch -f hestai\/anchors \S+)/.exec(pushed.stderr);
    expect(remedy, pushed.stderr).not.toBeNull();
    repo.git(remedy![1]!.split(' '));
    expect(push(repo, ['hestai/anchors']).status).toBe(0);
    // A rewrite: the same files on a line that does not descend from the published tip.
    const rewrite = repo.git(['commit-tree', 'refs/heads/hestai/anchors^{tree}', '-m', 'rewrite']).stdout.trim();
    const forced = push(repo, ['--force', `${rewrite}:refs/heads/hestai/anchors`]);
    expect(forced.status).not.toBe(0);
    expect(forced.stderr).toMatch(/remote: .*rewrites published history/);
    expect(push(repo, [':hestai/anchors']).status).not.toBe(0);
  });

  it('an oversized record on hestai/anchors is refused', () => {
    const { repo } = served();
    const big = repo.git(['hash-object', '-w', '--stdin'], { input: 'x'.repeat(1024 * 1024 + 1) }).stdout.trim();
    const name = `records/${'a'.repeat(64)}.json`;
    anchorsCommit(repo, (env) => repo.git(['update-index', '--add', '--cacheinfo', `100644,${big},${name}`], { env }));
    const pushed = push(repo, ['hestai/anchors']);
    expect(pushed.status).not.toBe(0);
    expect(pushed.stderr).toMatch(/remote: .*over the 1 MiB cap/);
  });

  it('the receipts namespace is the server\u2019s: a client push there is refused; tags and deletions pass', () => {
    const { repo } = served();
    const refused = push(repo, ['HEAD:refs/hestai/receipts']);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/remote: .*refs\/hestai\/receipts/);
    repo.commit('docs: past the hooks', { 'docs/a.md': 'a\n' });
    repo.git(['tag', 'v1']);
    expect(push(repo, ['v1']).status).toBe(0);
    repo.git(['--git-dir', repo.remote, 'branch', 'old', 'main']);
    expect(push(repo, [':old']).status).toBe(0);
  });

  it('a receive that cannot finish in hestai.receive.timeout fails closed, saying why', () => {
    const { repo } = served();
    repo.git(['--git-dir', repo.remote, 'config', 'hestai.receive.timeout', '0.001']);
    expect(repo.commitHooked('docs: anchored', { 'docs/a.md': 'a\n' }).status).toBe(0);
    const pushed = push(repo, ['--no-verify', 'feat/x', 'hestai/anchors']);
    expect(pushed.status).not.toBe(0);
    expect(pushed.stderr).toMatch(/remote: .*did not finish within 0\.001 s .*fail closed/);
    expect(remoteHas(repo, 'refs/heads/feat/x')).toBe('');
  });

  it('a new branch is never accepted unjudged while the server has refs: a dangling HEAD fails closed', () => {
    const { repo } = served();
    const git = (args: string[]) => repo.git(['--git-dir', repo.remote, ...args]);
    git(['symbolic-ref', 'HEAD', 'refs/heads/trunk']);
    repo.commit('docs: past the hooks', { 'docs/a.md': 'a\n' });
    const pushed = push(repo, ['feat/x']);
    expect(pushed.status).not.toBe(0);
    expect(pushed.stderr).toMatch(/remote: .*git symbolic-ref HEAD refs\/heads\/<default branch>/);
    expect(remoteHas(repo, 'refs/heads/feat/x')).toBe('');
    // init --server points a dangling HEAD at the default branch it finds; the push is then judged.
    expect(repo.hestai(['init', '--server', repo.remote]).status).toBe(0);
    expect(git(['symbolic-ref', 'HEAD']).stdout.trim()).toBe('refs/heads/main');
    expect(push(repo, ['feat/x']).stderr).toMatch(/remote: .*anchor: .*no HestAI-Anchor trailer/);
  });

  it('the default branch is never deleted, so it cannot come back unjudged', () => {
    const { repo } = served();
    // git refuses it by default; a host may allow it (as receive.denyDeleteCurrent ignore does).
    repo.git(['--git-dir', repo.remote, 'config', 'receive.denyDeleteCurrent', 'ignore']);
    const deleted = push(repo, [':main']);
    expect(deleted.status).not.toBe(0);
    expect(deleted.stderr).toMatch(/remote: .*default branch/);
    expect(remoteHas(repo, 'refs/heads/main')).not.toBe('');
  });

  it('hestai/anchors: an unrelated line merged with -s ours cannot drop or forge published files', () => {
    const { repo } = served();
    expect(repo.commitHooked('docs: anchored', { 'docs/a.md': 'a\n' }).status).toBe(0);
    expect(push(repo, ['feat/x']).status).toBe(0);
    const published = repo.git(['rev-parse', 'refs/heads/hestai/anchors']).stdout.trim();
    const env = { GIT_INDEX_FILE: `${repo.dir}/.git/forged-index` };
    const blob = repo.git(['hash-object', '-w', '--stdin'], { input: '{"forged":true}\n' }).stdout.trim();
    const name = `changes/${repo.git(['rev-parse', 'HEAD']).stdout.trim()}.json`;
    repo.git(['update-index', '--add', '--cacheinfo', `100644,${blob},${name}`], { env });
    const tree = repo.git(['write-tree'], { env }).stdout.trim();
    const orphan = repo.git(['commit-tree', tree, '-m', 'forged']).stdout.trim();
    const merge = repo.git(['commit-tree', tree, '-p', orphan, '-p', published, '-m', 'merge -s ours']).stdout.trim();
    const pushed = push(repo, [`${merge}:refs/heads/hestai/anchors`]);
    expect(pushed.status).not.toBe(0);
    expect(pushed.stderr).toContain('append-only');
    expect(remoteHas(repo, 'refs/heads/hestai/anchors')).toBe(published);
  });

  it('as the update hook (`<ref> <old> <new>` arguments) the same verdict', () => {
    const { repo } = served();
    const hooks = path.join(repo.remote, 'hooks');
    fs.renameSync(path.join(hooks, 'pre-receive'), path.join(hooks, 'update'));
    repo.commit('docs: past the hooks', { 'docs/a.md': 'a\n' });
    const pushed = push(repo, ['feat/x']);
    expect(pushed.status).not.toBe(0);
    expect(pushed.stderr).toMatch(/remote: .*anchor: .*no HestAI-Anchor trailer/);
    expect(pushed.stderr).toContain('hook declined');
  });
});

describe('hestai receive over git daemon on 127.0.0.1', () => {
  let daemon: ChildProcess | null = null;
  afterEach(() => {
    daemon?.kill();
    daemon = null;
  });

  const freePort = () =>
    new Promise<number>((resolve, reject) => {
      const server = net.createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
      server.on('error', reject);
    });

  async function serve(repo: AnchoredRepo): Promise<string> {
    const port = await freePort();
    const base = path.dirname(repo.remote);
    daemon = spawn(
      'git',
      [
        'daemon',
        '--reuseaddr',
        '--export-all',
        '--enable=receive-pack',
        `--base-path=${base}`,
        '--listen=127.0.0.1',
        `--port=${port}`,
        base,
      ],
      { env: repo.env, stdio: 'ignore' },
    );
    for (let i = 0; i < 100; i++) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
      if (up) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return `git://127.0.0.1:${port}/${path.basename(repo.remote)}`;
  }

  it('an unanchored commit is refused with remote: lines; an honest anchored push is accepted', async () => {
    const { repo } = served();
    const git = await serve(repo);
    // The anchors branch travels in the same push (the pre-push hook publishes to the remote named by URL).
    expect(repo.commitHooked('docs: anchored', { 'docs/a.md': 'a\n' }).status).toBe(0);
    const honest = push(repo, ['feat/x', 'hestai/anchors'], git);
    expect(honest.status, honest.stderr).toBe(0);
    repo.commit('docs: past the hooks', { 'docs/b.md': 'b\n' });
    const refused = push(repo, ['feat/x'], git);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/remote: .*anchor: .*no HestAI-Anchor trailer/);
  });
});
