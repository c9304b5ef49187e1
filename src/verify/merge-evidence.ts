import { catFileBatch } from '../git/anchors.js';
import type { Remerge } from '../git/log-stream.js';
import { automaticMerge, differingPaths, scratchMergeCommit } from '../git/merge.js';
import { mergeBase } from '../git/repo.js';
import type { MergeDifference, MergeEvidence } from './merge-rule.js';
import { oldSide, textLines, unresolvedDifference } from './resolution.js';

type Blobs = ReadonlyMap<string, { found: boolean; content?: Buffer }>;

/**
 * What each merge of a batch adds beyond git's automatic merge of its parents. A two-parent merge of related
 * histories is read from git's remerge of it ({@link remergeDiffs}, one `git log` per batch): clean, or the
 * paths it changes outside its conflicts and the conflicted files it resolved, whose texts (the merge's and
 * each parent's) come from ONE `git cat-file --batch` for the whole batch; git's re-merge of each is rebuilt
 * from the merge's text and the remerge hunks. Only an octopus, a merge whose parents may be unrelated, or
 * one whose remerge holds a conflict the reader does not know is re-computed on its own ({@link mergeEvidence}).
 */
export function batchMergeEvidence(
  root: string,
  merges: readonly { sha: string; parents: readonly string[] }[],
  remerges: ReadonlyMap<string, Remerge>,
  unrelated: 'error' | 'allow',
  related: boolean,
): Map<string, MergeEvidence> {
  const evidence = new Map<string, MergeEvidence>();
  const resolved: { sha: string; parents: readonly string[]; remerge: Remerge; paths: string[] }[] = [];
  for (const m of merges) {
    const r = remerges.get(m.sha);
    if (r?.clean) evidence.set(m.sha, { kind: 'recomputed', parents: 2, conflicted: [], differences: [] });
    else if (r?.exact && related && m.parents.length === 2) {
      const conflicted = new Set(r.conflicted);
      resolved.push({
        sha: m.sha,
        parents: m.parents,
        remerge: r,
        paths: r.differing.filter((p) => conflicted.has(p)),
      });
    } else evidence.set(m.sha, mergeEvidence(root, m.sha, m.parents, unrelated, related));
  }
  const specs = resolved.flatMap((m) => m.paths.flatMap((p) => [m.sha, ...m.parents].map((c) => `${c}:${p}`)));
  const blobs: Blobs = specs.length > 0 ? catFileBatch(root, specs, { content: true }) : new Map();
  for (const { sha, parents, remerge, paths } of resolved) {
    const conflicted = new Set(remerge.conflicted);
    const outside = remerge.differing
      .filter((p) => !conflicted.has(p))
      .map((p) => ({ path: p, detail: remerge.first.get(p) ?? null }));
    const inside = unresolved(blobs, sha, parents, paths, (p, merged) => {
      const hunks = remerge.hunks.get(p);
      return hunks ? oldSide(textLines(merged ?? ''), hunks) : null;
    });
    evidence.set(sha, {
      kind: 'recomputed',
      parents: 2,
      conflicted: remerge.conflicted,
      differences: [...outside, ...inside],
    });
  }
  return evidence;
}

/** The text of `<commit>:<path>` read by cat-file, or null (absent, or not read). */
function blobText(blobs: Blobs, spec: string): string | null {
  const b = blobs.get(spec);
  return b && b.found && b.content ? b.content.toString('utf8') : null;
}

/** The resolved files of a merge that are not git's re-merge with only its conflict hunks resolved. */
function unresolved(
  blobs: Blobs,
  sha: string,
  parents: readonly string[],
  paths: readonly string[],
  remerged: (path: string, merged: string | null) => string[] | null,
): MergeDifference[] {
  return paths.flatMap((p) => {
    const merged = blobText(blobs, `${sha}:${p}`);
    const sides = parents.map((c) => blobText(blobs, `${c}:${p}`));
    const detail = unresolvedDifference(remerged(p, merged), merged, sides);
    return detail === null ? [] : [{ path: p, detail }];
  });
}

/**
 * What a real merge (2+ parents) adds beyond git's automatic merge of its parents, one parent at a time
 * (an octopus through scratch commits); a parent with no history in common with the first is refused
 * unless `verify.unrelated_histories: allow`. Conflicted files, and git's re-merge of each (with diff3
 * markers, in the tree `git merge-tree` wrote), are read with one `git cat-file --batch`.
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
  const outside = differing.filter((p) => !conflicted.has(p)).map((p) => ({ path: p, detail: null }));
  const resolved = differing.filter((p) => conflicted.has(p));
  let inside: MergeDifference[] = [];
  if (resolved.length > 0) {
    const blobs = catFileBatch(
      root,
      resolved.flatMap((p) => [sha, ...parents, auto!.tree].map((c) => `${c}:${p}`)),
      { content: true },
    );
    inside = unresolved(blobs, sha, parents, resolved, (p) => {
      const text = blobText(blobs, `${auto!.tree}:${p}`);
      return text === null ? null : textLines(text);
    });
  }
  return {
    kind: 'recomputed',
    parents: parents.length,
    conflicted: auto!.conflicted,
    differences: [...outside, ...inside],
  };
}
