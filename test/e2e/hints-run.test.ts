import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT, tempDir, type TempRepo } from '../helpers/git-repo.js';

// Issue 28, item 2: every hint the adoption path prints is a command that runs where the user is: `npx hestai`
// in a local install (no `hestai` on PATH), `hestai` in a global one. Each is run as printed, in a fresh shell.

const COMMANDS =
  'clock-in|clock-out|anchor|init|doctor|status|ack|refresh|verify|trust|cleanup|conflict|session|check|odyssean-anchor';
/** The commands in a hint text: `eval "$(... hestai ...)"` as a whole, else `[npx ]hestai <command> [--option [value]]...`. */
const HINT = new RegExp(
  `eval "\\$\\((?:npx )?hestai [^"]*\\)"|(?<![\\w./$-])(?:npx )?hestai (?:${COMMANDS})(?: --?[a-z][a-z-]*(?: [A-Za-z0-9_./:=-]+)?)*`,
  'g',
);
const ROLES = [
  'code-review-specialist',
  'holistic-orchestrator',
  'implementation-lead',
  'requirements-steward',
  'system-steward',
  'technical-architect',
];

function hintsIn(text: string): string[] {
  return [...new Set(text.match(HINT) ?? [])];
}

/** PATH without any node_modules/.bin (vitest runs under npx, which prepends them). */
function plainPath(extra: string[] = []): string {
  return [...extra, ...(process.env['PATH'] ?? '').split(':').filter((dir) => !dir.includes('node_modules'))].join(':');
}

