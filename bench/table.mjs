#!/usr/bin/env node
// Prints bench/results/latest.json (or the file given) as the Markdown tables the README's Performance
// section carries: medians per member, then ratios and absolute budgets with verdicts.
import fs from 'node:fs';
import path from 'node:path';
import { RESULTS_DIR, ROOT } from './lib/env.mjs';

// `--readme` writes the rows with a budget between the bench-table markers of bench/README.md instead of
// printing every table (the page stays short; the full tables are one `node bench/table.mjs` away).
const args = process.argv.slice(2);
const toReadme = args.includes('--readme');
const file = args.find((a) => !a.startsWith('--')) ?? path.join(RESULTS_DIR, 'latest.json');
const run = JSON.parse(fs.readFileSync(file, 'utf8'));
const f = (x, d = 1) => (x === null || x === undefined ? '—' : x.toFixed(d));
const m = run.machine;
const labels = {};
for (const [id, r] of Object.entries(run.results)) labels[id.slice(id.indexOf('/') + 1)] = r.label;
for (const s of run.skipped) labels[s.id] = s.label;

const out = [];
out.push(
  `Measured ${run.date.slice(0, 10)} on ${m.cpus} × ${m.cpu_model}, ${m.memory_gb} GB, ${m.platform}, Node ${m.node}, git ${m.git}`,
);
out.push(
  // Runs since bench/lib/rounds.mjs keep null for a count not given on the command line (the defaults apply).
  `with \`${run.command ?? 'npm run bench'}\` (${run.options.iterations ?? (run.options.quick ? 3 : 15)} interleaved iterations after ${run.options.warmups ?? (run.options.quick ? 1 : 2)} warm-ups unless a group sets its own).`,
  '',
);
out.push(
  '| group | member | wall ms, median (p25–p75) | peak RSS MB, median (p25–p75) | n |',
  '| --- | --- | ---: | ---: | ---: |',
);
for (const [id, r] of Object.entries(run.results)) {
  const d = r.wall.median < 10 ? 2 : 1;
  out.push(
    `| ${id.slice(0, id.indexOf('/'))} | ${r.label.replaceAll('|', '\\|')} | ${f(r.wall.median, d)} (${f(r.wall.p25, d)}–${f(r.wall.p75, d)}) | ${r.rss ? `${f(r.rss.median)} (${f(r.rss.p25)}–${f(r.rss.p75)})` : '—'} | ${r.wall.n} |`,
  );
}
for (const s of run.skipped) out.push(`| ${s.group} | ${s.label} | skipped: ${s.reason.replaceAll('`', '')} | | |`);
const header = [
  '| comparison | median of per-pair ratios (p25–p75) | budget | verdict |',
  '| --- | ---: | ---: | --- |',
];
const budgeted = [];
out.push('', ...header);
const budget = (b) => (b ? `${b.op === '<' ? '<' : '≤'} ${b.limit}` : '');
for (const r of run.ratios) {
  if (!r.summary && !r.budget) continue;
  const name = `${labels[r.case] ?? r.case} ÷ ${labels[r.baseline] ?? r.baseline}${r.metric === 'rss' ? ' (peak RSS)' : ''}`;
  const s = r.summary;
  const row = `| ${name.replaceAll('|', '\\|')} | ${s ? `${f(s.median, 2)}× (${f(s.p25, 2)}–${f(s.p75, 2)})` : '—'} | ${budget(r.budget)} | ${r.verdict} |`;
  out.push(row);
  if (r.budget) budgeted.push(row);
}
for (const a of run.absolutes) {
  if (!a.summary && !a.budget) continue;
  const s = a.summary;
  const row = `| ${labels[a.case] ?? a.case} (absolute) | ${s ? `${f(s.median, 2)} ms (${f(s.p25, 2)}–${f(s.p75, 2)})` : '—'} | ${a.budget ? `${budget(a.budget)} ms` : ''} | ${a.verdict} |`;
  out.push(row);
  if (a.budget) budgeted.push(row);
}
if (toReadme) {
  const readme = path.join(ROOT, 'bench', 'README.md'); // the Performance page carries the tables
  const text = fs.readFileSync(readme, 'utf8');
  const start = '<!-- bench-table:start -->';
  const end = '<!-- bench-table:end -->';
  if (!text.includes(start) || !text.includes(end)) throw new Error(`bench/README.md has no ${start} … ${end} markers`);
  const before = text.slice(0, text.indexOf(start) + start.length);
  const after = text.slice(text.indexOf(end));
  fs.writeFileSync(readme, `${before}\n${[out[0], out[1], '', ...header, ...budgeted].join('\n')}\n${after}`);
  console.log('bench/README.md: Performance tables updated');
} else {
  console.log(out.join('\n'));
}
