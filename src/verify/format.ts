import type { VerifyReport } from './verify.js';

const short = (sha: string | null) => (sha === null ? 'root' : sha.slice(0, 7));

/** The JSON document of docs/design.md §7 (the `files` helper field is left out). */
export function verifyJson(report: VerifyReport): unknown {
  return {
    ok: report.ok,
    range: report.range,
    commits: report.commits.map((c) => ({ sha: c.sha, header: c.header, verdicts: c.verdicts })),
    policy_changes: report.policy_changes,
    errors: report.errors,
    warnings: report.warnings,
  };
}

/** Human text: one line per commit, the fail/warn verdicts under it, and a summary. */
export function verifyText(report: VerifyReport): string {
  const lines = [
    `hestai verify ${short(report.range.from)}..${short(report.range.to)}: ${report.commits.length} commit(s)`,
  ];
  for (const c of report.commits) {
    const bad = c.verdicts.filter((v) => v.status === 'fail' || v.status === 'warn');
    const mark = bad.some((v) => v.status === 'fail') ? '✗' : bad.length > 0 ? '!' : '✓';
    lines.push(`${mark} ${short(c.sha)} ${c.header}`);
    for (const v of bad) lines.push(`    ${v.status === 'fail' ? 'error' : 'warning'} ${v.rule}: ${v.message}`);
  }
  for (const p of report.policy_changes) lines.push(`! warning policy: ${p.message}`);
  lines.push(`${report.ok ? 'ok' : 'FAILED'}: ${report.errors} error(s), ${report.warnings} warning(s)`);
  if (!report.ok && report.where === 'default-branch')
    lines.push(
      'hint: these commits are already on the default branch, so their history cannot be reordered; for squash and rebase merges see docs/enforcement.md "Merge styles" (verify each pull request\'s branch before merging, or tdd.policy same-commit).',
    );
  else if (!report.ok)
    lines.push(
      'hint: fix the history before merging (e.g. git rebase -i so the failing test is committed before the feat), or mark an intended exception with a "TDD-Exempt: <reason>" trailer.',
    );
  return lines.join('\n');
}

const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** GitHub workflow commands: `::error`/`::warning` per fail/warn verdict, then a plain summary line. */
export function verifyGithub(report: VerifyReport, isTestFile: (file: string) => boolean = () => false): string {
  const lines: string[] = [];
  for (const c of report.commits) {
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
  }
  for (const p of report.policy_changes)
    lines.push(
      `::warning file=.hestai_workspace.yaml,title=${escapeProperty(`hestai policy ${p.key}`)}::${escapeData(p.message)}`,
    );
  lines.push(
    `hestai verify ${short(report.range.from)}..${short(report.range.to)}: ${report.commits.length} commit(s), ${report.errors} error(s), ${report.warnings} warning(s)`,
  );
  return lines.join('\n');
}
