import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir, type TempRepo } from '../helpers/git-repo.js';

/**
 * Issue 40 item 2: merges whose two sides changed disjoint paths, the shape a faster judge would decide from
 * blob ids (each path of the result is the side that changed it). Each verdict is the one git's re-merge
 * gives: an honest merge passes, and a merge that takes the wrong side of a path fails naming it, whether the
 * path was changed, added, deleted, renamed or had its mode changed.
 */

const CONFIG = 'verify:\n  trailers: off\n  anchors: off\n';

interface Report {
  ok: boolean;
  commits: { sha: string; header: string; verdicts: { rule: string; status: string; message: string }[] }[];
}

/** `hestai verify --format json` from the root, with git's trace: the report and the git commands verify ran. */
function traced(repo: TempRepo, root: string): { status: number; report: Report; git: string[] } {
  const trace = path.join(tempDir(), 'trace.txt');
  const result = repo.hestai(['verify', '--format', 'json', '--from', root], { env: { GIT_TRACE: trace } });
  const lines = fs.existsSync(trace) ? fs.readFileSync(trace, 'utf8').split('\n') : [];
  const git = lines.flatMap((l) => /trace: built-in: git (.*)$/.exec(l)?.[1] ?? []);
  return { status: result.status, report: JSON.parse(result.stdout) as Report, git };
}

const mergeVerdict = (report: Report, header: string) =>
  report.commits.find((c) => c.header === header)?.verdicts.find((v) => v.rule === 'merge');

/** A repository whose base commit holds `files`; returns it with its root. */
function based(files: Record<string, string>): { repo: TempRepo; root: string } {
  const repo = makeRepo({ initialCommit: false });
  const root = repo.commit('chore: config', { '.hestai_workspace.yaml': CONFIG, ...files });
  return { repo, root };
}

/**
 * Merges `topic` into main with git, lets `edit` change the result before it is committed (nothing: git's
 * own merge), and commits it as `message`.
 */
function mergeTopic(repo: TempRepo, message: string, edit: () => void = () => undefined): void {
  repo.git(['checkout', '-q', 'main']);
  repo.git(['merge', '-q', '--no-ff', '--no-commit', 'topic'], { allowFail: true });
  edit();
  repo.git(['commit', '-q', '--no-verify', '-m', message]);
}

/** Sets tool.sh's mode in the work tree and the index. */
function chmod(repo: TempRepo, mode: number): void {
  fs.chmodSync(path.join(repo.dir, 'tool.sh'), mode);
  repo.git(['add', 'tool.sh']);
}

/** Undoes the last merge of main, so the next one is made from the same parents. */
const undo = (repo: TempRepo) => repo.git(['reset', '-q', '--hard', 'HEAD^']);

