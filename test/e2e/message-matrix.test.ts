import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir, templateRepo, type TempRepo } from '../helpers/git-repo.js';
import { makeSession } from '../helpers/session-fixture.js';

// The commit-msg hook must judge exactly the message git stores. For every cleanup mode (commit.cleanup),
// comment character and way of giving the message (-m, -F, an editor), a real `git commit` runs through
// the installed hooks; a commit the hook blocked is made again with --no-verify. Then `hestai verify`
// judges the stored messages: the hook blocked a commit exactly when verify fails its header, and every
// commit the hook let through carries the HestAI trailers where verify finds them.

type Via = '-m' | '-F' | 'editor';
interface Shape {
  name: string;
  /** -m arguments (each one a paragraph); -F and the editor get them joined by blank lines. */
  parts: string[];
}

const SHAPES: Shape[] = [
  { name: 'plain', parts: ['docs: plain'] },
  { name: 'issue-number header', parts: ['#42 add login'] },
  { name: 'comment above the header', parts: ['# note', 'docs: x'] },
  { name: 'issue line as last paragraph', parts: ['docs: x', '#123 is the issue'] },
  { name: 'semicolon line', parts: ['docs: x', '; not a comment unless commentChar is ;'] },
  { name: 'body and trailing comment', parts: ['docs: x', 'body', '# trailing comment'] },
  { name: 'leading whitespace', parts: ['  docs: indented'] },
  { name: 'byte order mark', parts: ['\uFEFFdocs: bom'] },
  { name: 'existing trailer block', parts: ['docs: x', 'Refs: #12'] },
];

function setup(
  cleanup: string | null,
  commentChar: string | null,
): { repo: TempRepo; editor: string; msgFile: string; token: string } {
  // The adopted repository is made once per file and copied for each setup (it holds no absolute path).
  const repo = templateRepo('adopted', () => {
    const adopted = makeRepo();
    expect(adopted.hestai(['init', '--no-husky']).status).toBe(0);
    adopted.write('.hestai_workspace.yaml', 'hooks:\n  pre_commit: false\nverify:\n  trailers: error\n');
    adopted.git(['add', '-A']);
    adopted.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
    fs.rmSync(path.join(adopted.dir, '.git/hooks/pre-commit')); // only commit-msg is under test here
    return adopted;
  });
  if (cleanup !== null) repo.git(['config', 'commit.cleanup', cleanup]);
  if (commentChar !== null) repo.git(['config', 'core.commentChar', commentChar]);
  const { token } = makeSession(repo.dir);
  const dir = tempDir('hestai-editor-');
  const editor = path.join(dir, 'editor.sh');
  const msgFile = path.join(dir, 'message.txt');
  // A user who types the message above git's template (which stays in the file, comments included).
  fs.writeFileSync(editor, '#!/bin/sh\ncat "$HESTAI_TEST_MSG" "$1" > "$1.new" && mv "$1.new" "$1"\n', { mode: 0o755 });
  return { repo, editor, msgFile, token };
}

function gitCommitArgs(via: Via, shape: Shape, msgFile: string): string[] {
  const text = shape.parts.join('\n\n');
  if (via === '-m') return shape.parts.flatMap((p) => ['-m', p]);
  fs.writeFileSync(msgFile, `${text}\n`);
  return via === '-F' ? ['-F', msgFile] : [];
}

