/** One rule's verdict on one commit (docs/design.md §7). */
export interface Verdict {
  rule: string;
  status: 'pass' | 'fail' | 'warn' | 'skip';
  message: string;
  /** The clause deciding it: a Conventional Commits 1.0.0 section, a docs/design.md section or a config key. */
  clause?: string;
  /** test-first: the test commits a commit was paired with, each with how it relates (src/tdd/relation.ts). */
  paired_with?: { sha: string; header: string; relation: string }[];
  /** test-first: the branch a squash commit squashes, verified test-first commit by commit. */
  squash_of?: { branch: string; tip: string; commits: number; matched_by: 'tree' | 'patch-id' };
  /** signature: the session's owner, the allowed key that signed its proof record (issue 39). */
  owner?: { signer: string | null; key: string | null };
}
