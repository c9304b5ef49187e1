import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchoredRepo } from '../helpers/anchored-repo.js';
import { chromium } from '../helpers/chromium.js';
import { tempDir } from '../helpers/git-repo.js';
import { everyVerdictKind, metric, pageVerdicts } from '../helpers/report-history.js';

// Issue 31, item 5: the page in a real browser (headless Chromium from a file): no console message at all,
// the summary numbers and every commit's verdicts in the DOM Chromium built, and a screenshot that is not
// blank (compared with the screenshot of an empty page of the same size).

describe('hestai report in headless Chromium', () => {
  it('opens from a file without a console message; the DOM holds verify`s numbers; the screenshot is not blank', () => {
    const repo = anchoredRepo();
    const clone = everyVerdictKind(repo);
    const { report } = repo.verifyJson(clone);
    const dir = tempDir('hestai-report-browser-');
    const page = path.join(dir, 'report.html');
    expect(repo.hestai(['report', '--out', page], { cwd: clone }).status).toBe(0);

    // The detector works: a page with a console error and a script error is caught.
    const broken = path.join(dir, 'broken.html');
    fs.writeFileSync(broken, '<!doctype html><p>x</p><script>console.error("boom"); missing();</script>');
    const caught = chromium(broken, ['--dump-dom']);
    expect(caught.console.join('\n')).toContain('boom');
    expect(caught.console.join('\n')).toContain('missing is not defined');

    const dom = chromium(page, ['--dump-dom']);
    expect(dom.status, dom.stderr).toBe(0);
    expect(dom.console).toEqual([]);
    expect(metric(dom.stdout, 'commits')).toBe(String(report.commits.length));
    expect(metric(dom.stdout, 'errors')).toBe(String(report.errors));
    expect(metric(dom.stdout, 'warnings')).toBe(String(report.warnings));
    const verdicts = pageVerdicts(dom.stdout);
    for (const c of report.commits)
      expect(verdicts.get(c.sha)?.map(([rule, status]) => `${rule}:${status}`)).toEqual(
        c.verdicts.map((v) => `${v.rule}:${v.status}`),
      );

    const shot = path.join(dir, 'report.png');
    const taken = chromium(page, [`--screenshot=${shot}`]);
    expect(taken.status, taken.stderr).toBe(0);
    expect(taken.console).toEqual([]);
    const empty = path.join(dir, 'empty.html');
    fs.writeFileSync(empty, '<!doctype html><title>empty</title>');
    const blank = path.join(dir, 'empty.png');
    expect(chromium(empty, [`--screenshot=${blank}`]).status).toBe(0);
    const png = fs.readFileSync(shot);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.length).toBeGreaterThan(10 * fs.statSync(blank).size);
  });
});
