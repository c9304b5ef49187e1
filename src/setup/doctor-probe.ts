import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseDocument } from 'yaml';
import type { WorkspaceConfig } from '../config/schema.js';
import { pathInside } from '../paths.js';
import { runProcess, type ProcessResult } from '../util/run-process.js';

/**
 * hestai doctor's proof that the installed hook chain runs hestai's check: real `git commit`s in a throw-away
 * linked worktree of this repository, each of which hestai's check must refuse. Nothing tells a hook script
 * it is a probe (no variable, no marker): the commits are what an agent or a person would run. The worktree
 * is at HEAD plus this worktree's own files that define the chain (hook manager configs, `.husky/`, a
 * relative core.hooksPath, the workspace config; `node_modules` linked), and is removed afterwards, with
 * whatever commit a skipped check let through (it is on no branch).
 */

/** This worktree's files that decide which hooks run and how (copied over HEAD's). */
const CHAIN_FILES = [
  '.hestai_workspace.yaml',
  '.hestai/protocol.yaml',
  '.husky',
  'lefthook.yml',
  '.lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yaml',
  'lefthook-local.yml',
  '.lefthook-local.yml',
  '.pre-commit-config.yaml',
];

/** Variables that would change what the hooks judge (or where git looks): a commit of the probe has none. */
const DROPPED_ENV = /^(GIT_DIR|GIT_WORK_TREE|GIT_INDEX_FILE|GIT_PREFIX|GIT_COMMON_DIR|HESTAI_[A-Z_]+)$/;

const TIMEOUT_MS = 120_000;

async function git(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<ProcessResult> {
  return runProcess('git', args, { cwd, env, timeoutMs: TIMEOUT_MS });
}

const output = (r: ProcessResult) => `${r.stdout}${r.stderr}`;

/** What a hook that refused the commit printed about why: from its first error line, at most 6 lines (else its last). */
export function refusalLines(text: string): string[] {
  const lines = text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  const at = lines.findIndex((l) => /\b(error|fatal|failed|not found|cannot)\b/i.test(l));
  return at === -1 ? lines.slice(-3) : lines.slice(at, at + 6);
}
const firstLine = (r: ProcessResult) =>
  output(r)
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim() ?? '(no output)';

/** Copies this worktree's chain files (and a relative core.hooksPath inside it) over the throw-away's. */
export function overlay(root: string, wt: string, hooksPath: string | null): void {
  const rels = [...CHAIN_FILES];
  if (hooksPath !== null && !path.isAbsolute(hooksPath)) {
    const rel = pathInside(root, path.resolve(root, hooksPath));
    if (rel !== null && rel !== '.') rels.push(rel);
  }
  for (const rel of rels) {
    const from = path.join(root, rel);
    if (!fs.existsSync(from)) continue;
    const to = path.join(wt, rel);
    fs.rmSync(to, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true });
  }
  const modules = path.join(root, 'node_modules');
  if (fs.existsSync(modules) && !fs.existsSync(path.join(wt, 'node_modules')))
    fs.symlinkSync(modules, path.join(wt, 'node_modules'));
}

