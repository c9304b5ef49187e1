import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { makeSession } from '../helpers/session-fixture.js';

// The commit-msg hook asks git for core.commentChar / commit.cleanup (one `git config`, issue 27: git answers
// from every source it follows, no cache of ours). Real commits through the installed hooks, where the message
// cleanup decides the header: with commentChar '#' and cleanup strip, "# note\nchore: x" is a chore commit;
// with any other commentChar or cleanup the header is "# note" and the hook must block, exactly as git will
// commit it.

function setup() {
  const repo = makeRepo();
  expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
  repo.commit('chore: adopt hestai');
  makeSession(repo.dir);
  repo.git(['config', '--global', 'commit.cleanup', 'strip']);
  let n = 0;
  /** A real `git commit -m` through the installed hooks (`args` before `commit`, e.g. `-c k=v`). */
  const commit = (message: string, options: { args?: string[]; env?: NodeJS.ProcessEnv; edit?: boolean } = {}) => {
    repo.write(`notes/${n++}.md`, `${n}\n`);
    repo.git(['add', '-A']);
    return repo.git([...(options.args ?? []), 'commit', '-q', ...(options.edit ? ['-e'] : []), '-m', message], {
      allowFail: true,
      env: { ...(options.edit ? { GIT_EDITOR: 'true' } : {}), ...options.env },
    });
  };
  const header = () => repo.git(['log', '-1', '--format=%s']).stdout.trim();
  return { repo, commit, header };
}

function expectBlocked(
  result: { status: number; stderr: string },
  repo: TempRepo,
  headerBefore: string,
  kept = '# note',
) {
  expect(result.status, result.stderr).toBe(1);
  expect(result.stderr).toContain(`"${kept}" is not a Conventional Commit header`);
  expect(repo.git(['log', '-1', '--format=%s']).stdout.trim()).toBe(headerBefore);
}

describe('commit-msg follows core.commentChar and commit.cleanup through real commits', () => {
  it('follows the global and the repository config, and a change to either', () => {
    const { repo, commit, header } = setup();
    const first = commit('# note\nchore: one');
    expect(first.status, first.stderr).toBe(0);
    expect(header()).toBe('chore: one');
    const second = commit('# note\nchore: two');
    expect(second.status, second.stderr).toBe(0);
    expect(header()).toBe('chore: two');

    // The global config changes: '#' is no longer a comment, git keeps the line, the hook must see it.
    repo.git(['config', '--global', 'core.commentChar', ';']);
    expectBlocked(commit('# note\nchore: three'), repo, 'chore: two');
    const semi = commit('; note\nchore: three');
    expect(semi.status, semi.stderr).toBe(0);
    expect(header()).toBe('chore: three');
    expect(commit('; note\nchore: four').status).toBe(0);
    expect(commit('; note\nchore: five').status).toBe(0);

    // The repository's config changes: verbatim keeps every line.
    repo.git(['config', 'commit.cleanup', 'verbatim']);
    expectBlocked(commit('; note\nchore: six'), repo, 'chore: five', '; note');
    repo.git(['config', '--global', '--unset', 'core.commentChar']);
    repo.git(['config', 'commit.cleanup', 'strip']);
    expect(commit('# note\nchore: seven').status).toBe(0);
    // scissors (with an editor) strips nothing above the scissors line: the "# note" line stays.
    repo.git(['config', 'commit.cleanup', 'scissors']);
    expectBlocked(commit('# note\nchore: eight', { edit: true }), repo, 'chore: seven');
    repo.git(['config', 'commit.cleanup', 'strip']);
    const edited = commit('# note\nchore: eight', { edit: true });
    expect(edited.status, edited.stderr).toBe(0);
    expect(header()).toBe('chore: eight');
  });

  it('honours git -c, and includeIf onbranch (the answer changes with the branch, no config file changes)', () => {
    const { repo, commit, header } = setup();
    expect(commit('# note\nchore: one').status).toBe(0);
    expect(commit('# note\nchore: two').status).toBe(0);
    expectBlocked(commit('# note\nchore: three', { args: ['-c', 'core.commentChar=;'] }), repo, 'chore: two');
    expectBlocked(commit('# note\nchore: three', { args: ['-c', 'commit.cleanup=verbatim'] }), repo, 'chore: two');
    expect(commit('# note\nchore: three').status).toBe(0);

    // includeIf onbranch: the answer changes with the branch, no config file changes.
    const extra = path.join(repo.home, 'other-branch.gitconfig');
    fs.writeFileSync(extra, '[core]\n\tcommentChar = ";"\n');
    fs.appendFileSync(repo.env['GIT_CONFIG_GLOBAL']!, `[includeIf "onbranch:other"]\n\tpath = ${extra}\n`);
    expect(commit('# note\nchore: four').status).toBe(0);
    expect(commit('# note\nchore: five').status).toBe(0);
    repo.git(['switch', '-q', '-c', 'other']);
    expectBlocked(commit('# note\nchore: six'), repo, 'chore: five');
    expect(commit('; note\nchore: six').status).toBe(0);
    expect(header()).toBe('chore: six');
  });
});

