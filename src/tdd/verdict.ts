/** One rule's verdict on one commit (DESIGN.md §7). */
export interface Verdict {
  rule: string;
  status: 'pass' | 'fail' | 'warn' | 'skip';
  message: string;
  /** The clause deciding it: a Conventional Commits 1.0.0 section, a DESIGN.md section or a config key. */
  clause?: string;
}
