import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/git-repo.js';
import { makeSession } from '../helpers/session-fixture.js';

// `git commit --amend` through the real installed hooks (real git, real `git commit`): the amended commit
// replaces HEAD, so the commit-msg hook judges it as a new commit on HEAD's parents with HEAD left out of
// the history (exactly as strict as committing it fresh on HEAD^). Linux only for the amend signal (git's
// command line in /proc); elsewhere the hook keeps judging every commit as a child of HEAD.
const linux = fs.existsSync('/proc/self/cmdline');

/** An initialised repository with hooks installed and an anchored session, on branch feat/x. */
function hookedRepo(config?: string): TempRepo {
  const repo = makeRepo();
  if (config !== undefined) repo.write('.hestai_workspace.yaml', config);
  expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
  makeSession(repo.dir);
  repo.git(['checkout', '-q', '-b', 'feat/x']);
  return repo;
}

/** Writes and stages files, then runs a real `git commit` with `args` through the hooks. */
function gitCommit(repo: TempRepo, args: string[], files: Record<string, string> = {}, env: NodeJS.ProcessEnv = {}) {
  for (const [file, content] of Object.entries(files)) repo.write(file, content);
  if (Object.keys(files).length > 0) repo.git(['add', '-A']);
  return repo.git([...args], { allowFail: true, env });
}

const message = (repo: TempRepo, rev = 'HEAD') => repo.git(['log', '-1', '--format=%B', rev]).stdout;
const subject = (repo: TempRepo, rev = 'HEAD') => repo.git(['log', '-1', '--format=%s', rev]).stdout.trim();
const trailerCount = (text: string, key: string) => text.split('\n').filter((l) => l.startsWith(`${key}: `)).length;

/** test(x) then feat(x), both through the hooks. */
function testThenFeat(repo: TempRepo): void {
  const test = gitCommit(repo, ['commit', '-q', '-m', 'test(x): failing'], { 'test/x.test.ts': 'x\n' });
  expect(test.status, test.stderr).toBe(0);
  const feat = gitCommit(repo, ['commit', '-q', '-m', 'feat(x): add x'], { 'src/x.ts': 'export const x = 1;\n' });
  expect(feat.status, feat.stderr).toBe(0);
}

