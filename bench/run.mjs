#!/usr/bin/env node
// `npm run bench`: measures hestai-hooks against its peers and the machine's floor in one run. Every group
// runs its members interleaved (A B … then … B A) after warm-ups; ratios are computed pair by pair.
// Options: --quick (few iterations: a smoke test), --only <id>[,<id>] (group or member ids),
// --iterations N, --warmups N, --no-save.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { RESULTS_DIR, ROOT } from './lib/env.mjs';
import { HAS_GNU_TIME, HAS_HYPERFINE } from './lib/measure.mjs';
import { absoluteOf, budgetTable, deltaTable, memberTable, ratioOf, summarizeMember } from './lib/report.mjs';
import { roundsOf } from './lib/rounds.mjs';
import { compareRuns } from './lib/stats.mjs';
import commitGroup from './groups/commit.mjs';
import hooksGroup from './groups/hooks.mjs';
import verifyGroup from './groups/verify.mjs';
import verifyMillionGroup from './groups/verify-million.mjs';
import receiveGroup from './groups/receive.mjs';
import verifyShapesGroup from './groups/verify-shapes.mjs';
import clockInGroup from './groups/clock-in.mjs';
import anchorGroup from './groups/anchor.mjs';
import deepGroup from './groups/deep.mjs';
import { mcpColdGroup, mcpWarmGroup } from './groups/mcp.mjs';
import { mcpCallsGroup } from './groups/mcp-calls.mjs';
import startupGroup from './groups/startup.mjs';
import measuresGroup from './groups/measures.mjs';
import agentGroup from './groups/agent.mjs';
import protocolGroup from './groups/protocol.mjs';
import reportGroup from './groups/report.mjs';

function parseArgs(argv) {
  const opts = { quick: false, only: null, iterations: null, warmups: null, save: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') opts.quick = true;
    else if (a === '--no-save') opts.save = false;
    else if (a === '--only') opts.only = argv[++i]?.split(',');
    else if (a === '--iterations') opts.iterations = Number(argv[++i]);
    else if (a === '--warmups') opts.warmups = Number(argv[++i]);
    else if (a === '--help' || a === '-h') {
      console.log(
        'usage: node bench/run.mjs [--quick] [--only group|member[,…]] [--iterations N] [--warmups N] [--no-save]',
      );
      process.exit(0);
    } else {
      console.error(`bench: unknown option ${a}\nhint: node bench/run.mjs --help`);
      process.exit(2);
    }
  }
  for (const key of ['iterations', 'warmups']) {
    if (opts[key] !== null && !(Number.isInteger(opts[key]) && opts[key] >= (key === 'iterations' ? 1 : 0))) {
      console.error(`bench: --${key} needs a whole number`);
      process.exit(2);
    }
  }
  return opts; // iterations/warmups stay null unless given: see roundsOf
}

// As on a user's machine: NODE_EXTRA_CA_CERTS (set on some CI and sandbox machines) costs every node process a
// certificate read, hooks and baselines alike.
delete process.env.NODE_EXTRA_CA_CERTS;

const log = (msg) => process.stderr.write(`${msg}\n`);

function machine() {
  const gitVersion = spawnSync('git', ['--version'], { encoding: 'utf8' })
    .stdout.trim()
    .replace(/^git version /, '');
  return {
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model ?? 'unknown',
    memory_gb: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
    git: gitVersion,
    rss_source: HAS_GNU_TIME ? '/usr/bin/time %M' : 'none',
    hyperfine: HAS_HYPERFINE,
  };
}

