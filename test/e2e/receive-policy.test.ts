import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchoredRepo, type AnchoredRepo } from '../helpers/anchored-repo.js';
import { CLI, sharedFixture, tempDir, type RunResult } from '../helpers/git-repo.js';

// Issue 43: which policy judges a push. A branch never judges itself: its policy and allowed signers come from
// the default branch's tip before the push, so a branch that weakens them in one push cannot use it in the next;
// and an empty repository's first push lets no ref in unjudged but the default branch that sets the policy.

const served = sharedFixture(() => {
  const repo = anchoredRepo();
  const init = repo.hestai(['init', '--server', repo.remote]);
  expect(init.status, init.stderr + init.stdout).toBe(0);
  repo.git(['checkout', '-q', '-b', 'feat/x']);
  return { repo, token: repo.anchor() };
});

const push = (repo: AnchoredRepo, args: string[], to = `file://${repo.remote}`): RunResult =>
  repo.git(['push', to, ...args], { allowFail: true });
const remoteHas = (remote: string, repo: AnchoredRepo, ref: string) =>
  repo.git(['--git-dir', remote, 'rev-parse', '--verify', '--quiet', ref], { allowFail: true }).stdout.trim();

describe('hestai receive: the policy a push is judged by', () => {
  it('a branch that weakens its policy and adds a signer in one push cannot use them in the next', () => {
    const { repo } = served();
    const config = fs.readFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'utf8');
    // Push 1: honest-looking and anchored, it passes, reported: the weakened policy and a new allowed signer.
    const weakened = repo.commitHooked('chore: relax', {
      '.hestai_workspace.yaml': `${config}verify:\n  anchors: off\n  trailers: off\n`,
      '.hestai/allowed_signers': 'mallory@example.invalid ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMallory\n',
    });
    expect(weakened.status, weakened.stderr).toBe(0);
    const first = push(repo, ['feat/x']);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/remote: .*the branch changes verify\.anchors/);
    expect(first.stderr).toMatch(/remote: .*changes \.hestai\/allowed_signers/);
    expect(first.stderr).toMatch(/remote: .*by the policy of [0-9a-f]{7} \(the default branch/);
    // Push 2: an untested, unanchored feat the branch's own policy would let in.
    repo.commit('feat(greet): untested and unanchored', { 'src/greet.js': 'y\n' });
    const second = push(repo, ['feat/x']);
    expect(second.status).not.toBe(0);
    expect(second.stderr).toMatch(/remote: .*test-first/);
    expect(second.stderr).toMatch(/remote: .*anchor: .*no HestAI-Anchor trailer/);
    expect(remoteHas(repo.remote, repo, 'refs/heads/feat/x')).toBe(repo.git(['rev-parse', 'HEAD~1']).stdout.trim());
  });

  it('the default branch is judged by its own old value, and once merged its policy judges every branch', () => {
    const { repo } = served();
    const config = fs.readFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'utf8');
    expect(
      repo.commitHooked('chore: relax', {
        '.hestai_workspace.yaml': `${config}verify:\n  anchors: off\n  trailers: off\n`,
      }).status,
    ).toBe(0);
    const merged = push(repo, ['feat/x:main']);
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stderr).toMatch(/remote: .*refs\/heads\/main: .*the ref's old value/);
    repo.commit('docs: unanchored, as the merged policy allows', { 'docs/a.md': 'a\n' });
    const side = push(repo, ['feat/x']);
    expect(side.status, side.stderr).toBe(0);
  });
});

function sshKey(dir: string, name: string): string {
  const file = path.join(dir, name);
  const made = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', file], { encoding: 'utf8' });
  expect(made.status, made.stderr).toBe(0);
  return file;
}

describe('hestai receive: the allowed signers a push is judged by', () => {
  it('a branch that adds a signer in one push cannot have that signer\u2019s evidence accepted in the next', () => {
    const keys = tempDir('hestai-keys-');
    const [alice, mallory] = [sshKey(keys, 'alice'), sshKey(keys, 'mallory')];
    const line = (name: string, key: string) => `${name}@example.invalid ${fs.readFileSync(`${key}.pub`, 'utf8')}`;
    const repo = anchoredRepo('verify:\n  signatures: required\n');
    repo.git(['config', 'gpg.format', 'ssh']);
    repo.git(['config', 'user.signingkey', `${alice}.pub`]);
    repo.write('.hestai/allowed_signers', line('alice', alice));
    repo.git(['add', '.hestai/allowed_signers']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: alice signs evidence']);
    repo.git(['push', '-q', '--no-verify', 'origin', 'main']);
    expect(repo.hestai(['init', '--server', repo.remote]).status).toBe(0);
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    const token = repo.anchor();
    // Push 1, Alice's honest-looking work: it lists Mallory's key too.
    const trusted = repo.commitHooked('chore: trust mallory', {
      '.hestai/allowed_signers': line('alice', alice) + line('mallory', mallory),
    });
    expect(trusted.status, trusted.stderr).toBe(0);
    const first = push(repo, ['feat/x']);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/remote: .*the push changes \.hestai\/allowed_signers/);
    // Push 2: Mallory's key signs the evidence; the branch's own list would accept it.
    repo.hestai(['clock-out', '--session', token]);
    repo.git(['config', 'user.signingkey', `${mallory}.pub`]);
    repo.anchor();
    expect(repo.commitHooked('docs: mallory work', { 'docs/m.md': 'm\n' }).status).toBe(0);
    const second = push(repo, ['feat/x']);
    expect(second.status).not.toBe(0);
    expect(second.stderr).toMatch(/remote: .*signature: .*allowed_signers at the base does not list/);
  });
});

