import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir, type TempRepo } from '../helpers/git-repo.js';
import { makeSession } from '../helpers/session-fixture.js';

// Issue 15 (Speed): the commit-msg hook answers core.commentChar / commit.cleanup from a cache while no config
// file changed, and then starts no git process (it does not even load node:child_process). Real commits through
// the installed hooks, where the message cleanup decides the header: with commentChar '#' and cleanup strip,
// "# note\nchore: x" is a chore commit; with any other commentChar or cleanup the header is "# note" and the
// hook must block, exactly as git will commit it.

/** Past the cache's racy margin (2 s): config files written before this may be cached from now on. */
const quiet = () => new Promise((resolve) => setTimeout(resolve, 2100));

/** A preload in every hook process: records, per process, its arguments and whether it loaded node:child_process. */
function probe(): { env: NodeJS.ProcessEnv; runs: () => Array<{ hook: string; childProcess: boolean }> } {
  const dir = tempDir('hestai-probe-');
  const out = path.join(dir, 'runs.jsonl');
  const script = path.join(dir, 'probe.cjs');
  fs.writeFileSync(
    script,
    `process.on('exit', () => require('fs').appendFileSync(${JSON.stringify(out)}, JSON.stringify({ hook: require('path').basename(process.argv[1] || ''), childProcess: process.moduleLoadList.includes('NativeModule child_process') }) + '\\n'));\n`,
  );
  return {
    env: { NODE_OPTIONS: `--require ${script}` },
    runs: () => {
      const text = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
      fs.rmSync(out, { force: true });
      return text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { hook: string; childProcess: boolean });
    },
  };
}

function setup() {
  const repo = makeRepo();
  expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
  repo.commit('chore: adopt hestai');
  makeSession(repo.dir);
  repo.git(['config', '--global', 'commit.cleanup', 'strip']);
  const p = probe();
  let n = 0;
  /** A real `git commit -m` through the installed hooks (`args` before `commit`, e.g. `-c k=v`). */
  const commit = (message: string, options: { args?: string[]; env?: NodeJS.ProcessEnv; edit?: boolean } = {}) => {
    repo.write(`notes/${n++}.md`, `${n}\n`);
    repo.git(['add', '-A']);
    return repo.git([...(options.args ?? []), 'commit', '-q', ...(options.edit ? ['-e'] : []), '-m', message], {
      allowFail: true,
      env: { ...p.env, ...(options.edit ? { GIT_EDITOR: 'true' } : {}), ...options.env },
    });
  };
  const header = () => repo.git(['log', '-1', '--format=%s']).stdout.trim();
  return { repo, commit, header, runs: p.runs };
}

const commitMsgRuns = (runs: Array<{ hook: string; childProcess: boolean }>) =>
  runs.filter((r) => r.hook === 'commit-msg');

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
  it('caches the config (no git process, no node:child_process) and follows a changed global or repository config', async () => {
    const { repo, commit, header, runs } = setup();
    await quiet();
    const first = commit('# note\nchore: one');
    expect(first.status, first.stderr).toBe(0);
    expect(header()).toBe('chore: one');
    runs();
    const second = commit('# note\nchore: two');
    expect(second.status, second.stderr).toBe(0);
    expect(header()).toBe('chore: two');
    const [cached] = commitMsgRuns(runs());
    expect(cached).toEqual({ hook: 'commit-msg', childProcess: false });

    // The global config changes: '#' is no longer a comment, git keeps the line, the hook must see it.
    repo.git(['config', '--global', 'core.commentChar', ';']);
    expectBlocked(commit('# note\nchore: three'), repo, 'chore: two');
    const semi = commit('; note\nchore: three');
    expect(semi.status, semi.stderr).toBe(0);
    expect(header()).toBe('chore: three');
    await quiet();
    expect(commit('; note\nchore: four').status).toBe(0);
    runs();
    expect(commit('; note\nchore: five').status).toBe(0);
    expect(commitMsgRuns(runs())).toEqual([{ hook: 'commit-msg', childProcess: false }]);

    // The repository's config changes: verbatim keeps every line.
    repo.git(['config', 'commit.cleanup', 'verbatim']);
    expectBlocked(commit('; note\nchore: six'), repo, 'chore: five', '; note');
    repo.git(['config', '--global', '--unset', 'core.commentChar']);
    repo.git(['config', 'commit.cleanup', 'strip']);
    await quiet();
    expect(commit('# note\nchore: seven').status).toBe(0);
    // scissors (with an editor) strips nothing above the scissors line: the "# note" line stays.
    repo.git(['config', 'commit.cleanup', 'scissors']);
    expectBlocked(commit('# note\nchore: eight', { edit: true }), repo, 'chore: seven');
    repo.git(['config', 'commit.cleanup', 'strip']);
    const edited = commit('# note\nchore: eight', { edit: true });
    expect(edited.status, edited.stderr).toBe(0);
    expect(header()).toBe('chore: eight');
  });

  it('honours git -c over a cached config, and never caches a configuration with includeIf', async () => {
    const { repo, commit, header, runs } = setup();
    await quiet();
    expect(commit('# note\nchore: one').status).toBe(0);
    expect(commit('# note\nchore: two').status).toBe(0);
    expectBlocked(commit('# note\nchore: three', { args: ['-c', 'core.commentChar=;'] }), repo, 'chore: two');
    expectBlocked(commit('# note\nchore: three', { args: ['-c', 'commit.cleanup=verbatim'] }), repo, 'chore: two');
    expect(commit('# note\nchore: three').status).toBe(0);

    // includeIf onbranch: the answer changes with the branch, no config file changes.
    const extra = path.join(repo.home, 'other-branch.gitconfig');
    fs.writeFileSync(extra, '[core]\n\tcommentChar = ";"\n');
    fs.appendFileSync(repo.env['GIT_CONFIG_GLOBAL']!, `[includeIf "onbranch:other"]\n\tpath = ${extra}\n`);
    await quiet();
    expect(commit('# note\nchore: four').status).toBe(0);
    runs();
    expect(commit('# note\nchore: five').status).toBe(0);
    expect(commitMsgRuns(runs())).toEqual([{ hook: 'commit-msg', childProcess: true }]);
    repo.git(['switch', '-q', '-c', 'other']);
    expectBlocked(commit('# note\nchore: six'), repo, 'chore: five');
    expect(commit('; note\nchore: six').status).toBe(0);
    expect(header()).toBe('chore: six');
  });
});
