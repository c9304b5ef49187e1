import type { CommitReport, VerifyReport, VerifyStart } from './verify.js';

const short = (sha: string | null) => (sha === null ? 'root' : sha.slice(0, 7));

/** What a writer is told once the range has been judged: the report without its commits. */
export type VerifyEnd = Omit<VerifyReport, 'commits'>;

/**
 * Writes one format as the commits are judged (src/verify/verify.ts `verifyStream`): each call returns the
 * text it adds (whole lines, without the last newline), so a caller can print a range of any length
 * without holding it.
 */
export interface VerifyWriter {
  start(head: VerifyStart): string;
  commit(report: CommitReport): string;
  end(summary: VerifyEnd): string;
}

/** Writes `writer`'s whole text for a report held in memory. */
function whole(writer: VerifyWriter, report: VerifyReport): string {
  const parts = [writer.start({ range: report.range, count: report.commits.length })];
  for (const c of report.commits) parts.push(writer.commit(c));
  parts.push(writer.end(report));
  return parts.filter((p) => p !== '').join('\n');
}

/**
 * Which config judged (issue 25): the policy commit's `.hestai_workspace.yaml`, or the defaults when that
 * commit has none (as right after `hestai init`, whose file is not in the base yet). Null for a report made
 * without one.
 */
export function policyLine(range: VerifyReport['range']): string | null {
  if (range.policy === undefined || range.policy_source === undefined) return null;
  return range.policy_file
    ? `policy: ${range.policy_file} (${range.policy_source})`
    : `policy: the defaults: ${short(range.policy)} (${range.policy_source}) has no .hestai_workspace.yaml; a file that is only in the working tree or on the branch is never the policy (docs/enforcement.md "CI: hestai verify")`;
}

/** The JSON document of docs/design.md §7 (the `files` helper field is left out). */
export function verifyJson(report: VerifyReport): unknown {
  return {
    ok: report.ok,
    range: report.range,
    commits: report.commits.map((c) => ({ sha: c.sha, header: c.header, verdicts: c.verdicts })),
    policy_changes: report.policy_changes,
    ...(report.evidence_warnings?.length ? { evidence_warnings: report.evidence_warnings } : {}),
    errors: report.errors,
    warnings: report.warnings,
  };
}

/**
 * The same document, written as the commits come (`JSON.stringify(…, null, 2)` layout): `ok` comes last,
 * once it is known. `failed` closes a document whose run failed part-way with an `error` member.
 */
export function jsonWriter(): VerifyWriter & { failed(error: unknown): string } {
  // Each commit is written once the next one (or the end) says whether a comma follows it.
  let last: string | null = null;
  const nested = (value: unknown, pad: string) => JSON.stringify(value, null, 2).replace(/\n/g, `\n${pad}`);
  const flush = (comma: boolean) => {
    const text = last === null ? '' : `    ${last}${comma ? ',' : ''}`;
    last = null;
    return text;
  };
  const close = (rest: string) => [flush(false), rest].filter((p) => p !== '').join('\n');
  return {
    start: (head) => `{\n  "range": ${nested(head.range, '  ')},\n  "commits": [`,
    commit: (c) => {
      const text = flush(true);
      last = nested({ sha: c.sha, header: c.header, verdicts: c.verdicts }, '    ');
      return text;
    },
    end: (s) =>
      close(
        `  ],\n  "policy_changes": ${nested(s.policy_changes, '  ')},\n${s.evidence_warnings?.length ? `  "evidence_warnings": ${nested(s.evidence_warnings, '  ')},\n` : ''}  "errors": ${s.errors},\n  "warnings": ${s.warnings},\n  "ok": ${s.ok}\n}`,
      ),
    failed: (error) =>
      close(`  ],\n  "errors": 1,\n  "warnings": 0,\n  "ok": false,\n  "error": ${nested(error, '  ')}\n}`),
  };
}