function runMatrix(cleanup: string | null, commentChar: string | null, vias: Via[] = ['-m', 'editor']) {
  const { repo, editor, msgFile, token } = setup(cleanup, commentChar);
  const expected = new Map<string, { hookPassed: boolean; label: string }>();
  const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
  let before = base; // HEAD before each commit: the last one's result (nothing else moves it)
  for (const via of vias) {
    for (const shape of SHAPES) {
      const label = `${via} ${shape.name} (cleanup ${cleanup ?? 'unset'}, commentChar ${commentChar ?? 'unset'})`;
      const args = ['commit', '-q', '--allow-empty', ...gitCommitArgs(via, shape, msgFile)];
      const env = { GIT_EDITOR: `sh ${editor}`, HESTAI_TEST_MSG: msgFile };
      const hooked = repo.git(args, { allowFail: true, env });
      let after = repo.git(['rev-parse', 'HEAD']).stdout.trim();
      const hookPassed = hooked.status === 0;
      if (!hookPassed) {
        expect(after, label).toBe(before);
        const forced = repo.git([...args.slice(0, 1), '--no-verify', ...args.slice(1)], { allowFail: true, env });
        after = repo.git(['rev-parse', 'HEAD']).stdout.trim();
        // git itself refused (an empty message after cleanup): the hook did not block a storable commit.
        if (forced.status !== 0) {
          expect(forced.stderr, label).toMatch(/empty commit message/);
          // The hook runs before git's own check, and blocks an empty message as verify fails it.
          expect(hooked.stderr, label).toMatch(/the header \(first line\) is empty/);
          continue;
        }
      }
      if (after === before) continue; // git aborted an empty message with or without the hook
      expected.set(after, { hookPassed, label });
      before = after;
    }
  }
  const verify = repo.hestai(['verify', '--from', base, '--to', 'HEAD', '--format', 'json']);
  const report = JSON.parse(verify.stdout) as {
    commits: { sha: string; header: string; verdicts: { rule: string; status: string; message: string }[] }[];
  };
  expect(report.commits.length).toBe(expected.size);
  for (const c of report.commits) {
    const want = expected.get(c.sha)!;
    const header = c.verdicts.find((v) => v.rule === 'header')!;
    expect(
      header.status === 'fail',
      `${want.label}: hook ${want.hookPassed ? 'passed' : 'blocked'}, verify header ${header.status}: ${header.message}`,
    ).toBe(!want.hookPassed);
    if (want.hookPassed) {
      const trailers = c.verdicts.find((v) => v.rule === 'trailers')!;
      expect(trailers.status, `${want.label}: ${trailers.message}`).toBe('pass');
      expect(trailers.message).toContain(token);
    }
  }
  return { repo, report, expected };
}

describe('commit-msg hook and verify agree on the stored message', () => {
  it('commit.cleanup unset × -m/-F/editor × message shapes', () => {
    runMatrix(null, null, ['-m', '-F', 'editor']);
  }, 120_000);
  for (const cleanup of ['strip', 'whitespace', 'verbatim', 'scissors']) {
    it(`commit.cleanup ${cleanup} × -m/editor × message shapes`, () => {
      runMatrix(cleanup, null);
    }, 120_000);
  }
  for (const commentChar of [';', 'auto']) {
    it(`core.commentChar ${commentChar} × -m/editor × message shapes`, () => {
      runMatrix(null, commentChar);
    }, 120_000);
  }
  it('core.commentChar ; with commit.cleanup strip', () => {
    runMatrix('strip', ';');
  }, 120_000);
});

describe('the messages of the issue, committed for real', () => {
  it('-m "#42 add login" is blocked (git keeps the line); -m "# note" -m "feat: x" is judged by "# note"', () => {
    const { repo } = setup(null, null);
    const issue = repo.git(['commit', '-q', '--allow-empty', '-m', '#42 add login'], { allowFail: true });
    expect(issue.status).toBe(1);
    expect(issue.stderr).toContain('"#42 add login" is not a Conventional Commit header');
    const note = repo.git(['commit', '-q', '--allow-empty', '-m', '# note', '-m', 'docs: x'], { allowFail: true });
    expect(note.status).toBe(1);
    expect(note.stderr).toContain('"# note"');
  });

  it('-m "docs: x" -m "#123 is the issue" keeps the line and puts the trailers below it', () => {
    const { repo, token } = setup(null, null);
    const ok = repo.git(['commit', '-q', '--allow-empty', '-m', 'docs: x', '-m', '#123 is the issue'], {
      allowFail: true,
    });
    expect(ok.status, ok.stderr).toBe(0);
    const stored = repo.git(['log', '-1', '--format=%B']).stdout;
    expect(stored).toMatch(
      new RegExp(
        `^docs: x\\n\\n#123 is the issue\\n\\nHestAI-Session: ${token}\\nHestAI-Anchor: sha256:[0-9a-f]{64}\\n`,
      ),
    );
  });

  it("in the editor, # lines are comments and the trailers go above git's template", () => {
    const { repo, editor, msgFile, token } = setup(null, null);
    fs.writeFileSync(msgFile, 'docs: x\n\n#123 is a comment here\n');
    const ok = repo.git(['commit', '-q', '--allow-empty'], {
      allowFail: true,
      env: { GIT_EDITOR: `sh ${editor}`, HESTAI_TEST_MSG: msgFile },
    });
    expect(ok.status, ok.stderr).toBe(0);
    expect(repo.git(['log', '-1', '--format=%B']).stdout).toMatch(
      new RegExp(`^docs: x\\n\\nHestAI-Session: ${token}\\n`),
    );
  });
});