describe('hestai receive: the first push to an empty repository', () => {
  const emptyServer = (repo: AnchoredRepo) => {
    const empty = path.join(tempDir('hestai-empty-'), 'empty.git');
    repo.git(['init', '-q', '--bare', '--initial-branch=main', empty]);
    expect(repo.hestai(['init', '--server', empty]).status).toBe(0);
    return empty;
  };

  it('the default branch comes in unjudged and sets the policy; every other ref is judged by it', () => {
    const { repo } = served();
    repo.commit('docs: past the hooks', { 'docs/a.md': 'a\n' });
    const empty = emptyServer(repo);
    const refused = push(repo, ['main', 'feat/x', 'hestai/anchors'], `file://${empty}`);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/remote: .*refs\/heads\/feat\/x/);
    expect(refused.stderr).toMatch(/remote: .*anchor: .*no HestAI-Anchor trailer/);
    expect(remoteHas(empty, repo, 'refs/heads/main')).toBe('');
    repo.git(['reset', '-q', '--hard', 'HEAD~1']);
    const accepted = push(repo, ['main', 'feat/x', 'hestai/anchors'], `file://${empty}`);
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(accepted.stderr).toMatch(/remote: .*refs\/heads\/main: .*first push/);
    expect(accepted.stderr).toMatch(/remote: .*refs\/heads\/feat\/x: judged/);
  });

  it('a first push without the default branch is refused (fail closed), saying to push it first', () => {
    const { repo } = served();
    const empty = emptyServer(repo);
    const refused = push(repo, ['feat/x', 'hestai/anchors'], `file://${empty}`);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/remote: .*remedy: git push origin main/);
    expect(remoteHas(empty, repo, 'refs/heads/feat/x')).toBe('');
    expect(push(repo, ['main'], `file://${empty}`).status).toBe(0);
    const then = push(repo, ['feat/x', 'hestai/anchors'], `file://${empty}`);
    expect(then.status, then.stderr).toBe(0);
  });
});

describe('hestai receive: a push cannot make a repository look empty', () => {
  // A bare repository whose HEAD names main while its content sits on master (plain `git init --bare` and
  // gitolite often start so), its pre-receive installed by hand as docs/server.md shows.
  const danglingServer = (repo: AnchoredRepo) => {
    const srv = path.join(tempDir('hestai-dangling-'), 'srv.git');
    repo.git(['init', '-q', '--bare', '--initial-branch=main', srv]);
    repo.git(['push', '-q', srv, 'main:master']);
    const hook = path.join(srv, 'hooks', 'pre-receive');
    fs.writeFileSync(hook, `#!/bin/sh\nexec '${process.execPath}' '${CLI}' receive "$@"\n`, { mode: 0o755 });
    return srv;
  };

  it('with HEAD dangling, deleting its branches is refused, and no later push is taken for the first', () => {
    const { repo } = served();
    const srv = danglingServer(repo);
    repo.commit('feat(evil): untested and unanchored', { 'src/evil.js': 'e\n' });
    expect(push(repo, ['feat/x'], `file://${srv}`).status).not.toBe(0);
    const deleted = push(repo, [':master'], `file://${srv}`);
    expect(deleted.status).not.toBe(0);
    expect(deleted.stderr).toMatch(/remote: .*deletions: .*HEAD \(refs\/heads\/main\) names no branch/);
    expect(remoteHas(srv, repo, 'refs/heads/master')).not.toBe('');
    // The branch gone another way (the server's admin): a repository that held branches is never empty again.
    expect(repo.git(['--git-dir', srv, 'config', 'hestai.received']).stdout.trim()).toBe('true');
    repo.git(['--git-dir', srv, 'update-ref', '-d', 'refs/heads/master']);
    const evil = push(repo, ['feat/x:main'], `file://${srv}`);
    expect(evil.status).not.toBe(0);
    expect(evil.stderr).not.toMatch(/first push/);
    expect(remoteHas(srv, repo, 'refs/heads/main')).toBe('');
  });

  it('a tag pushed first into an empty repository does not block its default branch', () => {
    const { repo } = served();
    const empty = path.join(tempDir('hestai-empty-'), 'empty.git');
    repo.git(['init', '-q', '--bare', '--initial-branch=main', empty]);
    expect(repo.hestai(['init', '--server', empty]).status).toBe(0);
    repo.git(['tag', 'v0', 'main']);
    const tag = push(repo, ['v0'], `file://${empty}`);
    expect(tag.status, tag.stderr).toBe(0);
    const main = push(repo, ['main'], `file://${empty}`);
    expect(main.status, main.stderr).toBe(0);
    expect(main.stderr).toMatch(/remote: .*refs\/heads\/main: .*first push/);
  });
});