describe('commit-msg follows per-worktree config (extensions.worktreeConfig), as git does', () => {
  it('a core.commentChar set with git config --worktree in a linked worktree holds there, not in the main one', () => {
    const { repo, commit, header } = setup();
    const linked = path.join(path.dirname(repo.dir), 'linked');
    repo.git(['worktree', 'add', '-q', '-b', 'feat/linked', linked]);
    makeSession(linked);
    repo.git(['config', 'extensions.worktreeConfig', 'true']);
    repo.git(['config', '--worktree', 'core.commentChar', ';'], { cwd: linked });
    expect(repo.git(['config', 'core.commentChar'], { cwd: linked }).stdout.trim()).toBe(';');
    expect(repo.git(['config', 'core.commentChar'], { allowFail: true }).status).toBe(1);
    // Main worktree: '#' is the comment character, "# note" is dropped.
    expect(commit('# note\nchore: main').status).toBe(0);
    expect(header()).toBe('chore: main');
    // Linked worktree: ';' is, so "# note" is kept as the header and blocked; "; note" is dropped.
    const inLinked = (message: string) => {
      fs.writeFileSync(path.join(linked, `${message.length}-${Date.now()}.md`), 'x\n');
      repo.git(['add', '-A'], { cwd: linked });
      return repo.git(['commit', '-q', '-m', message], { cwd: linked, allowFail: true });
    };
    const blocked = inLinked('# note\nchore: linked');
    expect(blocked.status).toBe(1);
    expect(blocked.stderr).toContain('"# note" is not a Conventional Commit header');
    const passed = inLinked('; note\nchore: linked');
    expect(passed.status, passed.stderr).toBe(0);
    expect(repo.git(['log', '-1', '--format=%s'], { cwd: linked }).stdout.trim()).toBe('chore: linked');
  });
});

describe('commit-msg follows --cleanup=<mode> given on git commit’s command line (read from git’s argv, Linux /proc)', () => {
  it('judges the message git stores under the command line’s --cleanup, not the config’s', () => {
    const { repo, header } = setup();
    // commit.cleanup is strip (setup); --cleanup=whitespace keeps "#42 docs: typo" as the header: blocked.
    const before = header();
    repo.write('notes/x.md', 'x\n');
    repo.git(['add', '-A']);
    const whitespace = repo.git(['commit', '-q', '--cleanup=whitespace', '-m', '#42 docs: typo'], { allowFail: true });
    expect(whitespace.status, whitespace.stderr).toBe(1);
    expect(whitespace.stderr).toContain('"#42 docs: typo" is not a Conventional Commit header');
    expect(header()).toBe(before);
    // --cleanup=strip drops "# note": stored as "docs: x", so it passes.
    repo.git(['config', '--global', 'commit.cleanup', 'whitespace']);
    const strip = repo.git(['commit', '-q', '--cleanup=strip', '-m', '# note', '-m', 'docs: x'], { allowFail: true });
    expect(strip.status, strip.stderr).toBe(0);
    expect(header()).toBe('docs: x');
  });
});
