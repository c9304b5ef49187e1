import { describe, expect, it } from 'vitest';
import { verifyRange, verifyStream, type CommitReport, type VerifyStart } from '../../src/verify/index.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';

/**
 * `hestai verify` streams (issue 27): the range is read and judged in batches and each commit's report is
 * handed on as soon as it is final. Whatever the batch size, every verdict is the one the whole range gets.
 */

const CONFIG = 'verify:\n  trailers: off\n  anchors: off\n  bypass: warn\n';

/** Test/feat pairs, a branch merged back, a real revert of a test and its revert, a bypass and a failing feat. */
function mixedHistory(): { repo: TempRepo; root: string } {
  const repo = makeRepo({ initialCommit: false });
  const root = repo.commit('chore: config', { '.hestai_workspace.yaml': CONFIG });
  repo.commit('test(cli): a flag', { 'test/cli.test.ts': '1' });
  repo.commit('feat(cli): a flag', { 'src/cli.ts': '1' });
  repo.git(['checkout', '-q', '-b', 'topic']);
  repo.commit('test(git): a reader', { 'test/git.test.ts': '1' });
  repo.commit('feat(git): a reader', { 'src/git.ts': '1' });
  repo.git(['checkout', '-q', 'main']);
  repo.commit('docs: the flag', { 'docs/cli.md': '1' });
  repo.git(['merge', '-q', '--no-ff', '--no-edit', 'topic']);
  const test = repo.commit('test(state): a store', { 'test/state.test.ts': '1' });
  repo.git(['revert', '--no-edit', test]);
  const revert = repo.git(['rev-parse', 'HEAD']).stdout.trim();
  repo.git(['revert', '--no-edit', revert]);
  repo.commit('feat(state): a store', { 'src/state.ts': '1' });
  repo.commit('feat(mcp): a tool\n\nHestAI-Bypass: the demo needs it', { 'src/mcp.ts': '1' });
  repo.commit('feat(hooks): no test before it', { 'src/hooks.ts': '1' });
  repo.commit('fix(cli): an edge', { 'src/cli.ts': '2' });
  return { repo, root };
}

