import { expect } from 'vitest';
import type { AnchoredRepo } from './anchored-repo.js';

// Issue 31: a history with every verdict kind, and readers of the report page's marked-up figures, shared
// by the report tests (page, action step summary, browser).

export const HOSTILE = 'feat: sneaked <script>alert(1)</script> & "quoted" <img src=x onerror=alert(2)>';

/** A history with every verdict kind: pass, fail, warn, skip, bypass, exemption and a merge. Returns the clone. */
export function everyVerdictKind(repo: AnchoredRepo): string {
  repo.git(['checkout', '-q', '-b', 'feat/report']);
  repo.anchor();
  const hooked = (message: string, files: Record<string, string>, env: NodeJS.ProcessEnv = {}) => {
    const made = repo.commitHooked(message, files, env);
    expect(made.status, `${message}: ${made.stderr}`).toBe(0);
  };
  hooked('test(report): the greeting is polite', { 'test/greet.test.ts': 'expect(greet()).toBe("hello")\n' });
  hooked('feat(report): greet politely', { 'src/greet.ts': 'export const greet = () => "hello";\n' });
  repo.write('src/sneak.ts', 'x\n');
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', HOSTILE]);
  hooked('docs: how to greet', { 'docs/greet.md': 'greet\n' });
  hooked('test: notes without a test file', { 'notes.txt': 'n\n' });
  hooked('chore: urgent hotfix', { 'src/hot.ts': 'h\n' }, { HESTAI_BYPASS: 'release <blocker> & co' });
  hooked('feat(report): a spike\n\nTDD-Exempt: exploratory spike, thrown away', { 'src/spike.ts': 's\n' });
  repo.git(['checkout', '-q', '-b', 'side']);
  hooked('docs: side note', { 'docs/side.md': 's\n' });
  repo.git(['checkout', '-q', 'feat/report']);
  hooked('docs: main note', { 'docs/main.md': 'm\n' });
  repo.git(['merge', '-q', '--no-ff', '--no-verify', '-m', 'Merge branch side', 'side']);
  const push = repo.git(['push', '-q', 'origin', 'feat/report'], { allowFail: true });
  expect(push.status, push.stderr).toBe(0);
  return repo.freshClone('feat/report');
}

const decode = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** The verdict rows of the page, per commit sha, in order: [rule, status, message]. */
export function pageVerdicts(html: string): Map<string, string[][]> {
  const out = new Map<string, string[][]>();
  const sections = html.split('<section class="commit"').slice(1);
  for (const s of sections) {
    const sha = /data-sha="([0-9a-f]+)"/.exec(s)![1]!;
    const rows = [...s.matchAll(/<tr data-rule="([^"]*)" data-status="([^"]*)">.*?<td class="msg">(.*?)<\/td>/gs)];
    out.set(
      sha,
      rows.map((r) => [decode(r[1]!), r[2]!, decode(r[3]!)]),
    );
  }
  return out;
}

/** A summary figure of the page (`data-metric="name"`). */
export function metric(html: string, name: string): string {
  const m = new RegExp(`data-metric="${name}"[^>]*>.*?<dd[^>]*>(.*?)</dd>`, 's').exec(html);
  if (!m) throw new Error(`no metric ${name} on the page`);
  return decode(m[1]!.replace(/<[^>]*>/g, ''));
}
