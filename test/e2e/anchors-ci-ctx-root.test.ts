import { describe, expect, it } from 'vitest';
import { anchoredRepo, forgeRecord, forgedCanonical, verdictOf } from '../helpers/anchored-repo.js';

// The hooks and verify never disagree about a CTX path: what the proof stage accepts, `hestai verify` accepts
// at the recorded HEAD, and what verify refuses (the worktree root, `.`, which git names with the empty path)
// the proof refuses first, with the same rule.

const canonical = (ctx: string) =>
  forgedCanonical(
    [
      `L1::[THE_WHOLE_WORKTREE]⇌CTX:${ctx}[everything]→TRIGGER[keep it]`,
      'L2::[README_NAMES_THE_PROJECT]⇌CTX:README.md:1-1[the title]→TRIGGER[keep it]',
    ],
    'docs/a.md',
  );

describe('a CTX path is judged the same by the proof stage and by verify at the recorded HEAD', () => {
  it('CTX:. (the worktree root) is refused at the proof stage with TENSION_FORMAT, saying what to cite instead', () => {
    const repo = anchoredRepo();
    for (const root of ['.', './', './.', '.:1-2']) {
      const { proof } = repo.tryProof([root, 'README.md:1-1']);
      expect(proof.status, proof.stdout).not.toBe(0);
      const { guidance } = JSON.parse(proof.stdout) as { guidance: string };
      expect(guidance).toContain(
        `TENSION_FORMAT: line 2: L1 CTX "${root}" names the worktree root, not a file or directory inside it`,
      );
      expect(guidance).toContain('Cite a file or a directory inside the worktree, not its root');
    }
  });

  it('a proof citing ./file, a directory and .//file verifies in a fresh clone; a record citing the root or an empty path fails with TENSION_FORMAT', () => {
    const repo = anchoredRepo();
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    const token = repo.anchor(['./README.md:1-1', '.hestai-sys/agents/', './/.hestai_workspace.yaml']);
    const made = repo.commitHooked('docs: anchored with ./ paths and a directory', { 'docs/a.md': 'a\n' });
    expect(made.status, made.stderr).toBe(0);
    const head = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    // `CTX:` is what an anchor citing `.` was recorded as (cf7385d); `CTX:.` what a build before it recorded.
    for (const [header, ctx] of [
      ['docs: recorded CTX:.', '.'],
      ['docs: recorded CTX:', ''],
    ] as const) {
      const digest = forgeRecord(repo, token, head, canonical(ctx));
      repo.commit(`${header}\n\nHestAI-Session: ${token}\nHestAI-Anchor: sha256:${digest}`, {
        [`docs/${ctx === '' ? 'empty' : 'dot'}.md`]: 'x\n',
      });
    }
    const push = repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true });
    expect(push.status, push.stderr).toBe(0);

    const { report, stderr } = repo.verifyJson(repo.freshClone('feat/x'));
    const honest = verdictOf(report, 'docs: anchored with ./ paths and a directory', 'anchor');
    expect(honest?.status, stderr + JSON.stringify(report, null, 1)).toBe('pass');
    expect(verdictOf(report, 'docs: recorded CTX:.', 'anchor')?.message).toContain(
      'TENSION_FORMAT: line 13: L1 CTX "." names the worktree root, not a file or directory inside it',
    );
    expect(verdictOf(report, 'docs: recorded CTX:', 'anchor')?.message).toContain(
      'TENSION_FORMAT: line 13: L1 has an empty CTX path',
    );
  });
});