describe('verify streams its range', () => {
  it('gives every commit the same verdicts whatever the batch size, in the same order', async () => {
    const { repo, root } = mixedHistory();
    const input = { working_dir: repo.dir, from: root, to: 'HEAD', env: {} };
    const whole = await verifyRange(input, { batch: 1_000 });
    expect(whole.commits.length).toBe(Number(repo.git(['rev-list', '--count', `${root}..HEAD`]).stdout.trim()));
    expect(whole.ok).toBe(false);
    const failing = whole.commits.filter((c) => c.verdicts.some((v) => v.status === 'fail')).map((c) => c.header);
    expect(failing).toEqual(['feat(hooks): no test before it']);
    for (const batch of [1, 2, 3, 5]) {
      const judged = await verifyRange(input, { batch });
      expect(judged).toEqual(whole);
    }
  });

  it('gives the same verdicts when it reads changed files only where a verdict depends on them', async () => {
    const { repo, root } = mixedHistory();
    const input = { working_dir: repo.dir, from: root, to: 'HEAD', env: {} };
    const all = await verifyRange(input, {});
    const judged = await verifyRange({ ...input, files: 'judged' }, { batch: 3 });
    const verdicts = (r: typeof all) => r.commits.map((c) => ({ sha: c.sha, header: c.header, verdicts: c.verdicts }));
    expect(verdicts(judged)).toEqual(verdicts(all));
    expect({ ...judged, commits: [] }).toEqual({ ...all, commits: [] });
    // A docs commit's files are not read; a test commit's are. A feat's only when test-first asks for them (an
    // unpaired test commit of another scope) or fails it (the report names them): not for the feat paired
    // with a test commit of its own scope.
    const files = (r: typeof all, header: string) => r.commits.find((c) => c.header === header)?.files;
    expect(files(judged, 'docs: the flag')).toEqual([]);
    expect(files(all, 'docs: the flag')).toEqual(['docs/cli.md']);
    expect(files(judged, 'test(cli): a flag')).toEqual(['test/cli.test.ts']);
    expect(files(judged, 'feat(cli): a flag')).toEqual([]);
    expect(files(all, 'feat(cli): a flag')).toEqual(['src/cli.ts']);
    expect(files(judged, 'feat(hooks): no test before it')).toEqual(['src/hooks.ts']);
    // Nor a merge's: its verdict re-computes the merge from its parents, never from its first-parent diff.
    expect(files(all, "Merge branch 'topic'")).toEqual(['src/git.ts', 'test/git.test.ts']);
    expect(files(judged, "Merge branch 'topic'")).toEqual([]);
  });

  it('says how many commits follow before the first one, then hands each on in order', async () => {
    const { repo, root } = mixedHistory();
    const input = { working_dir: repo.dir, from: root, to: 'HEAD', env: {} };
    const events: string[] = [];
    let head: VerifyStart | null = null;
    const seen: CommitReport[] = [];
    const summary = await verifyStream(
      input,
      { batch: 2 },
      {
        start: (h) => {
          head = h;
          events.push('start');
        },
        commit: (c) => {
          seen.push(c);
          events.push('commit');
        },
      },
    );
    const whole = await verifyRange(input, {});
    expect(events[0]).toBe('start');
    expect(events.filter((e) => e === 'start')).toHaveLength(1);
    expect(head!.count).toBe(whole.commits.length);
    expect(summary.count).toBe(whole.commits.length);
    expect(seen).toEqual(whole.commits);
    expect({ ok: summary.ok, errors: summary.errors, warnings: summary.warnings }).toEqual({
      ok: whole.ok,
      errors: whole.errors,
      warnings: whole.warnings,
    });
  });

  it('judges a push from its previous tip against the commits before it, batch by batch', async () => {
    const { repo, root } = mixedHistory();
    const previous = repo.git(['rev-parse', 'HEAD~2']).stdout.trim();
    repo.git(['update-ref', 'refs/remotes/origin/main', root]);
    const input = { working_dir: repo.dir, from: previous, to: 'HEAD', env: {} };
    const whole = await verifyRange(input, { batch: 1_000 });
    expect(whole.commits.map((c) => c.header)).toEqual(['feat(hooks): no test before it', 'fix(cli): an edge']);
    for (const batch of [1, 4]) expect(await verifyRange(input, { batch })).toEqual(whole);
  });

  it('prints the JSON document and the text as it goes, with every commit and the summary', () => {
    const { repo, root } = mixedHistory();
    const json = repo.hestai(['verify', '--from', root, '--format', 'json']);
    expect(json.status).toBe(1);
    const doc = JSON.parse(json.stdout) as {
      ok: boolean;
      range: { from: string };
      commits: { header: string }[];
      errors: number;
      warnings: number;
      policy_changes: unknown[];
    };
    const count = Number(repo.git(['rev-list', '--count', `${root}..HEAD`]).stdout.trim());
    expect(doc.ok).toBe(false);
    expect(doc.range.from).toBe(root);
    expect(doc.commits).toHaveLength(count);
    expect(doc.errors).toBe(1);
    expect(doc.policy_changes).toEqual([]);
    const text = repo.hestai(['verify', '--from', root]);
    expect(text.status).toBe(1);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(
      `hestai verify ${root.slice(0, 7)}..${repo.git(['rev-parse', '--short=7', 'HEAD']).stdout.trim()}: ${count} commit(s)`,
    );
    expect(lines.filter((l) => /^[✓✗!] [0-9a-f]{7} /.test(l))).toHaveLength(count);
    expect(text.stdout).toContain(`FAILED: 1 error(s), ${doc.warnings} warning(s)`);
  });
});
