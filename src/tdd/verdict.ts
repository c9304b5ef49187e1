/** One rule's verdict on one commit (DESIGN.md §7). */
export interface Verdict {
  rule: string;
  status: 'pass' | 'fail' | 'warn' | 'skip';
  message: string;
}
