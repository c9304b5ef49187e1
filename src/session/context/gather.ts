import fs from 'node:fs';
import path from 'node:path';
import type { WorkspaceConfig } from '../../config/schema.js';
import { branchStatusAsync, diffSummaryAsync, recentCommitsAsync, trackedFilesAsync } from '../../git/async.js';
import type { BranchStatus } from '../../git/parse-status-v2.js';
import type { DiffSummary } from '../../git/parse-diff.js';
import { relativeToRoot } from '../../paths.js';
import type { Workspace } from '../../workspace.js';
import { resolveFocus, focusFromBranch, type ResolvedFocus } from '../rules/focus.js';
import { findAdrFiles, parseAdr, type AdrConstraint } from './adr.js';
import { fetchIssue, githubContext, probeGh, type GithubContext } from './github.js';
import { runQualityGates, type QualityGateResult } from './quality-gates.js';
import type { ContextCandidate } from './rank.js';
import { summarizeStructure, type StructureSummary } from './structure.js';

/** Git state at clock-in (CI-I2: read fresh every time). */
export interface GitContext {
  branch: string | null;
  head: string | null;
  upstream: string | null;
  ahead: number | null;
  behind: number | null;
  changes: { staged: number; modified: number; untracked: number; conflicted: number; files: string[] };
  recent_commits: { sha: string; header: string; date: string }[];
  /** The working tree against HEAD, bounded (STEP_5; see `workingTreeDiff`). */
  diff: DiffSummary;
}

/** Everything gathered for one clock-in or refresh. */
export interface GatheredContext {
  git: GitContext;
  focus: ResolvedFocus;
  human_context: string[];
  adr_constraints: AdrConstraint[];
  structure: StructureSummary;
  quality_gates: QualityGateResult[];
  github: GithubContext;
  /** Files offered to the selection (not part of the response). */
  candidates: ContextCandidate[];
}

const RECENT_COMMITS = 20;
const MAX_ADRS = 50;
const RUNTIME_STATE = /^\.hestai\/(sessions|audit|context\/state)\//;
const PROJECT_DOC = /^(readme|contributing|agents|claude|architecture)(\.[a-z]+)?$/i;

function readSmall(file: string, max = 64 * 1024): string | null {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(max);
      const n = fs.readSync(fd, buffer, 0, max, 0);
      return buffer.subarray(0, n).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
}

const DIFF_PATHSPEC_LIMIT = 100;

function emptyDiff(available: boolean, reason: string | null): DiffSummary {
  return { available, reason, files: 0, hunks: 0, added: 0, removed: 0, binary: 0, truncated: false, top: [] };
}

/**
 * STEP_5's diff, costing a process only when there is something to read: nothing when status shows no
 * tracked change, else `git diff HEAD` over the changed paths (or the whole tree past 100 of them). A
 * failing diff is reported in the summary, never fatal.
 */
