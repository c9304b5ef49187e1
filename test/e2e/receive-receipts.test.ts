import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchoredRepo, verdictOf } from '../helpers/anchored-repo.js';
import { runCli, sharedFixture, tempDir } from '../helpers/git-repo.js';

// Issue 43: receipts, a clock the branch cannot set. post-receive records, per pushed ref, the server's receive
// time, the old and new ids and the pusher in refs/hestai/receipts; verify.receipts judges anchors by it.

const served = sharedFixture(() => {
  const repo = anchoredRepo();
  expect(repo.hestai(['init', '--server', repo.remote]).status).toBe(0);
  repo.git(['checkout', '-q', '-b', 'feat/x']);
  return { repo, token: repo.anchor() };
});

const receipts = (gitDir: string, git: (args: string[]) => { stdout: string }) =>
  git(['--git-dir', gitDir, 'log', '--format=%B%x00', 'refs/hestai/receipts'])
    .stdout.split('\0')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => JSON.parse(s) as Record<string, unknown>);

describe('receipts', () => {
  it('an accepted push gets a receipt per ref: server time, old and new ids, the pusher the server names', () => {
    const { repo } = served();
    expect(repo.commitHooked('docs: anchored', { 'docs/a.md': 'a\n' }).status).toBe(0);
    const tip = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    const at = '2030-01-02T03:04:05.000Z';
    const pushed = repo.git(['push', `file://${repo.remote}`, 'feat/x'], {
      allowFail: true,
      env: { GL_USERNAME: 'alice', HESTAI_NOW: at },
    });
    expect(pushed.status, pushed.stderr).toBe(0);
    const list = receipts(repo.remote, (a) => repo.git(a));
    const branch = list.find((r) => r['ref'] === 'refs/heads/feat/x');
    expect(branch).toMatchObject({ old: '0'.repeat(40), new: tip, received_at: at, pusher: 'alice' });
    // The commits a push brought: the tip came first with the change record the pre-push hook published.
    expect(list.filter((r) => (r['commits'] as string[]).includes(tip))).toHaveLength(1);
    expect(list.some((r) => r['ref'] === 'refs/heads/hestai/anchors')).toBe(true);
    // Without a name from the server: unknown.
    repo.commit('docs: past the hooks', { 'docs/b.md': 'b\n' });
    repo.git(['tag', 'v1']);
    expect(repo.git(['push', `file://${repo.remote}`, 'v1'], { allowFail: true }).status).toBe(0);
    expect(receipts(repo.remote, (a) => repo.git(a))[0]).toMatchObject({ ref: 'refs/tags/v1', pusher: 'unknown' });
  });

  it('a replayed-trailer commit passes without receipts and fails under verify.receipts: required', () => {
    const { repo } = served();
    expect(repo.commitHooked('docs: anchored', { 'docs/a.md': 'a\n' }).status).toBe(0);
    expect(repo.git(['push', '-q', `file://${repo.remote}`, 'feat/x'], { allowFail: true }).status).toBe(0);
    // Four days later, a commit copies the published trailers and claims a time inside the record's window.
    const trailers = repo.git(['log', '-1', '--format=%(trailers:key=HestAI-Session,key=HestAI-Anchor)']).stdout.trim();
    repo.commit(`docs: replayed\n\n${trailers}`, { 'docs/b.md': 'b\n' });
    const later = new Date(Date.now() + 96 * 3_600_000).toISOString();
    const replay = repo.git(['push', `file://${repo.remote}`, 'feat/x'], {
      allowFail: true,
      env: { HESTAI_NOW: later },
    });
    expect(replay.status, replay.stderr).toBe(0);

    // A base whose policy asks for receipts, made where verify runs (it never needs pushing).
    const clone = repo.freshClone('feat/x');
    const git = (args: string[]) => repo.git(args, { cwd: clone });
    git(['fetch', '-q', 'origin', 'refs/hestai/receipts:refs/hestai/receipts']);
    git(['checkout', '-q', '-b', 'strict', 'origin/main']);
    const config = fs.readFileSync(path.join(clone, '.hestai_workspace.yaml'), 'utf8');
    fs.writeFileSync(path.join(clone, '.hestai_workspace.yaml'), `${config}verify:\n  receipts: required\n`);
    git(['-c', 'core.hooksPath=/dev/null', 'commit', '-q', '-am', 'chore: receipts required']);
    git(['checkout', '-q', 'feat/x']);

    const lax = repo.verifyJson(clone, ['--from', 'origin/main']);
    expect(lax.status, JSON.stringify(lax.report, null, 1)).toBe(0);
    const strict = repo.verifyJson(clone, ['--from', 'origin/main', '--policy', 'strict']);
    expect(strict.status).toBe(1);
    expect(verdictOf(strict.report, 'docs: anchored', 'receipt')?.status).toBe('pass');
    const replayed = verdictOf(strict.report, 'docs: replayed', 'receipt');
    expect(replayed?.status).toBe('fail');
    expect(replayed?.message).toMatch(/received at .* after the anchor was validated/);
  });

  it('under required a commit with no receipt fails, and its remedy fetches them', () => {
    const { repo } = served();
    expect(repo.commitHooked('docs: anchored', { 'docs/a.md': 'a\n' }).status).toBe(0);
    expect(repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true }).status).toBe(0);
    const config = fs.readFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'utf8');
    repo.git(['checkout', '-q', '-b', 'strict', 'main']);
    repo.write('.hestai_workspace.yaml', `${config}verify:\n  receipts: required\n`);
    repo.git(['-c', 'core.hooksPath=/dev/null', 'commit', '-q', '-am', 'chore: receipts required']);
    const args = ['--from', 'main', '--to', 'feat/x', '--policy', 'strict'];
    const missing = verdictOf(repo.verifyJson(repo.dir, args).report, 'docs: anchored', 'receipt');
    expect(missing?.status).toBe('fail');
    expect(missing?.message).toContain('no receipt');
    const remedy = /hint: git (fetch \S+ \S+)/.exec(missing!.message);
    expect(remedy, missing!.message).not.toBeNull();
    repo.git(remedy![1]!.split(' '));
    expect(verdictOf(repo.verifyJson(repo.dir, args).report, 'docs: anchored', 'receipt')?.status).toBe('pass');
  });

  it('under a base policy of verify.receipts: required the server itself refuses a replay pushed past the window', () => {
    const { repo } = served();
    const config = fs.readFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'utf8');
    const strict = repo.commitHooked('chore: receipts required', {
      '.hestai_workspace.yaml': `${config}verify:\n  receipts: required\n`,
    });
    expect(strict.status, strict.stderr).toBe(0);
    const main = repo.git(['push', 'origin', 'feat/x:main'], { allowFail: true });
    expect(main.status, main.stderr).toBe(0);
    // Judged by main's policy now: the commits of the push are received now, the record earlier.
    expect(repo.commitHooked('docs: anchored', { 'docs/a.md': 'a\n' }).status).toBe(0);
    const honest = repo.git(['push', 'origin', 'feat/x'], { allowFail: true });
    expect(honest.status, honest.stderr).toBe(0);
    const trailers = repo.git(['log', '-1', '--format=%(trailers:key=HestAI-Session,key=HestAI-Anchor)']).stdout.trim();
    repo.commit(`docs: replayed\n\n${trailers}`, { 'docs/b.md': 'b\n' });
    const later = new Date(Date.now() + 96 * 3_600_000).toISOString();
    const replay = repo.git(['push', 'origin', 'feat/x'], { allowFail: true, env: { HESTAI_NOW: later } });
    expect(replay.status).not.toBe(0);
    expect(replay.stderr).toMatch(/remote: .*receipt: .*after the anchor was validated/);
  });
});

