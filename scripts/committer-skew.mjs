#!/usr/bin/env node
// Measures how far committer time goes back from a commit's first parent to the commit, over every commit
// reachable from HEAD, in the given repositories (bare or not): the figures behind COMMITTER_SKEW_HOURS
// (src/verify/committer-time.ts; docs/enforcement.md, "Committer time"). Not part of the test suite.
//   node scripts/committer-skew.mjs <repo> [<repo> ...]
import { execFileSync } from 'node:child_process';

const git = (repo, args) => execFileSync('git', ['-C', repo, ...args], { maxBuffer: 1 << 30 }).toString();

let total = 0;
const steps = [];
for (const repo of process.argv.slice(2)) {
  const time = new Map();
  const first = new Map();
  for (const line of git(repo, ['log', '--format=%H %ct %P', 'HEAD']).trim().split('\n')) {
    const [sha, ct, parent] = line.split(' ');
    time.set(sha, Number(ct));
    if (parent) first.set(sha, parent);
  }
  total += first.size;
  for (const [sha, parent] of first) {
    const back = time.get(parent) - time.get(sha);
    if (back > 0) steps.push({ repo, sha: sha.slice(0, 10), back });
  }
}
steps.sort((a, b) => a.back - b.back);
const over = (seconds) => steps.filter((s) => s.back > seconds).length;
console.log(`${total} commits with a parent; ${steps.length} committed before their first parent`);
for (const s of steps) console.log(`  ${(s.back / 60).toFixed(1).padStart(9)} min  ${s.repo} ${s.sha}`);
console.log(`over 5 min: ${over(300)}, over 1 h: ${over(3600)}, over 24 h: ${over(86400)}`);
