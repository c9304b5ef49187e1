import type { WorkspaceConfig } from '../config/schema.js';
import { resolveCommits } from '../git/history.js';
import type { LogCommit } from '../git/parse.js';
import { commitFacts, revertedSha, type CommitFacts } from '../tdd/commit.js';
import { ignoreRules } from '../tdd/ignore.js';
import { testFileMatcher } from '../tdd/test-files.js';

/**
 * The facts of logged commits, shared by the commit-msg hook and `hestai verify` so both judge alike:
 * test files per `tdd.test_globs`, ignored headers per `commit.ignore`, and real reverts (their
 * `This reverts commit <sha>` lines resolved with one `git cat-file --batch-check`).
 */
export function logFacts(
  root: string,
  commits: readonly LogCommit[],
  config: Pick<WorkspaceConfig, 'tdd' | 'commit'>,
): CommitFacts[] {
  const isTest = testFileMatcher(config.tdd.test_globs);
  const ignore = ignoreRules(config.commit.ignore, config.commit.default_ignores);
  const named = commits.map((c) => revertedSha(c.message));
  const wanted = named.filter((s): s is string => s !== null);
  const resolved = wanted.length === 0 ? new Map<string, string | null>() : resolveCommits(root, wanted);
  return commits.map((c, i) =>
    commitFacts(
      {
        sha: c.sha,
        message: c.message,
        files: c.files,
        ...(c.changes ? { changes: c.changes } : {}),
        parents: c.parents,
        reverts: named[i] ? (resolved.get(named[i]!) ?? null) : null,
      },
      isTest,
      { ignore },
    ),
  );
}