function shell(repo: TempRepo, env: NodeJS.ProcessEnv, script: string) {
  const run = spawnSync('sh', ['-c', script], { cwd: repo.dir, env, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}`, stdout: run.stdout };
}

/** A project that installed hestai-hooks as a dependency, as npm lays it out (package and bin links). */
function localInstall(repo: TempRepo): void {
  fs.mkdirSync(path.join(repo.dir, 'node_modules/.bin'), { recursive: true });
  fs.symlinkSync(PROJECT_ROOT, path.join(repo.dir, 'node_modules/hestai-hooks'));
  fs.symlinkSync('../hestai-hooks/dist/cli/bin.js', path.join(repo.dir, 'node_modules/.bin/hestai'));
  repo.write('.gitignore', 'node_modules/\n');
}

/**
 * Runs each hint in a fresh shell (an `eval` hint must leave HESTAI_SESSION exported to git's children), then
 * the hints those commands print (clock-in names the anchor step), once each.
 */
function runEach(repo: TempRepo, env: NodeJS.ProcessEnv, first: string[], invocation: RegExp): string[] {
  const ran: string[] = [];
  let hints = first;
  for (let depth = 0; depth < 2; depth++) {
    const printed: string[] = [];
    for (const hint of hints.filter((h) => !ran.includes(h))) {
      ran.push(hint);
      expect(hint, 'a hint names the invocation that works here').toMatch(invocation);
      const probe = hint.startsWith('eval ') ? ` && sh -c 'printf "session=%s" "$HESTAI_SESSION"'` : '';
      const run = shell(repo, env, `${hint}${probe}`);
      expect(run.status, `${hint}\n${run.output}`).toBe(0);
      expect(run.output, hint).not.toMatch(/not found|unknown option|unknown command|required option/i);
      if (probe) expect(run.stdout).toMatch(/session=[0-9a-f-]{36}$/);
      printed.push(...hintsIn(run.output));
    }
    hints = printed;
  }
  return ran;
}

describe('hints run where the user is', () => {
  it('in a local install: init and a blocked commit print npx hestai commands that run, listing the roles', () => {
    const repo = makeRepo();
    localInstall(repo);
    const env = { ...repo.env, PATH: plainPath() };
    expect(shell(repo, env, 'command -v hestai').status).not.toBe(0);
    const init = shell(repo, env, 'npx hestai init');
    expect(init.status, init.output).toBe(0);
    repo.commit('chore: adopt hestai');
    repo.write('notes.md', 'hello\n');
    repo.git(['add', 'notes.md']);
    const blocked = shell(repo, env, 'git commit -q -m "docs: notes"');
    expect(blocked.status).not.toBe(0);
    expect(blocked.output).toContain(ROLES.join(', '));
    const hints = hintsIn(`${init.output}\n${blocked.output}`);
    expect(hints.some((h) => h.startsWith('eval "$(npx hestai clock-in --role implementation-lead'))).toBe(true);
    const ran = runEach(repo, env, hints, /^(eval "\$\()?npx hestai /);
    expect(ran.some((h) => h.startsWith('npx hestai anchor --stage identity'))).toBe(true);
  });

  it('in a global install: hints print hestai and run', () => {
    const repo = makeRepo();
    const bin = tempDir('hestai-global-bin-');
    fs.symlinkSync(path.join(PROJECT_ROOT, 'dist/cli/bin.js'), path.join(bin, 'hestai'));
    const env = { ...repo.env, PATH: plainPath([bin]) };
    const init = shell(repo, env, 'hestai init');
    expect(init.status, init.output).toBe(0);
    repo.commit('chore: adopt hestai');
    repo.write('notes.md', 'hello\n');
    repo.git(['add', 'notes.md']);
    const blocked = shell(repo, env, 'git commit -q -m "docs: notes"');
    expect(blocked.status).not.toBe(0);
    const hints = hintsIn(`${init.output}\n${blocked.output}`);
    expect(hints.length).toBeGreaterThan(1);
    const ran = runEach(repo, env, hints, /^(eval "\$\()?hestai /);
    expect(ran.some((h) => h.startsWith('hestai anchor --stage identity'))).toBe(true);
  });

  it('--print-env prints an export line for sh, and a set -gx line for fish', () => {
    const repo = makeRepo();
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    const sh = repo.hestai(['clock-in', '--role', 'implementation-lead', '--print-env']);
    expect(sh.status, sh.stderr).toBe(0);
    expect(sh.stdout).toMatch(/^export HESTAI_SESSION=[0-9a-f-]{36}\n$/);
    const fish = repo.hestai(['clock-in', '--role', 'implementation-lead', '--focus', 'fish', '--print-env', 'fish']);
    expect(fish.status, fish.stderr).toBe(0);
    expect(fish.stdout).toMatch(/^set -gx HESTAI_SESSION [0-9a-f-]{36}\n$/);
  });
});

describe('roles', () => {
  it('a clock-in with a role that has no constitution here says so and lists the roles', () => {
    const repo = makeRepo();
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    const clockIn = repo.hestai(['clock-in', '--role', 'nope']);
    expect(clockIn.stdout + clockIn.stderr).toMatch(/role "nope" has no constitution/);
    expect(clockIn.stdout + clockIn.stderr).toContain(ROLES.join(', '));
  });
});

describe('hints when only pinned sessions are live', () => {
  it('the blocked commit names how to export a session with a command that runs', () => {
    const repo = makeRepo();
    localInstall(repo);
    const env = { ...repo.env, PATH: plainPath() };
    expect(shell(repo, env, 'npx hestai init').status).toBe(0);
    repo.commit('chore: adopt hestai');
    expect(shell(repo, env, 'npx hestai clock-in --role implementation-lead --print-env').status).toBe(0);
    repo.write('notes.md', 'hello\n');
    repo.git(['add', 'notes.md']);
    const blocked = shell(repo, env, 'git commit -q -m "docs: notes"');
    expect(blocked.status).not.toBe(0);
    const hints = hintsIn(blocked.output);
    expect(
      hints.some((h) => h.includes('--print-env')),
      blocked.output,
    ).toBe(true);
    runEach(repo, env, hints, /^(eval "\$\()?npx hestai /);
  });
});