/** Human text: one line per commit, the fail/warn verdicts under it, and a summary. */
export function textWriter(): VerifyWriter {
  // The "fix the history" hint is about test-first: printed only when a test-first verdict failed.
  let testFirstFailed = false;
  return {
    start: (head) =>
      [
        `hestai verify ${short(head.range.from)}..${short(head.range.to)}: ${head.count} commit(s)`,
        policyLine(head.range),
      ]
        .filter((line) => line !== null)
        .join('\n'),
    commit: (c) => {
      const bad = c.verdicts.filter((v) => v.status === 'fail' || v.status === 'warn');
      if (c.verdicts.some((v) => v.rule === 'test-first' && v.status === 'fail')) testFirstFailed = true;
      const mark = bad.some((v) => v.status === 'fail') ? '✗' : bad.length > 0 ? '!' : '✓';
      const lines = [`${mark} ${short(c.sha)} ${c.header}`];
      for (const v of bad) lines.push(`    ${v.status === 'fail' ? 'error' : 'warning'} ${v.rule}: ${v.message}`);
      return lines.join('\n');
    },
    end: (report) => {
      const lines: string[] = [];
      for (const p of report.policy_changes) lines.push(`! warning policy: ${p.message}`);
      for (const w of report.evidence_warnings ?? []) lines.push(`! warning evidence: ${w.message}`);
      lines.push(`${report.ok ? 'ok' : 'FAILED'}: ${report.errors} error(s), ${report.warnings} warning(s)`);
      if (!report.ok && testFirstFailed && report.where === 'default-branch')
        lines.push(
          'hint: these commits are already on the default branch, so their history cannot be reordered; for squash and rebase merges see docs/enforcement.md "Merge styles" (verify each pull request\'s branch before merging, or tdd.policy same-commit).',
        );
      else if (!report.ok && testFirstFailed)
        lines.push(
          'hint: fix the history before merging (e.g. git rebase -i so the failing test is committed before the feat), or mark an intended exception with a "TDD-Exempt: <reason>" trailer.',
        );
      return lines.join('\n');
    },
  };
}

/** Human text: one line per commit, the fail/warn verdicts under it, and a summary. */
export function verifyText(report: VerifyReport): string {
  return whole(textWriter(), report);
}

const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** GitHub workflow commands: `::error`/`::warning` per fail/warn verdict, then a plain summary line. */
export function githubWriter(isTestFile: (file: string) => boolean = () => false): VerifyWriter {
  let count = 0;
  return {
    start: (head) => {
      count = head.count;
      return '';
    },
    commit: (c) => {
      const lines: string[] = [];
      const file = c.files.find((f) => !isTestFile(f)) ?? c.files[0];
      for (const v of c.verdicts) {
        if (v.status !== 'fail' && v.status !== 'warn') continue;
        const props = [
          ...(file ? [`file=${escapeProperty(file)}`] : []),
          `title=${escapeProperty(`hestai ${v.rule} (${short(c.sha)})`)}`,
        ];
        lines.push(
          `::${v.status === 'fail' ? 'error' : 'warning'} ${props.join(',')}::${escapeData(`${v.message} [${c.header}]`)}`,
        );
      }
      return lines.join('\n');
    },
    end: (report) => {
      const lines: string[] = [];
      for (const p of report.policy_changes)
        lines.push(
          `::warning file=.hestai_workspace.yaml,title=${escapeProperty(`hestai policy ${p.key}`)}::${escapeData(p.message)}`,
        );
      for (const w of report.evidence_warnings ?? [])
        lines.push(`::warning title=${escapeProperty('hestai evidence (hestai/anchors)')}::${escapeData(w.message)}`);
      const policy = policyLine(report.range);
      if (policy !== null) lines.push(policy);
      lines.push(
        `hestai verify ${short(report.range.from)}..${short(report.range.to)}: ${count} commit(s), ${report.errors} error(s), ${report.warnings} warning(s)`,
      );
      return lines.join('\n');
    },
  };
}

/** GitHub workflow commands: `::error`/`::warning` per fail/warn verdict, then a plain summary line. */
export function verifyGithub(report: VerifyReport, isTestFile: (file: string) => boolean = () => false): string {
  return whole(githubWriter(isTestFile), report);
}
