/**
 * Which base a GitHub Actions event names (pure): the range `hestai verify` judges starts outside the
 * branch under test. `pull_request`/`pull_request_target`: the pull request's base sha; `merge_group`: the
 * queue's base sha; `push`: `before`, the branch's previous tip, or for a new branch (`before` all zeros)
 * the default branch's tip as fetched (`origin/<repository.default_branch>`). Other events name no base.
 */
export interface EventBase {
  /** A revision: a sha, or `refs/remotes/origin/<default>` for a new branch. */
  rev: string;
  /** Where it came from, for messages and the report: `pull_request base.sha`, `push before`, ... */
  source: string;
}

const SHA = /^[0-9a-f]{40}$/;
const ZERO = /^0{40}$/;

function at(value: unknown, ...keys: string[]): unknown {
  let v = value;
  for (const k of keys) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/** The base the event names, an error message when it names one badly, or null when it names none. */
export function baseFromEvent(name: string, payload: unknown): EventBase | { error: string } | null {
  if (name === 'pull_request' || name === 'pull_request_target') {
    const sha = at(payload, 'pull_request', 'base', 'sha');
    return typeof sha === 'string' && SHA.test(sha)
      ? { rev: sha, source: `${name} base.sha` }
      : { error: `the ${name} event has no pull_request.base.sha` };
  }
  if (name === 'merge_group') {
    const sha = at(payload, 'merge_group', 'base_sha');
    return typeof sha === 'string' && SHA.test(sha)
      ? { rev: sha, source: 'merge_group base_sha' }
      : { error: 'the merge_group event has no merge_group.base_sha' };
  }
  if (name === 'push') {
    const before = at(payload, 'before');
    if (typeof before !== 'string' || !SHA.test(before)) return { error: 'the push event has no before sha' };
    if (!ZERO.test(before)) return { rev: before, source: 'push before' };
    const branch = at(payload, 'repository', 'default_branch');
    return typeof branch === 'string' && branch !== ''
      ? { rev: `refs/remotes/origin/${branch}`, source: `push of a new branch: origin/${branch}` }
      : { error: 'the push event creates a branch and names no repository.default_branch' };
  }
  return null;
}
