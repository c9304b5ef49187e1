import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGitAsync } from '../../src/git/async.js';
import { runGit } from '../../src/git/exec.js';
import { streamGitLines } from '../../src/git/log-stream.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { restoreEnvAfterEach, withoutGit } from '../helpers/process-env.js';

// spawn fails with ENOENT both when git is not on PATH and when the working directory does not exist. Only the
// first is GIT_MISSING; a missing (or not a directory) working directory is named as such, with its path.
// Real git, a real directory that does not exist, a real file, and a real PATH without git.

restoreEnvAfterEach();

/** A directory that does not exist, a regular file, and a repository that does. */
function places() {
  const base = tempDir('hestai-cwd-');
  const file = path.join(base, 'a-file');
  fs.writeFileSync(file, 'not a directory\n');
  return { missing: path.join(base, 'does-not-exist'), file, repo: makeRepo().dir };
}

const sync = (cwd: string) => () => runGit(['status'], { cwd });
const caught = async (run: () => Promise<unknown>) =>
  run().then(
    () => null,
    (error: unknown) => error,
  );

describe('a missing working directory is not a missing git', () => {
  it('runGit names the directory that does not exist, not GIT_MISSING', () => {
    const { missing } = places();
    expect(sync(missing)).toThrow(expect.objectContaining({ code: 'CWD_MISSING' }));
    expect(sync(missing)).toThrow(`working directory ${missing} does not exist`);
  });

  it('runGit names a working directory that is a file', () => {
    const { file } = places();
    expect(sync(file)).toThrow(expect.objectContaining({ code: 'CWD_MISSING' }));
    expect(sync(file)).toThrow(`working directory ${file} is not a directory`);
  });

  it('runGit with a real directory and no git on PATH is GIT_MISSING', () => {
    const { repo } = places();
    expect(() => withoutGit(sync(repo))).toThrow(expect.objectContaining({ code: 'GIT_MISSING' }));
    expect(fs.statSync(repo).isDirectory()).toBe(true);
  });

  it('runGitAsync names the directory that does not exist, or that is a file, not GIT_MISSING', async () => {
    const { missing, file } = places();
    const gone = await caught(() => runGitAsync(['status'], { cwd: missing }));
    expect(gone).toMatchObject({ code: 'CWD_MISSING', message: `working directory ${missing} does not exist` });
    const notDir = await caught(() => runGitAsync(['status'], { cwd: file }));
    expect(notDir).toMatchObject({ code: 'CWD_MISSING', message: `working directory ${file} is not a directory` });
  });

  it('runGitAsync with a real directory and no git on PATH is GIT_MISSING', async () => {
    const { repo } = places();
    const pending = withoutGit(() => caught(() => runGitAsync(['status'], { cwd: repo })));
    expect(await pending).toMatchObject({ code: 'GIT_MISSING', message: 'git was not found on PATH' });
  });

  it('a streamed git command names the directory that does not exist, and says GIT_MISSING without git', async () => {
    const { missing, repo } = places();
    const read = (cwd: string) => async () => {
      for await (const line of streamGitLines(cwd, ['log', '--format=%H'])) void line;
    };
    expect(await caught(read(missing))).toMatchObject({ code: 'CWD_MISSING' });
    expect(await withoutGit(() => caught(read(repo)))).toMatchObject({ code: 'GIT_MISSING' });
  });
});