describe.runIf(linux)('commit-msg hook: git commit --amend (real commits, installed hooks)', () => {
  it('amending a paired feat (new message, then --no-edit with an extra file) passes and keeps one set of trailers', () => {
    const repo = hookedRepo();
    testThenFeat(repo);
    const reworded = gitCommit(repo, ['commit', '-q', '--amend', '-m', 'feat(x): better message']);
    expect(reworded.status, reworded.stderr).toBe(0);
    expect(subject(repo)).toBe('feat(x): better message');
    expect(subject(repo, 'HEAD^')).toBe('test(x): failing');
    expect(trailerCount(message(repo), 'HestAI-Session')).toBe(1);
    expect(trailerCount(message(repo), 'HestAI-Anchor')).toBe(1);

    const noEdit = gitCommit(repo, ['commit', '-q', '--amend', '--no-edit'], { 'src/forgotten.ts': 'export {};\n' });
    expect(noEdit.status, noEdit.stderr).toBe(0);
    expect(subject(repo)).toBe('feat(x): better message');
    expect(repo.git(['show', '--name-only', '--format=', 'HEAD']).stdout.split('\n')).toContain('src/forgotten.ts');
    expect(trailerCount(message(repo), 'HestAI-Session')).toBe(1);
    expect(trailerCount(message(repo), 'HestAI-Anchor')).toBe(1);
    expect(repo.git(['rev-list', '--count', 'main..HEAD']).stdout.trim()).toBe('2');
    // hestai verify (anchor proofs aside: this clone has none) pairs the amended feat with the test.
    const verify = repo.hestai(['verify', '--from', 'main', '--format', 'json']);
    const report = JSON.parse(verify.stdout) as {
      commits: Array<{ header: string; verdicts: Array<{ rule: string; status: string }> }>;
    };
    expect(report.commits.map((c) => [c.header, c.verdicts.find((v) => v.rule === 'test-first')?.status])).toEqual([
      ['test(x): failing', 'pass'],
      ['feat(x): better message', 'pass'],
    ]);
  });

  it('an alias, a unique prefix (--amen), -c before the command and --reset-author are amends too', () => {
    const repo = hookedRepo();
    testThenFeat(repo);
    const alias = gitCommit(repo, ['-c', 'alias.ci=commit', 'ci', '-q', '--amen', '-m', 'feat(x): via an alias']);
    expect(alias.status, alias.stderr).toBe(0);
    const reset = gitCommit(repo, [
      '-c',
      'core.quotepath=off',
      'commit',
      '-q',
      '--amend',
      '--reset-author',
      '--no-edit',
    ]);
    expect(reset.status, reset.stderr).toBe(0);
    expect(subject(repo)).toBe('feat(x): via an alias');
  });

  it("through husky (git runs the hook through husky's shell wrappers) an amend is recognised too", () => {
    const repo = makeRepo();
    repo.write('package.json', JSON.stringify({ name: 'app', private: true, devDependencies: { husky: '^9.1.7' } }));
    repo.write('.gitignore', 'node_modules/\n');
    const husky = path.join(PROJECT_ROOT, 'node_modules/husky/bin.js');
    const installed = repo.git(['-c', `alias.husky=!node ${JSON.stringify(husky)}`, 'husky'], { allowFail: true });
    expect(installed.status, installed.stderr).toBe(0);
    expect(repo.hestai(['init']).status).toBe(0);
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai with husky']);
    makeSession(repo.dir);
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    testThenFeat(repo);
    const amended = gitCommit(repo, ['commit', '-q', '--amend', '-m', 'feat(x): reworded under husky']);
    expect(amended.status, amended.stderr).toBe(0);
    expect(subject(repo)).toBe('feat(x): reworded under husky');
    expect(trailerCount(message(repo), 'HestAI-Session')).toBe(1); // a new message: the commit-msg hook ran
  });

  it('the same holds under tdd.policy scoped', () => {
    const repo = hookedRepo('tdd:\n  policy: scoped\n');
    testThenFeat(repo);
    const amended = gitCommit(repo, ['commit', '-q', '--amend', '-m', 'feat(x): scoped and reworded']);
    expect(amended.status, amended.stderr).toBe(0);
  });

  it('amending a test commit into a feat with no earlier test is blocked (it replaces the test)', () => {
    const repo = hookedRepo();
    const test = gitCommit(repo, ['commit', '-q', '-m', 'test(x): failing'], { 'test/x.test.ts': 'x\n' });
    expect(test.status, test.stderr).toBe(0);
    const amended = gitCommit(repo, ['commit', '-q', '--amend', '-m', 'feat(x): sneak'], { 'src/x.ts': 'x\n' });
    expect(amended.status).toBe(1);
    expect(amended.stderr).toContain('test-first');
    expect(amended.stderr).toContain('judged as git commit --amend');
    expect(subject(repo)).toBe('test(x): failing');
  });

  it('amending a test commit with --no-edit and an implementation file keeps it a test commit with its test file', () => {
    const repo = hookedRepo();
    const test = gitCommit(repo, ['commit', '-q', '-m', 'test(x): failing'], { 'test/x.test.ts': 'x\n' });
    expect(test.status, test.stderr).toBe(0);
    const amended = gitCommit(repo, ['commit', '-q', '--amend', '--no-edit'], { 'src/helper.ts': 'export {};\n' });
    expect(amended.status, amended.stderr).toBe(0);
    expect(amended.stderr).not.toContain('stages no test file');
    const feat = gitCommit(repo, ['commit', '-q', '-m', 'feat(x): add x'], { 'src/x.ts': 'x\n' });
    expect(feat.status, feat.stderr).toBe(0);
  });

  it('amending a feat that was itself committed without its own test (--no-verify) stays blocked', () => {
    const repo = hookedRepo();
    testThenFeat(repo);
    repo.write('src/y.ts', 'y\n');
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'feat(y): second feat, no test']);
    const amended = gitCommit(repo, ['commit', '-q', '--amend', '-m', 'feat(y): reworded']);
    expect(amended.status).toBe(1);
    expect(amended.stderr).toContain('already paired');
  });

  it('a new feat that only looks like an amend (HEAD author date in GIT_AUTHOR_DATE, "--amend" as a message) is judged as a child of HEAD', () => {
    const repo = hookedRepo();
    testThenFeat(repo);
    const headDate = repo.git(['log', '-1', '--format=@%at %ad', '--date=format:%z', 'HEAD']).stdout.trim();
    const dated = gitCommit(
      repo,
      ['commit', '-q', '-m', 'feat(x): second'],
      { 'src/a.ts': 'a\n' },
      { GIT_AUTHOR_DATE: headDate },
    );
    expect(dated.status).toBe(1);
    expect(dated.stderr).toContain('already paired');
    const asMessage = gitCommit(
      repo,
      ['commit', '-q', '-m', 'feat(x): third', '-m', '--amend'],
      { 'src/b.ts': 'b\n' },
      { GIT_AUTHOR_DATE: headDate },
    );
    expect(asMessage.status).toBe(1);
    expect(asMessage.stderr).toContain('already paired');
    expect(subject(repo)).toBe('feat(x): add x');
  });

  it('a wrapper script named git that says --amend while it runs the real git without it is not taken for the git process', () => {
    const repo = hookedRepo();
    testThenFeat(repo);
    const headDate = repo.git(['log', '-1', '--format=@%at %ad', '--date=format:%z', 'HEAD']).stdout.trim();
    // The real git under another name ("g"), called by a shell script named "git" that carries --amend.
    const bin = path.join(repo.dir, '..', `fake-git-${path.basename(repo.dir)}`);
    fs.mkdirSync(bin, { recursive: true });
    const realGit = repo.git(['--exec-path']).stdout.trim() + '/git';
    fs.symlinkSync(fs.existsSync(realGit) ? realGit : '/usr/bin/git', path.join(bin, 'g'));
    fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\n"${path.join(bin, 'g')}" commit -q -F "$MSGFILE"\n`, {
      mode: 0o755,
    });
    repo.write('src/y.ts', 'y\n');
    repo.git(['add', '-A']);
    repo.write('msg.txt', 'feat(x): second feat, no test\n');
    const result = spawnSync(path.join(bin, 'git'), ['commit', '--amend'], {
      cwd: repo.dir,
      encoding: 'utf8',
      env: { ...process.env, ...repo.env, GIT_AUTHOR_DATE: headDate, MSGFILE: path.join(repo.dir, 'msg.txt') },
    });
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr).toContain('already paired');
    expect(subject(repo)).toBe('feat(x): add x');
  });
});
