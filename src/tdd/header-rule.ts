import type { CommitFacts } from './commit.js';
import type { Verdict } from './verdict.js';

/** Pure: the header must be a Conventional Commit (merges, reverts and fixup!/squash! are not judged). */
export function checkHeader(commit: CommitFacts): Verdict {
  if (commit.kind !== 'normal') return { rule: 'header', status: 'skip', message: `${commit.kind} commit: header not judged` };
  if (commit.conventional) return { rule: 'header', status: 'pass', message: `type ${commit.conventional.type}` };
  return {
    rule: 'header',
    status: 'fail',
    message: `"${commit.header}" is not a Conventional Commit header; write "type(scope): subject", e.g. "test(cli): failing test for --json"`,
  };
}