/** The workspace config of the throw-away with hestai's pre-commit off, so a commit reaches commit-msg. */
function preCommitOff(wt: string): void {
  const file = path.join(wt, '.hestai_workspace.yaml');
  const doc = parseDocument(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
  if (doc.contents === null) doc.contents = doc.createNode({}) as never;
  doc.setIn(['hooks', 'pre_commit'], false);
  fs.writeFileSync(file, doc.toString());
}

/** One commit through the chain: a failure message unless hestai's check refused it (its output has `proof`). */
async function tryCommit(
  wt: string,
  env: NodeJS.ProcessEnv,
  hook: string,
  message: string,
  proof: string,
  where: string,
): Promise<string | null> {
  const file = `${randomBytes(4).toString('hex')}.md`;
  fs.writeFileSync(path.join(wt, file), `${message}\n`);
  const add = await git(wt, ['add', '-A'], env);
  if (add.status !== 0) return `${hook}: could not stage a change to try a commit: ${firstLine(add)}`;
  const commit = await git(wt, ['commit', '-q', '-m', message], env);
  if (output(commit).includes(proof) && commit.status !== 0) return null;
  if (commit.timedOut) return `${hook}: a commit did not finish within ${TIMEOUT_MS / 1000} s`;
  if (commit.status === 0)
    return `${hook}: hestai's part never runs: a commit hestai must refuse went through (${where})`;
  return `${hook}: ${REFUSED_BEFORE} (exit ${commit.status}, ${where}):\n${refusalLines(output(commit))
    .map((l) => `       | ${l}`)
    .join('\n')}`;
}

/** How a probe failure starts when something in the chain refused the commit before hestai ran. */
export const REFUSED_BEFORE = 'the hook refused the commit before hestai ran; it said';

/** A throw-away worktree older than this was left by a doctor that was interrupted (a probe takes seconds). */
const STALE_MS = 15 * 60 * 1000;
const PROBE_DIR = /^hestai-doctor-[^/]+$/;

/**
 * Removes the throw-away worktrees interrupted doctors left in this repository (listed by git, under the
 * temporary directory, older than STALE_MS: a recent one may be another doctor's, still running), then lets
 * git forget the ones whose directory is gone.
 */
async function removeStaleProbes(root: string, env: NodeJS.ProcessEnv): Promise<void> {
  const list = await git(root, ['worktree', 'list', '--porcelain'], env);
  const tmp = fs.realpathSync(os.tmpdir());
  for (const line of list.stdout.split('\n')) {
    if (!line.startsWith('worktree ')) continue;
    const wt = line.slice('worktree '.length);
    const dir = path.dirname(wt);
    if (path.basename(wt) !== 'wt' || path.dirname(dir) !== tmp || !PROBE_DIR.test(path.basename(dir))) continue;
    let age: number;
    try {
      age = Date.now() - fs.statSync(dir).mtimeMs;
    } catch {
      continue; // gone already: prune below
    }
    if (age < STALE_MS) continue;
    await git(root, ['worktree', 'remove', '--force', wt], env);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  await git(root, ['worktree', 'prune'], env);
}

/**
 * Tries two commits hestai's check must refuse, through the chain git runs: one naming a session that does
 * not exist (pre-commit), one with a header that is not a Conventional Commit (commit-msg, with pre-commit
 * off in the throw-away's config). Returns each hook whose chain let it through or never reached hestai.
 */
export async function probeHookChain(
  root: string,
  hooksDir: string,
  hooksPath: string | null,
  config: WorkspaceConfig,
  env: NodeJS.ProcessEnv,
): Promise<string[]> {
  const clean = Object.fromEntries(Object.entries(env).filter(([k]) => !DROPPED_ENV.test(k)));
  await removeStaleProbes(root, clean);
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-doctor-')));
  const wt = path.join(tmp, 'wt');
  const noHooks = path.join(tmp, 'no-hooks');
  fs.mkdirSync(noHooks);
  const failures: string[] = [];
  try {
    const add = await git(
      root,
      ['-c', `core.hooksPath=${noHooks}`, 'worktree', 'add', '-q', '--detach', wt, 'HEAD'],
      clean,
    );
    if (add.status !== 0)
      return [`hooks: doctor could not make a throw-away worktree to try a commit in: ${firstLine(add)}`];
    overlay(root, wt, hooksPath);
    if (config.hooks.pre_commit && (config.anchor.required || config.protocol.enforce)) {
      const session = randomUUID();
      const failure = await tryCommit(
        wt,
        { ...clean, HESTAI_SESSION: session },
        'pre-commit',
        `docs: ${randomBytes(3).toString('hex')}`,
        session,
        path.join(hooksDir, 'pre-commit'),
      );
      if (failure !== null) failures.push(failure);
    }
    if (config.hooks.commit_msg) {
      preCommitOff(wt);
      const header = `update ${randomBytes(3).toString('hex')}`;
      const failure = await tryCommit(
        wt,
        clean,
        'commit-msg',
        header,
        `"${header}" is not a Conventional Commit header`,
        path.join(hooksDir, 'commit-msg'),
      );
      if (failure !== null) failures.push(failure);
    }
  } finally {
    await git(root, ['worktree', 'remove', '--force', wt], clean);
    fs.rmSync(tmp, { recursive: true, force: true });
    await git(root, ['worktree', 'prune'], clean);
  }
  return failures;
}