async function workingTreeDiff(root: string, status: BranchStatus): Promise<DiffSummary> {
  if (status.head === null) return emptyDiff(false, 'no commits yet');
  const changed = status.entries.filter((e) => e.code !== '??' && e.code !== '!!').map((e) => e.path);
  if (changed.length === 0) return emptyDiff(true, null);
  try {
    return await diffSummaryAsync(root, changed.length <= DIFF_PATHSPEC_LIMIT ? changed : null);
  } catch (error) {
    return emptyDiff(false, `git diff failed: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** The human-authored context files in `.hestai/context/` (not the generated `state/`). */
function humanContextFiles(workspace: Workspace): string[] {
  try {
    return fs
      .readdirSync(workspace.paths.context, { withFileTypes: true })
      .filter((e) => e.isFile() && /\.md$/i.test(e.name))
      .map((e) => relativeToRoot(workspace.paths, path.join(workspace.paths.context, e.name)))
      .sort();
  } catch {
    return [];
  }
}

/** Pure: a predicate for paths never offered as context (runtime state and `context_paths.exclude`). */
function excluder(exclude: readonly string[]): (file: string) => boolean {
  const dirs = exclude.map((p) => p.replace(/\/+$/, ''));
  const prefixes = dirs.map((d) => `${d}/`);
  return (file) =>
    (file.startsWith('.hestai/') && RUNTIME_STATE.test(file)) ||
    dirs.includes(file) ||
    prefixes.some((p) => file.startsWith(p));
}

/**
 * Gathers fresh context with few processes, concurrently: one `git status --porcelain=v2 --branch`,
 * one `git log -n 20`, one `git ls-files`, the quality gates (only when configured, each with a timeout)
 * and `gh` (only when installed and authenticated, with timeouts). Files read: `.hestai/context/`, ADRs.
 */
export async function gatherContext(input: {
  workspace: Workspace;
  config: WorkspaceConfig;
  env: NodeJS.ProcessEnv;
  explicitFocus?: string | undefined;
  /** Refresh keeps the session's focus instead of resolving it again. */
  fixedFocus?: ResolvedFocus;
}): Promise<GatheredContext> {
  const { workspace, config, env } = input;
  const root = workspace.root;
  const gh = config.github;
  const ghTimeout = gh.timeout_ms;
  const wantGh = gh.issue_search || gh.pr_context;
  const statusRead = branchStatusAsync(root);
  const [status, diff, commits, tracked, probe, gates] = await Promise.all([
    statusRead,
    statusRead.then((st) => workingTreeDiff(root, st)),
    recentCommitsAsync(root, RECENT_COMMITS),
    trackedFilesAsync(root),
    wantGh
      ? probeGh({ cwd: root, env, timeoutMs: ghTimeout })
      : Promise.resolve({ ok: false as const, reason: 'disabled in .hestai_workspace.yaml' }),
    config.quality_gates.length > 0 ? runQualityGates(config.quality_gates, root, env) : Promise.resolve([]),
  ]);

  const fromBranch = focusFromBranch(status.branch);
  const ghOptions = { cwd: root, env, timeoutMs: ghTimeout, issueSearch: gh.issue_search, prContext: gh.pr_context };
  const branchIssue =
    probe.ok && !input.fixedFocus && !input.explicitFocus && fromBranch?.kind === 'github_issue'
      ? await fetchIssue(probe.gh, fromBranch.issue, ghOptions)
      : null;
  const focus =
    input.fixedFocus ??
    resolveFocus({ explicit: input.explicitFocus, branch: status.branch, issueTitle: branchIssue?.title ?? null });
  const github: GithubContext = probe.ok
    ? await githubContext(probe.gh, focus.value, branchIssue, ghOptions)
    : { available: false, reason: probe.reason, related_issues: [], active_pr: null };

  const changes = { staged: 0, modified: 0, untracked: 0, conflicted: 0, files: [] as string[] };
  for (const e of status.entries) {
    if (e.code === '??') changes.untracked++;
    else if (e.code === '!!') continue;
    else if (e.code.includes('U') || e.code === 'AA' || e.code === 'DD') changes.conflicted++;
    else {
      if (e.code[0] !== '.' && e.code[0] !== ' ') changes.staged++;
      if (e.code[1] !== '.' && e.code[1] !== ' ') changes.modified++;
    }
    if (changes.files.length < 20) changes.files.push(e.path);
  }

  const excluded = excluder(config.context_paths.exclude);
  const human = humanContextFiles(workspace);
  const adrFiles = findAdrFiles(tracked)
    .filter((f) => !excluded(f))
    .slice(0, MAX_ADRS);
  const adrs: AdrConstraint[] = [];
  for (const file of adrFiles) {
    const text = readSmall(path.join(root, file));
    if (text !== null) adrs.push(parseAdr(file, text));
  }

  const candidates = new Map<string, ContextCandidate>();
  for (const file of human) candidates.set(file, { path: file, kind: 'human_context' });
  for (const adr of adrs)
    candidates.set(adr.path, { path: adr.path, kind: 'adr', adrText: `${adr.title} ${adr.decision ?? ''}` });
  for (const extra of config.context_paths.additional) {
    const prefix = extra.replace(/\/+$/, '');
    const under = tracked.filter((f) => f === prefix || f.startsWith(`${prefix}/`)).slice(0, 50);
    for (const file of under) if (!candidates.has(file)) candidates.set(file, { path: file, kind: 'additional' });
  }
  const recentIndex = new Map<string, number>();
  for (const commit of commits)
    for (const file of commit.files) if (!recentIndex.has(file)) recentIndex.set(file, recentIndex.size);
  const modified = new Set(status.entries.filter((e) => e.code !== '!!').map((e) => e.path));
  const add = (file: string) => {
    if (excluded(file)) return;
    const existing = candidates.get(file);
    const c: ContextCandidate = existing ?? {
      path: file,
      kind: !file.includes('/') && PROJECT_DOC.test(file) ? 'project_doc' : 'source',
    };
    const idx = recentIndex.get(file);
    if (idx !== undefined) c.recentIndex = idx;
    if (modified.has(file)) c.modified = true;
    if (!existing) candidates.set(file, c);
  };
  for (const file of tracked) add(file);
  for (const file of modified)
    if (!file.endsWith('/') && !candidates.has(file) && fs.existsSync(path.join(root, file))) add(file);

  return {
    git: {
      branch: status.branch,
      head: status.head,
      upstream: status.upstream,
      ahead: status.ahead,
      behind: status.behind,
      changes,
      recent_commits: commits.map((c) => ({ sha: c.sha, header: c.message.split('\n')[0] ?? '', date: c.authorDate })),
      diff,
    },
    focus,
    human_context: human,
    adr_constraints: adrs,
    structure: summarizeStructure(tracked),
    quality_gates: gates,
    github,
    candidates: [...candidates.values()].filter((c) => !excluded(c.path)),
  };
}
