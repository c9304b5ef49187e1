import { GitError } from '../git/exec.js';
import { logFiles } from '../git/log-stream.js';
import type { LogCommit } from '../git/parse.js';
import type { CommitFacts } from '../tdd/commit.js';
import { commitTestsNote, type TddPolicy, type TddVerdict } from '../tdd/rule.js';
import { lastTrailer } from '../tdd/trailers.js';
import { logFacts } from './log-facts.js';
import type { VerifyRun } from './run.js';
import { bypassLine } from './trailer-rules.js';

/**
 * The files of a batch's deferred commits (readBatch) at `at`, read into `batch` (and, with `facts`, their
 * facts into `facts`: test-first needs them), or for a commit test-first fails or warns about, whose report
 * names them (a `github` annotation's file).
 */
async function readDeferred(
  run: VerifyRun,
  batch: LogCommit[],
  facts: CommitFacts[] | null,
  deferred: Set<string>,
  at: readonly number[],
): Promise<void> {
  let files: Awaited<ReturnType<typeof logFiles>>;
  try {
    files = await logFiles(
      run.root,
      at.map((i) => batch[i]!.sha),
    );
  } catch (error) {
    throw error instanceof GitError ? run.gitFailed(error.stderr.trim()) : error;
  }
  const withFiles = at.map((i) => {
    const got = files.get(batch[i]!.sha);
    if (got === undefined)
      throw run.gitFailed(`git log --no-walk returned ${files.size} of the ${at.length} commits asked for`);
    deferred.delete(batch[i]!.sha);
    return (batch[i] = { ...batch[i]!, files: got.files, changes: got.changes });
  });
  if (facts === null) return;
  const read = logFacts(run.root, withFiles, run.config, { earnedReverts: true });
  at.forEach((i, k) => (facts[i] = read[k]!));
}

/**
 * Test-first on a batch, commit by commit (a bypassed commit is not judged): a deferred commit's files are
 * read, with those of the deferred commits after it, once the judge asks for them; then those of the deferred
 * commits it fails or warns about. `batch` and `facts` take the files read.
 */
export async function judgeTestFirst(
  run: VerifyRun,
  batch: LogCommit[],
  facts: CommitFacts[],
  deferred: Set<string>,
  childCount: ReadonlyMap<string, number>,
): Promise<Map<string, TddVerdict>> {
  const tdd = new Map<string, TddVerdict>();
  for (let i = 0; i < facts.length; i++) {
    if (deferred.has(facts[i]!.sha) && run.judge.needsPaths(facts[i]!))
      await readDeferred(
        run,
        batch,
        facts,
        deferred,
        batch.flatMap((c, k) => (k >= i && deferred.has(c.sha) ? [k] : [])),
      );
    const f = facts[i]!;
    const bypassed = lastTrailer(f.trailers, 'HestAI-Bypass') !== null || bypassLine(batch[i]!.message) !== null;
    const n = childCount.get(f.sha);
    if (!bypassed) tdd.set(f.sha, run.judge(f, n === undefined ? undefined : { children: n }));
  }
  const reported = batch.flatMap((c, i) => {
    const status = tdd.get(c.sha)?.status;
    return deferred.has(c.sha) && (status === 'fail' || status === 'warn') ? [i] : [];
  });
  if (reported.length > 0) {
    const unread = reported.map((i) => commitTestsNote(facts[i]!, run.config.tdd.policy));
    await readDeferred(run, batch, facts, deferred, reported);
    reported.forEach((i, k) => namedTests(tdd, facts[i]!, unread[k]!, run.config.tdd.policy));
  }
  return tdd;
}

/** A failure judged before the commit's files were read names its test files once they are. */
function namedTests(tdd: Map<string, TddVerdict>, f: CommitFacts, unread: string, policy: TddPolicy): void {
  const verdict = tdd.get(f.sha);
  if (verdict?.status !== 'fail') return;
  tdd.set(f.sha, { ...verdict, message: verdict.message.replace(unread, commitTestsNote(f, policy)) });
}