async function runGroup(group, opts) {
  const named = (m) =>
    Boolean(opts.only) &&
    (opts.only.includes(group.id) || opts.only.includes(m.id) || opts.only.includes(`${group.id}/${m.id}`));
  // An opt-in group (a fixture that takes minutes to build) runs only when --only names it.
  const wanted = (m) => named(m) || (!opts.only && !group.optIn);
  const members = [];
  const skipped = [];
  for (const m of group.members) {
    if (!wanted(m)) continue;
    const reason = m.skip ? await m.skip() : null;
    if (reason) skipped.push({ id: m.id, label: m.label, reason });
    else members.push(m);
  }
  // Baselines run even while the cases they anchor are not built yet: the floor is measured every run.
  if (members.length === 0) return { members, skipped, samples: {} };
  for (const m of members) await m.prepare?.();
  const { warmups, iterations } = roundsOf(group, opts);
  const samples = Object.fromEntries(members.map((m) => [m.id, { wallMs: [], rssKb: [] }]));
  log(`[${group.id}] ${members.map((m) => m.id).join(', ')}: ${warmups} warm-up + ${iterations} iterations`);
  let seq = 0;
  for (let i = 0; i < warmups + iterations; i++) {
    const order = group.order === 'fixed' || i % 2 === 0 ? members : [...members].reverse();
    for (const m of order) {
      seq += 1;
      await m.setup?.(seq);
      const sample = await m.measure(seq);
      if (i >= warmups) {
        samples[m.id].wallMs.push(sample.wallMs);
        samples[m.id].rssKb.push(sample.rssKb);
      }
    }
  }
  const probes = {};
  for (const m of members) if (m.probe) probes[m.id] = await m.probe();
  for (const m of members) await m.cleanup?.();
  return { members, skipped, samples, probes };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const groups = [
    startupGroup(),
    commitGroup(),
    hooksGroup(),
    verifyGroup(),
    verifyShapesGroup(),
    verifyMillionGroup(),
    receiveGroup(),
    clockInGroup(),
    anchorGroup(),
    deepGroup(),
    mcpColdGroup(),
    mcpWarmGroup(),
    mcpCallsGroup(),
    measuresGroup(),
    agentGroup(),
    protocolGroup(),
    reportGroup(),
  ];
  const command = ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');
  const run = {
    version: 1,
    date: new Date().toISOString(),
    command,
    machine: machine(),
    options: opts,
    results: {},
    ratios: [],
    absolutes: [],
    skipped: [],
    errors: [],
  };
  const rows = [];
  const labels = {};
  const notes = [];
  for (const group of groups) {
    let outcome;
    try {
      outcome = await runGroup(group, opts);
    } catch (error) {
      log(`[${group.id}] ERROR: ${error.stack ?? error.message}`);
      run.errors.push({ group: group.id, message: String(error.message ?? error) });
      for (const m of group.members) await Promise.resolve(m.cleanup?.()).catch(() => {});
      continue;
    }
    const summaries = {};
    for (const m of outcome.members) {
      const s = summarizeMember(outcome.samples[m.id]);
      summaries[m.id] = s;
      labels[m.id] = m.label;
      run.results[`${group.id}/${m.id}`] = {
        label: m.label,
        kind: m.kind,
        ...s,
        probe: outcome.probes?.[m.id],
        samples: outcome.samples[m.id],
      };
      if (outcome.probes?.[m.id]?.git_processes)
        notes.push(
          `${m.label}: ${outcome.probes[m.id].git_processes.length} git process(es): ${outcome.probes[m.id].git_processes.join(' | ')}`,
        );
      rows.push({ group: group.id, label: m.label, ...s });
    }
    for (const sk of outcome.skipped) {
      labels[sk.id] = sk.label;
      run.skipped.push({ group: group.id, ...sk });
      rows.push({ group: group.id, label: sk.label, skipped: sk.reason });
    }
    if (outcome.members.length === 0 && outcome.skipped.length === 0) continue;
    for (const spec of group.ratios ?? []) run.ratios.push(ratioOf(group.id, spec, outcome.samples));
    for (const spec of group.absolute ?? []) run.absolutes.push(absoluteOf(group.id, spec, summaries));
  }

  const m = run.machine;
  console.log(
    `\nhestai-hooks bench — ${m.cpus} × ${m.cpu_model}, ${m.memory_gb} GB, ${m.platform}, node ${m.node}, git ${m.git}`,
  );
  console.log(`RSS from ${m.rss_source}; ratios are medians of per-pair ratios (each pair ran back to back).\n`);
  console.log(memberTable(rows));
  console.log('');
  console.log(budgetTable(run.ratios, run.absolutes, labels));
  if (notes.length) console.log(`\n${notes.join('\n')}`);
  const failed = [...run.ratios, ...run.absolutes].filter((r) => r.verdict === 'FAIL');
  if (run.errors.length)
    console.log(`\n${run.errors.length} group(s) failed to run: ${run.errors.map((e) => e.group).join(', ')}`);

  if (opts.save) {
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    const latest = path.join(RESULTS_DIR, 'latest.json');
    if (fs.existsSync(latest)) {
      const previous = JSON.parse(fs.readFileSync(latest, 'utf8'));
      fs.renameSync(latest, path.join(RESULTS_DIR, 'previous.json'));
      console.log(`\nchange since the previous run (${previous.date}):`);
      console.log(deltaTable(compareRuns(previous, run)));
    }
    fs.writeFileSync(latest, `${JSON.stringify(run, null, 2)}\n`);
    console.log(`\nresults: ${path.relative(ROOT, latest)}`);
  }
  const verdicts = [...run.ratios, ...run.absolutes].map((r) => r.verdict).filter(Boolean);
  const count = (v) => verdicts.filter((x) => x === v).length;
  console.log(
    `\nbudgets: ${count('PASS')} PASS, ${count('FAIL')} FAIL, ${count('SKIP')} SKIP (not built yet); ${run.skipped.length} member(s) skipped.`,
  );
  process.exitCode = run.errors.length > 0 ? 2 : failed.length > 0 ? 1 : 0;
}

await main();
