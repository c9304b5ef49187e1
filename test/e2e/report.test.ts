import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchoredRepo, type VerifyReport } from '../helpers/anchored-repo.js';
import { sharedFixture, tempDir } from '../helpers/git-repo.js';
import { everyVerdictKind, metric, pageVerdicts } from '../helpers/report-history.js';

// Issue 31: `hestai report` is a view of `hestai verify`: every number and verdict on the page is the one
// `verify --format json` gives for the same range, read in a fresh clone (what CI and a reviewer see).

// Every test reads the same history: built once (real hooks, push, fresh clone), each test gets its own copy.
const history = sharedFixture(() => {
  const repo = anchoredRepo();
  return { repo, clone: everyVerdictKind(repo) };
});

describe('hestai report: one HTML page from git alone that never disagrees with verify', () => {
  it('on a history with every verdict kind the page shows exactly verify --format json: counts and every verdict', () => {
    const { repo, clone } = history();
    const { report } = repo.verifyJson(clone);
    expect(report.errors).toBeGreaterThan(0);
    const statuses = new Set(report.commits.flatMap((c) => c.verdicts.map((v) => v.status)));
    expect([...statuses].sort()).toEqual(['fail', 'pass', 'skip', 'warn']);
    expect(report.commits.some((c) => c.verdicts.some((v) => v.rule === 'bypass'))).toBe(true);
    expect(report.commits.some((c) => c.verdicts.some((v) => v.rule === 'merge'))).toBe(true);

    const out = path.join(tempDir('hestai-report-'), 'report.html');
    const run = repo.hestai(['report', '--out', out], { cwd: clone });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(out);
    const html = fs.readFileSync(out, 'utf8');

    expect(metric(html, 'commits')).toBe(String(report.commits.length));
    expect(metric(html, 'errors')).toBe(String(report.errors));
    expect(metric(html, 'warnings')).toBe(String(report.warnings));
    const bypasses = report.commits.filter((c) => c.verdicts.some((v) => v.rule === 'bypass')).length;
    expect(metric(html, 'bypasses')).toBe(String(bypasses));
    expect(metric(html, 'sessions')).toBe('1');
    // feats: greet politely (paired), the sneaked one (fail), the spike (exempt): 1 of 3 test-first.
    expect(metric(html, 'test-first')).toMatch(/^33% \(1 of 3\)/);

    const page = pageVerdicts(html);
    expect([...page.keys()]).toEqual(report.commits.map((c) => c.sha));
    for (const c of report.commits)
      expect(page.get(c.sha), c.header).toEqual(c.verdicts.map((v) => [v.rule, v.status, v.message]));

    // The feat names the test commit it was paired with; the anchor's TENSION lines and the bypass reason are shown.
    const test = report.commits.find((c) => c.header === 'test(report): the greeting is polite')!;
    const feat = report.commits.find((c) => c.header === 'feat(report): greet politely')!;
    const featSection = html.split('<section class="commit"').find((s) => s.includes(`data-sha="${feat.sha}"`))!;
    expect(featSection).toContain(`href="#c-${test.sha}"`);
    expect(html).toContain('CITED_1_STAYS_TRUE');
    expect(html).toContain('release &lt;blocker&gt; &amp; co');
    expect(html).toContain('exploratory spike, thrown away');
    // The timeline: an SVG with one lane for the session, and the merge marked.
    expect(html).toMatch(/<svg[^>]*class="timeline"/);
    expect(html).toContain('class="merge"');
  });

  it('a commit message cannot inject markup: <script> in a header is escaped everywhere, the page loads nothing from outside', () => {
    const { repo, clone } = history();
    const out = path.join(tempDir('hestai-report-'), 'report.html');
    expect(repo.hestai(['report', '--out', out], { cwd: clone }).status).toBe(0);
    const html = fs.readFileSync(out, 'utf8');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot;');
    // Only the page's own filter script; nothing loaded from the network.
    expect(html.match(/<script/g)?.length ?? 0).toBeLessThanOrEqual(1);
    expect(html).not.toMatch(/<(script|link|img|iframe)[^>]*\s(src|href)=/i);
    expect(html).not.toMatch(/url\(\s*['"]?https?:/i);
  });

  it('--from/--to choose the range as verify does, and --format markdown prints the step summary', () => {
    const { repo, clone } = history();
    const from = repo.git(['rev-parse', 'origin/main'], { cwd: clone }).stdout.trim();
    const to = repo.git(['rev-parse', 'HEAD~1'], { cwd: clone }).stdout.trim();
    const { report } = repo.verifyJson(clone, ['--from', from, '--to', to]);
    const out = path.join(tempDir('hestai-report-'), 'r.html');
    expect(repo.hestai(['report', '--from', from, '--to', to, '--out', out], { cwd: clone }).status).toBe(0);
    const html = fs.readFileSync(out, 'utf8');
    expect([...pageVerdicts(html).keys()]).toEqual(report.commits.map((c) => c.sha));

    const md = repo.hestai(['report', '--format', 'markdown', '--from', from, '--to', to], { cwd: clone });
    expect(md.status, md.stderr).toBe(0);
    expect(md.stdout).toContain(`| commits | ${report.commits.length} |`);
    expect(md.stdout).toContain(`| errors | ${report.errors} |`);
    expect(md.stdout).toContain(`| warnings | ${report.warnings} |`);
    const failing = (report as VerifyReport).commits.filter((c) => c.verdicts.some((v) => v.status === 'fail'));
    for (const c of failing) expect(md.stdout).toContain(`| \`${c.sha.slice(0, 7)}\` |`);
    // Markdown from a commit message is neutralised: no raw HTML tag, no table break.
    expect(md.stdout).not.toContain('<script>');
  });
  it('in GitHub Actions the page judges the range verify judges: the base comes from the event, and --policy is passed on', () => {
    const { repo, clone } = history();
    const feat = repo.git(['log', '-1', '--format=%H', '--grep', '^feat(report): greet politely'], { cwd: clone });
    const before = feat.stdout.trim();
    const event = path.join(tempDir('hestai-event-'), 'event.json');
    fs.writeFileSync(
      event,
      JSON.stringify({
        before,
        after: repo.git(['rev-parse', 'HEAD'], { cwd: clone }).stdout.trim(),
        repository: { default_branch: 'main' },
      }),
    );
    const env = { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: event };
    for (const extra of [[], ['--policy', 'HEAD']]) {
      const verified = repo.hestai(['verify', '--format', 'json', ...extra], { cwd: clone, env });
      const report = JSON.parse(verified.stdout) as VerifyReport & { range: { from: string } };
      expect(report.range.from).toBe(before);
      const out = path.join(tempDir('hestai-report-'), 'r.html');
      const run = repo.hestai(['report', '--out', out, ...extra], { cwd: clone, env });
      expect(run.status, run.stderr).toBe(0);
      const html = fs.readFileSync(out, 'utf8');
      expect([...pageVerdicts(html).keys()]).toEqual(report.commits.map((c) => c.sha));
      expect(metric(html, 'errors')).toBe(String(report.errors));
    }
  });
});
