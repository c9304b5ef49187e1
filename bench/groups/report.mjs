// Issue 31, item 3: `hestai report` over a 10,000-commit range. The page is verify's verdicts drawn, so its
// cost is measured against `hestai verify --format json` on the same range (same fixture, same process
// count), and the page must stay under 3 MB and open in a browser in under 2 s. Opening is timed inside
// headless Chromium (Debian's `chromium`): a harness page loads the report in an iframe and reports the
// time from setting its src to its load event plus a forced layout, so the browser's own start-up is not
// counted; an empty page through the same harness is the baseline.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI } from '../lib/env.mjs';
import { missing } from '../lib/hestai.mjs';
import { measureSpawn } from '../lib/measure.mjs';
import { commitsFixture } from '../fixtures/commits.mjs';
import { anchoredFixture } from '../fixtures/anchored.mjs';

const CHROMIUM = process.env.HESTAI_CHROMIUM ?? '/usr/bin/chromium';
const MB = 1024 * 1024;

const HARNESS = `<!doctype html><meta charset="utf-8"><body><pre id="t">pending</pre><script>
const f = document.createElement('iframe');
f.style.width = '1200px';
f.style.height = '900px';
const t0 = performance.now();
f.onload = () => {
  const height = f.contentDocument.body.scrollHeight;
  document.getElementById('t').textContent = 'opened ' + (performance.now() - t0).toFixed(1) + ' ms, height ' + height;
};
f.src = new URLSearchParams(location.search).get('page');
document.body.appendChild(f);
</script>`;

/** Opens `page` in the harness; returns the in-page time as wallMs (browser start-up excluded). */
function openInChromium(dir, page) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-bench-chromium-'));
  try {
    const url = `${pathToFileURL(path.join(dir, 'open.html')).href}?page=${encodeURIComponent(page)}`;
    const result = spawnSync(
      CHROMIUM,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--allow-file-access-from-files',
        `--user-data-dir=${profile}`,
        '--dump-dom',
        url,
      ],
      { encoding: 'utf8', timeout: 60_000, maxBuffer: 256 * MB },
    );
    const m = /opened ([\d.]+) ms, height (\d+)/.exec(result.stdout ?? '');
    if (!m) throw new Error(`chromium did not open ${page}: ${(result.stderr ?? '').slice(-800)}`);
    return { wallMs: Number(m[1]), rssKb: null };
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

export default function reportGroup() {
  let fx;
  let anchored;
  let dir;
  const sizes = {};
  const report = (f, out) => [CLI, 'report', '--from', f.first, '--to', 'HEAD', '--out', out];
  const prepare = () => {
    fx ??= commitsFixture();
    anchored ??= anchoredFixture('error');
    if (dir) return;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-bench-report-'));
    fs.writeFileSync(path.join(dir, 'open.html'), HARNESS);
    fs.writeFileSync(path.join(dir, 'empty.html'), '<!doctype html><title>empty</title>');
    for (const [name, f] of [
      ['commits', fx],
      ['anchored', anchored],
    ]) {
      const out = path.join(dir, `${name}.html`);
      measureSpawn(process.execPath, report(f, out), { cwd: f.repo, env: f.env });
      sizes[name] = fs.statSync(out).size;
      process.stderr.write(`[report] ${name}: ${(sizes[name] / MB).toFixed(2)} MB for 10,000 commits\n`);
    }
  };
  const skip = () =>
    missing(['report']) ?? (fs.existsSync(CHROMIUM) ? null : `${CHROMIUM} not found (apt-get install -y chromium)`);
  return {
    id: 'report',
    title: 'hestai report over 10,000 commits: build, size, open in Chromium',
    iterations: (opts) => Math.min(opts.iterations, opts.quick ? 2 : 5),
    members: [
      {
        id: 'verify-json-10k',
        label: 'hestai verify --format json, 10,000 commits',
        kind: 'baseline',
        skip,
        prepare,
        measure: () =>
          measureSpawn(process.execPath, [CLI, 'verify', '--format', 'json', '--from', fx.first, '--to', 'HEAD'], {
            cwd: fx.repo,
            env: fx.env,
          }),
      },
      {
        id: 'report-10k',
        label: 'hestai report, 10,000 commits (every one with a warning)',
        kind: 'case',
        skip,
        prepare,
        measure: () =>
          measureSpawn(process.execPath, report(fx, path.join(dir, 'c.html')), { cwd: fx.repo, env: fx.env }),
        probe: () => ({ bytes: sizes.commits }),
      },
      {
        id: 'verify-json-anchors',
        label: 'hestai verify --format json, 10,000 commits, 1,000 anchors',
        kind: 'baseline',
        skip,
        prepare,
        measure: () =>
          measureSpawn(
            process.execPath,
            [CLI, 'verify', '--format', 'json', '--from', anchored.first, '--to', 'HEAD'],
            { cwd: anchored.repo, env: anchored.env },
          ),
      },
      {
        id: 'report-anchors',
        label: 'hestai report, 10,000 commits, 1,000 sessions',
        kind: 'case',
        skip,
        prepare,
        measure: () =>
          measureSpawn(process.execPath, report(anchored, path.join(dir, 'a.html')), {
            cwd: anchored.repo,
            env: anchored.env,
          }),
        probe: () => ({ bytes: sizes.anchored }),
      },
      {
        id: 'open-empty',
        label: 'Chromium opens an empty page (harness)',
        kind: 'baseline',
        skip,
        prepare,
        measure: () => openInChromium(dir, 'empty.html'),
      },
      {
        id: 'open-10k',
        label: 'Chromium opens the 10,000-commit report',
        kind: 'case',
        skip,
        prepare,
        measure: () => openInChromium(dir, 'commits.html'),
      },
      {
        id: 'open-anchors',
        label: 'Chromium opens the 1,000-session report',
        kind: 'case',
        skip,
        prepare,
        measure: () => openInChromium(dir, 'anchored.html'),
        cleanup: () => dir && fs.rmSync(dir, { recursive: true, force: true }),
      },
    ],
    ratios: [
      { case: 'report-10k', baseline: 'verify-json-10k', metric: 'wall' },
      { case: 'report-anchors', baseline: 'verify-json-anchors', metric: 'wall' },
      { case: 'open-10k', baseline: 'open-empty', metric: 'wall' },
    ],
    absolute: [
      { case: 'open-10k', metric: 'wall', budget: { op: '<', limit: 2000 } },
      { case: 'open-anchors', metric: 'wall', budget: { op: '<', limit: 2000 } },
    ],
  };
}