describe('receipts that cannot be written', () => {
  it('post-receive says the push was accepted and no receipt was written, never that it was refused', () => {
    const { repo } = served();
    expect(repo.commitHooked('docs: anchored', { 'docs/a.md': 'a\n' }).status).toBe(0);
    // Another writer's lock on the receipts ref: post-receive runs after every ref has moved.
    fs.mkdirSync(path.join(repo.remote, 'refs', 'hestai'), { recursive: true });
    fs.writeFileSync(path.join(repo.remote, 'refs', 'hestai', 'receipts.lock'), '');
    const pushed = repo.git(['push', `file://${repo.remote}`, 'feat/x'], { allowFail: true });
    expect(pushed.status, pushed.stderr).toBe(0);
    expect(pushed.stderr).toMatch(/remote: hestai receive: no receipt was written for refs\/heads\/feat\/x/);
    expect(pushed.stderr).toContain('the push itself was accepted');
    expect(pushed.stderr).not.toMatch(/refused/);
  });
});

describe('receipts of a large push', () => {
  it('post-receive streams a push of 10,001 commits into receipts of at most 10,000 commits each, every commit listed once', () => {
    const bare = path.join(tempDir('hestai-big-'), 'big.git');
    const { repo } = served();
    repo.git(['init', '-q', '--bare', bare]);
    const commits: string[] = [];
    for (let i = 1; i <= 10_001; i++)
      commits.push(
        `commit refs/heads/main\nmark :${i}\ncommitter A <a@example.invalid> ${1_700_000_000 + i} +0000\ndata 3\nc${i % 10}\n${i > 1 ? `from :${i - 1}\n` : ''}\n`,
      );
    repo.git(['--git-dir', bare, 'fast-import', '--quiet'], { input: commits.join('') });
    const tip = repo.git(['--git-dir', bare, 'rev-parse', 'refs/heads/main']).stdout.trim();
    const at = '2030-01-02T03:04:05.000Z';
    const run = runCli(['receive', '--receipts'], {
      cwd: bare,
      env: { ...process.env, GIT_DIR: '.', HESTAI_NOW: at, GL_USER: 'bob' },
      input: `${'0'.repeat(40)} ${tip} refs/heads/main\n`,
    });
    expect(run.status, run.stderr).toBe(0);
    const list = receipts(bare, (a) => repo.git(a));
    expect(list).toHaveLength(2);
    for (const r of list) {
      expect(r).toMatchObject({ ref: 'refs/heads/main', new: tip, received_at: at, pusher: 'bob' });
      expect((r['commits'] as string[]).length).toBeLessThanOrEqual(10_000);
    }
    const listed = list.flatMap((r) => r['commits'] as string[]);
    expect(new Set(listed).size).toBe(10_001);
    expect(listed).toHaveLength(10_001);
    expect(listed).toContain(tip);
  });
});