describe('merges of disjoint paths, with the verdicts of git re-merge', () => {
  it('a path changed on one side: the merge taking the other side (the base) fails naming it; git merge passes', () => {
    const { repo, root } = based({ 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
    repo.git(['checkout', '-q', '-b', 'topic']);
    repo.commit('docs: topic changes a', { 'a.txt': 'a1\n' });
    repo.git(['checkout', '-q', 'main']);
    repo.commit('docs: main changes b', { 'b.txt': 'b1\n' });
    mergeTopic(repo, 'Merge topic (git)');
    expect(mergeVerdict(traced(repo, root).report, 'Merge topic (git)')).toMatchObject({
      status: 'pass',
      message: 'clean merge: adds nothing beyond its parents',
    });
    undo(repo);
    mergeTopic(repo, 'Merge topic (drops a)', () => {
      repo.git(['checkout', 'HEAD', '--', 'a.txt']);
    });
    const { status, report } = traced(repo, root);
    expect(status).toBe(1);
    const verdict = mergeVerdict(report, 'Merge topic (drops a)');
    expect(verdict?.status).toBe('fail');
    expect(verdict?.message).toContain('a.txt');
    expect(verdict?.message).not.toContain('b.txt');
  });

  it('a path added on one side: dropped, it fails naming it; a path neither side has fails too', () => {
    const { repo, root } = based({ 'b.txt': 'b0\n' });
    repo.git(['checkout', '-q', '-b', 'topic']);
    repo.commit('docs: topic adds new', { 'docs/new.txt': 'new\n' });
    repo.git(['checkout', '-q', 'main']);
    repo.commit('docs: main changes b', { 'b.txt': 'b1\n' });
    mergeTopic(repo, 'Merge topic (git)');
    expect(mergeVerdict(traced(repo, root).report, 'Merge topic (git)')?.status).toBe('pass');
    undo(repo);
    mergeTopic(repo, 'Merge topic (drops new)', () => repo.git(['rm', '-q', '-f', 'docs/new.txt']));
    const dropped = mergeVerdict(traced(repo, root).report, 'Merge topic (drops new)');
    expect(dropped?.status).toBe('fail');
    expect(dropped?.message).toContain('docs/new.txt');
    undo(repo);
    mergeTopic(repo, 'Merge topic (adds more)', () => {
      repo.write('docs/more.txt', 'more\n');
      repo.git(['add', 'docs/more.txt']);
    });
    const added = mergeVerdict(traced(repo, root).report, 'Merge topic (adds more)');
    expect(added?.status).toBe('fail');
    expect(added?.message).toContain('docs/more.txt');
    expect(added?.message).not.toContain('docs/new.txt');
  });

  it('a deletion on one side: a merge that keeps the file fails naming it; git merge passes', () => {
    const { repo, root } = based({ 'gone.txt': 'secret\n', 'b.txt': 'b0\n' });
    repo.git(['checkout', '-q', '-b', 'topic']);
    repo.git(['rm', '-q', 'gone.txt']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'fix: remove gone']);
    repo.git(['checkout', '-q', 'main']);
    repo.commit('docs: main changes b', { 'b.txt': 'b1\n' });
    mergeTopic(repo, 'Merge topic (git)');
    expect(mergeVerdict(traced(repo, root).report, 'Merge topic (git)')?.status).toBe('pass');
    undo(repo);
    mergeTopic(repo, 'Merge topic (keeps gone)', () => {
      repo.git(['checkout', 'HEAD', '--', 'gone.txt']);
    });
    const kept = mergeVerdict(traced(repo, root).report, 'Merge topic (keeps gone)');
    expect(kept?.status).toBe('fail');
    expect(kept?.message).toContain('gone.txt');
  });

  it('a rename on one side passes, alone or with the file changed on the other side; undone, it fails naming the paths', () => {
    const lines = Array.from({ length: 12 }, (_, i) => `line ${i}\n`).join('');
    const { repo, root } = based({ 'lib/old.txt': lines, 'b.txt': 'b0\n' });
    repo.git(['checkout', '-q', '-b', 'topic']);
    repo.git(['mv', 'lib/old.txt', 'lib/new.txt']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'refactor: rename old to new']);
    repo.git(['checkout', '-q', 'main']);
    repo.commit('docs: main changes b', { 'b.txt': 'b1\n' });
    mergeTopic(repo, 'Merge topic (rename)');
    expect(mergeVerdict(traced(repo, root).report, 'Merge topic (rename)')?.status).toBe('pass');
    undo(repo);
    mergeTopic(repo, 'Merge topic (rename undone)', () => {
      repo.git(['rm', '-q', '-f', 'lib/new.txt']);
      repo.git(['checkout', 'HEAD', '--', 'lib/old.txt']);
    });
    const undone = mergeVerdict(traced(repo, root).report, 'Merge topic (rename undone)');
    expect(undone?.status).toBe('fail');
    expect(undone?.message).toContain('lib/new.txt');
    undo(repo);
    // The renamed file changed on main too: git carries main's change to the new name.
    repo.commit('docs: main changes old', { 'lib/old.txt': lines.replace('line 0\n', 'line zero\n') });
    mergeTopic(repo, 'Merge topic (rename and change)');
    expect(repo.git(['show', 'HEAD:lib/new.txt']).stdout).toContain('line zero');
    expect(mergeVerdict(traced(repo, root).report, 'Merge topic (rename and change)')).toMatchObject({
      status: 'pass',
      message: 'clean merge: adds nothing beyond its parents',
    });
  });

  it('a mode change on one side: dropped by the merge, it fails naming the path, alone or beside a change on the other side', () => {
    const { repo, root } = based({ 'tool.sh': 'echo 1\n', 'b.txt': 'b0\n' });
    repo.git(['checkout', '-q', '-b', 'topic']);
    chmod(repo, 0o755);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: tool.sh is executable']);
    repo.git(['checkout', '-q', 'main']);
    repo.commit('docs: main changes b', { 'b.txt': 'b1\n' });
    mergeTopic(repo, 'Merge topic (git)');
    expect(mergeVerdict(traced(repo, root).report, 'Merge topic (git)')?.status).toBe('pass');
    undo(repo);
    mergeTopic(repo, 'Merge topic (mode dropped)', () => chmod(repo, 0o644));
    const dropped = mergeVerdict(traced(repo, root).report, 'Merge topic (mode dropped)');
    expect(dropped?.status).toBe('fail');
    expect(dropped?.message).toContain('tool.sh');
    undo(repo);
    // Main changes the content: git's merge keeps both the mode and the content.
    repo.commit('docs: main changes tool', { 'tool.sh': 'echo 2\n' });
    mergeTopic(repo, 'Merge topic (both)');
    expect(mergeVerdict(traced(repo, root).report, 'Merge topic (both)')?.status).toBe('pass');
    undo(repo);
    mergeTopic(repo, 'Merge topic (both, mode dropped)', () => chmod(repo, 0o644));
    const both = mergeVerdict(traced(repo, root).report, 'Merge topic (both, mode dropped)');
    expect(both?.status).toBe('fail');
    expect(both?.message).toContain('tool.sh');
  });

  it('a folder moved on one side and a file added to it on the other: the verdict git re-merge gives', () => {
    const { repo, root } = based({ 'old/a.txt': 'a\n', 'old/b.txt': 'b\n', 'c.txt': 'c0\n' });
    repo.git(['checkout', '-q', '-b', 'topic']);
    repo.git(['mv', 'old', 'moved']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'refactor: move old']);
    repo.git(['checkout', '-q', 'main']);
    repo.commit('docs: main adds to old', { 'old/new.txt': 'new\n' });
    // git moves the new file with its folder (a "file location" conflict); the merge keeps it where it was.
    mergeTopic(repo, 'Merge topic (kept in old)', () => {
      repo.git(['rm', '-q', '--cached', 'moved/new.txt'], { allowFail: true });
      repo.git(['add', '-A']);
      repo.write('old/new.txt', 'new\n');
      repo.git(['add', 'old/new.txt']);
      fs.rmSync(path.join(repo.dir, 'moved/new.txt'), { force: true });
    });
    expect(repo.git(['ls-tree', '-r', '--name-only', 'HEAD']).stdout.split('\n')).toContain('old/new.txt');
    const verdict = mergeVerdict(traced(repo, root).report, 'Merge topic (kept in old)');
    expect(verdict?.status).toBe('fail');
    expect(verdict?.message).toContain('old/new.txt');
  });

  it('judges a range of disjoint merges clean from one git re-merge of them all (cheaper than diffing their sides)', () => {
    const { repo, root } = based({ 'b.txt': 'b0\n' });
    for (let i = 0; i < 8; i++) {
      repo.git(['checkout', '-q', '-b', `topic-${i}`]);
      repo.commit(`docs: topic ${i}`, { [`docs/topic-${i}.md`]: `${i}\n` });
      if (i % 2 === 0) repo.commit(`docs: topic ${i} changes b`, { 'b.txt': `b${i}\n` });
      else {
        repo.git(['rm', '-q', `docs/main-${i - 1}.md`]);
        repo.git(['commit', '-q', '--no-verify', '-m', `docs: topic ${i} removes main ${i - 1}`]);
      }
      repo.git(['checkout', '-q', 'main']);
      repo.commit(`docs: main ${i}`, { [`docs/main-${i}.md`]: `${i}\n` });
      repo.git(['merge', '-q', '--no-ff', '--no-edit', `topic-${i}`]);
    }
    const { status, report, git } = traced(repo, root);
    expect(status).toBe(0);
    for (let i = 0; i < 8; i++)
      expect(mergeVerdict(report, `Merge branch 'topic-${i}'`)?.message).toBe(
        'clean merge: adds nothing beyond its parents',
      );
    expect(git.filter((c) => c.includes('--diff-merges=remerge'))).toHaveLength(1);
    expect(git.filter((c) => c.startsWith('merge-tree '))).toHaveLength(0);
    expect(git.filter((c) => c.startsWith('diff-tree ') && c.includes('--raw'))).toHaveLength(0);
  });
});
