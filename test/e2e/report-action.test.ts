import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { anchoredRepo } from '../helpers/anchored-repo.js';
import { PROJECT_ROOT, tempDir } from '../helpers/git-repo.js';
import { everyVerdictKind } from '../helpers/report-history.js';

// Issue 31, item 4: action.yml writes the markdown step summary to $GITHUB_STEP_SUMMARY (even when the
// verify step failed) and, when asked, the HTML report for upload. The steps' own scripts are run here
// with bash, as the runner would, against a fresh clone.

interface Step {
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
const action = parse(fs.readFileSync(path.join(PROJECT_ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
  runs: { steps: Step[] };
};
const step = (name: string) => action.runs.steps.find((s) => s.name === name)!;

/** Runs a step's script as the runner does: inputs substituted in its env, bash -e. */
function runStep(
  s: Step,
  cwd: string,
  inputs: Record<string, string>,
  extra: NodeJS.ProcessEnv,
  env: NodeJS.ProcessEnv,
) {
  const stepEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(s.env ?? {}))
    stepEnv[k] = v.replace(/\$\{\{\s*inputs\.([a-z-]+)\s*\}\}/g, (_, name: string) => inputs[name] ?? '');
  return spawnSync('bash', ['-e', '-c', s.run!], {
    cwd,
    encoding: 'utf8',
    env: { ...env, ...stepEnv, GITHUB_ACTION_PATH: PROJECT_ROOT, ...extra },
  });
}

describe('action.yml: the step summary and the HTML report', () => {
  it('writes the counts and the failing commits to $GITHUB_STEP_SUMMARY, after a failed verify step too; the HTML report is written for upload when asked', () => {
    const repo = anchoredRepo();
    const clone = everyVerdictKind(repo);
    const { report } = repo.verifyJson(clone);
    const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? '']));

    const summary = step('hestai step summary');
    expect(summary.if).toBe('always()');
    const file = path.join(tempDir('hestai-summary-'), 'summary.md');
    fs.writeFileSync(file, '');
    const ran = runStep(summary, clone, inputs, { GITHUB_STEP_SUMMARY: file }, repo.env);
    expect(ran.status, ran.stderr).toBe(0);
    const md = fs.readFileSync(file, 'utf8');
    expect(md).toContain(`| errors | ${report.errors} |`);
    expect(md).toContain(`| warnings | ${report.warnings} |`);
    for (const c of report.commits.filter((c) => c.verdicts.some((v) => v.status === 'fail')))
      expect(md).toContain(`| \`${c.sha.slice(0, 7)}\` |`);

    const html = step('hestai report (HTML)');
    expect(html.if).toContain("inputs.report-artifact == 'true'");
    const temp = tempDir('hestai-runner-temp-');
    const wrote = runStep(html, clone, { ...inputs, 'report-artifact': 'true' }, { RUNNER_TEMP: temp }, repo.env);
    expect(wrote.status, wrote.stderr).toBe(0);
    const page = fs.readFileSync(path.join(temp, 'hestai-report', 'hestai-report.html'), 'utf8');
    expect(page).toContain(`data-metric="errors"`);
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.if).toContain("inputs.report-artifact == 'true'");
    expect(upload.with?.['path']).toContain('hestai-report/hestai-report.html');
  });
});
