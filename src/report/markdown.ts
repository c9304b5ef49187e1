import { escapeMarkdownCell as cell } from './escape.js';
import type { ReportData } from './model.js';
import { percent } from './summary.js';

/** At most this many failing commits are listed in the step summary (GitHub caps a summary at 1 MiB). */
export const MARKDOWN_ROW_LIMIT = 50;
const short = (sha: string | null) => (sha === null ? 'root' : sha.slice(0, 7));
const oneLine = (text: string, max = 200) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
};

/**
 * Pure: the CI step summary (`$GITHUB_STEP_SUMMARY`): the counts, then one row per failing commit with its
 * first failing rule and one-line reason. Commit headers and messages are escaped so they stay text.
 */
export function renderMarkdown(data: ReportData): string {
  const s = data.summary;
  const protocol =
    s.protocol === null
      ? 'none published'
      : `${s.protocol.runs} ${Object.entries(s.protocol.outcomes)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')}`.trim();
  const lines = [
    `### hestai verify ${short(data.range.from)}..${short(data.range.to)}: ${data.ok ? 'passes' : 'FAILS'}`,
    '',
    '| | |',
    '| --- | --- |',
    `| commits | ${s.commits} |`,
    `| feats test-first | ${percent(s.testFirst)} |`,
    `| commits anchored | ${s.anchored === null ? 'not checked (verify.anchors: off)' : percent(s.anchored)} |`,
    `| sessions | ${s.sessions} |`,
    `| errors | ${s.errors} |`,
    `| warnings | ${s.warnings} |`,
    `| bypasses | ${s.bypasses} |`,
    `| exemptions | ${s.exemptions} |`,
    `| protocol runs | ${cell(protocol)} |`,
  ];
  const failing = data.commits.filter((c) => c.verdicts.some((v) => v.status === 'fail'));
  if (failing.length > 0) {
    lines.push(
      '',
      `#### Failing commits (${failing.length})`,
      '',
      '| commit | header | rule | reason |',
      '| --- | --- | --- | --- |',
    );
    for (const c of failing.slice(0, MARKDOWN_ROW_LIMIT)) {
      const bad = c.verdicts.filter((v) => v.status === 'fail');
      const first = bad[0]!;
      const more =
        bad.length > 1
          ? ` (+${bad.length - 1} more: ${bad
              .slice(1)
              .map((v) => v.rule)
              .join(', ')})`
          : '';
      lines.push(
        `| \`${short(c.sha)}\` | ${cell(oneLine(c.header, 100))} | ${cell(first.rule)} | ${cell(oneLine(first.message))}${cell(more)} |`,
      );
    }
    if (failing.length > MARKDOWN_ROW_LIMIT)
      lines.push(
        '',
        `… and ${failing.length - MARKDOWN_ROW_LIMIT} more failing commit(s): see \`hestai verify\` or the HTML report.`,
      );
  }
  return `${lines.join('\n')}\n`;
}
