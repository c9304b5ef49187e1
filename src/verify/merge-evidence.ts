import { catFileBatch } from '../git/anchors.js';
import type { Remerge } from '../git/log-stream.js';
import { automaticMerge, differingPaths, scratchMergeCommit } from '../git/merge.js';
import { mergeBase } from '../git/repo.js';
import { inventedLines, type MergeEvidence } from './merge-rule.js';

/**
 * What each merge of a batch adds beyond git's automatic merge of its parents. A two-parent merge of related
 * histories is read from git's remerge of it ({@link remergeDiffs}, one `git log` per batch): clean, or the
 * paths it changes outside its conflicts and the conflicted files it resolved, whose texts (the merge's and
 * each parent's) come from ONE `git cat-file --batch` for the whole batch. Only an octopus, a merge whose
 * parents may be unrelated, or one whose remerge holds a conflict the reader does not know is re-computed on
 * its own ({@link mergeEvidence}).
 */
export function batchMergeEvidence(
  root: string,
  merges: readonly { sha: string; parents: readonly string[] }[],
  remerges: ReadonlyMap<string, Remerge>,
  unrelated: 'error' | 'allow',
  related: boolean,
): Map<string, MergeEvidence> {
  const evidence = new Map<string, MergeEvidence>();
  const resolved: {
    sha: string;
    parents: readonly string[];
    added: string[];
    conflicted: string[];
    paths: string[];
  }[] = [];
  for (const m of merges) {
    const r = remerges.get(m.sha);
    if (r?.clean) evidence.set(m.sha, { kind: 'recomputed', parents: 2, added: [], conflicted: [], invented: [] });
    else if (r?.exact && related && m.parents.length === 2) {
      const conflicted = new Set(r.conflicted);
      resolved.push({
        sha: m.sha,
        parents: m.parents,
        added: r.differing.filter((p) => !conflicted.has(p)),
        conflicted: r.conflicted,
        paths: r.differing.filter((p) => conflicted.has(p)),
      });
    } else evidence.set(m.sha, mergeEvidence(root, m.sha, m.parents, unrelated, related));
  }
  const specs = resolved.flatMap((m) => m.paths.flatMap((p) => [m.sha, ...m.parents].map((c) => `${c}:${p}`)));
  const blobs = specs.length > 0 ? catFileBatch(root, specs, { content: true }) : new Map<string, never>();
  for (const m of resolved)
    evidence.set(m.sha, {
      kind: 'recomputed',
      parents: 2,
      added: m.added,
      conflicted: m.conflicted,
      invented: resolvedInvented(blobs, m.sha, m.parents, m.paths),
    });
  return evidence;
}

/** The resolved files of a merge holding a line none of its parents' versions has (texts read by cat-file). */
function resolvedInvented(
  blobs: ReadonlyMap<string, { found: boolean; content?: Buffer }>,
  sha: string,
  parents: readonly string[],
  paths: readonly string[],
): string[] {
  const text = (spec: string) => {
    const b = blobs.get(spec);
    return b && b.found && b.content ? b.content.toString('utf8') : null;
  };
  return inventedLines(
    paths.map((p) => ({ path: p, merged: text(`${sha}:${p}`), sides: parents.map((c) => text(`${c}:${p}`)) })),
  );
}

/**
 * What a real merge (2+ parents) adds beyond git's automatic merge of its parents, one parent at a time
 * (an octopus through scratch commits); a parent with no history in common with the first is refused
 * unless `verify.unrelated_histories: allow`. Conflicted files are read (one `git cat-file --batch`) to
 * find lines that none of the parents has.
 */
function mergeEvidence(
  root: string,
  sha: string,
  parents: readonly string[],
  unrelated: 'error' | 'allow',
  related: boolean,
): MergeEvidence {
  const first = parents[0]!;
  for (const p of related ? [] : parents.slice(1)) {
    if (mergeBase(root, first, p) === null) {
      if (unrelated === 'error') return { kind: 'unrelated', parent: p };
    }
  }
  const allowUnrelated = unrelated === 'allow';
  let current = first;
  let auto: { tree: string; conflicted: string[] } | null = null;
  for (let k = 1; k < parents.length; k++) {
    auto = automaticMerge(root, current, parents[k]!, { allowUnrelated });
    if (auto === null) return { kind: 'unknown', reason: 'git merge-tree --write-tree (git 2.38 or newer) failed' };
    if (parents.length > 2 && auto.conflicted.length > 0) return { kind: 'octopus', parents: parents.length };
    if (k < parents.length - 1) current = scratchMergeCommit(root, auto.tree, [current, parents[k]!]);
  }
  const conflicted = new Set(auto!.conflicted);
  const differing = differingPaths(root, auto!.tree, `${sha}^{tree}`);
  const added = differing.filter((p) => !conflicted.has(p));
  const resolved = differing.filter((p) => conflicted.has(p));
  let invented: string[] = [];
  if (resolved.length > 0) {
    const blobs = catFileBatch(
      root,
      resolved.flatMap((p) => [sha, ...parents].map((c) => `${c}:${p}`)),
      { content: true },
    );
    invented = resolvedInvented(blobs, sha, parents, resolved);
  }
  return { kind: 'recomputed', parents: parents.length, added, conflicted: auto!.conflicted, invented };
}
