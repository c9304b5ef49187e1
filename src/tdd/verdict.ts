/** One rule's verdict on one commit (docs/design.md §7). */
export interface Verdict {
  rule: string;
  status: 'pass' | 'fail' | 'warn' | 'skip';
  message: string;
  /** The clause deciding it: a Conventional Commits 1.0.0 section, a docs/design.md section or a config key. */
  clause?: string;
}
