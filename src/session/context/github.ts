import { findOnPath, runProcess } from '../../util/run-process.js';
import { focusTokens } from './rank.js';

export interface GithubIssue {
  number: number;
  title: string;
  state: string;
  url: string;
  labels: string[];
}

export interface GithubPr {
  number: number;
  title: string;
  state: string;
  url: string;
}

/** Seed 000 `github_context`, plus whether `gh` could be used and, if not, why. */
export interface GithubContext {
  available: boolean;
  reason?: string;
  related_issues: GithubIssue[];
  active_pr: GithubPr | null;
}

export interface GithubOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  issueSearch: boolean;
  prContext: boolean;
}

function asIssue(value: unknown): GithubIssue | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v['number'] !== 'number' || typeof v['title'] !== 'string') return null;
  const labels = Array.isArray(v['labels'])
    ? (v['labels'] as unknown[])
        .map((l) => (typeof l === 'object' && l !== null ? (l as Record<string, unknown>)['name'] : l))
        .filter((l): l is string => typeof l === 'string')
    : [];
  return {
    number: v['number'],
    title: v['title'],
    state: String(v['state'] ?? ''),
    url: String(v['url'] ?? ''),
    labels,
  };
}

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The outcome of checking `gh`: usable, or the reason enrichment is skipped. */
export type GhProbe = { ok: true; gh: string } | { ok: false; reason: string };

/** Is `gh` installed (found on PATH without starting a process) and authenticated (`gh auth status`)? */
export async function probeGh(options: Pick<GithubOptions, 'cwd' | 'env' | 'timeoutMs'>): Promise<GhProbe> {
  const gh = findOnPath('gh', options.env);
  if (gh === null) return { ok: false, reason: 'gh is not installed' };
  const auth = await runProcess(gh, ['auth', 'status'], options);
  if (auth.timedOut) return { ok: false, reason: `gh auth status timed out after ${options.timeoutMs} ms` };
  if (auth.status !== 0) return { ok: false, reason: 'gh is not authenticated (run gh auth login)' };
  return { ok: true, gh };
}

/** `gh issue view N`: the issue's title and facts, or null. */
export async function fetchIssue(gh: string, issue: number, options: GithubOptions): Promise<GithubIssue | null> {
  const r = await runProcess(gh, ['issue', 'view', String(issue), '--json', 'number,title,state,url,labels'], options);
  return r.status === 0 ? asIssue(json(r.stdout)) : null;
}

/**
 * GitHub enrichment (seed 000 step 5): the branch's issue, open issues matching the focus and the
 * branch's open pull request. Every call has a timeout; a failure (rate limit, network) skips that part.
 */
export async function githubContext(
  gh: string,
  focus: string,
  branchIssue: GithubIssue | null,
  options: GithubOptions,
): Promise<GithubContext> {
  const words = focusTokens(focus).slice(0, 5);
  const ask = (args: string[]) => runProcess(gh, args, options);
  const [list, pr] = await Promise.all([
    options.issueSearch && words.length > 0
      ? ask([
          'issue',
          'list',
          '--search',
          words.join(' '),
          '--state',
          'open',
          '--limit',
          '5',
          '--json',
          'number,title,state,url,labels',
        ])
      : null,
    options.prContext ? ask(['pr', 'view', '--json', 'number,title,state,url']) : null,
  ]);
  const related: GithubIssue[] = branchIssue ? [branchIssue] : [];
  const found = list && list.status === 0 ? json(list.stdout) : null;
  if (Array.isArray(found)) {
    for (const item of found) {
      const issue = asIssue(item);
      if (issue && !related.some((r) => r.number === issue.number)) related.push(issue);
    }
  }
  const prData = pr && pr.status === 0 ? (json(pr.stdout) as Record<string, unknown> | null) : null;
  const active_pr =
    prData && typeof prData['number'] === 'number'
      ? {
          number: prData['number'],
          title: String(prData['title'] ?? ''),
          state: String(prData['state'] ?? ''),
          url: String(prData['url'] ?? ''),
        }
      : null;
  const failures = [list, pr].filter(
    (r) => r !== null && r.status !== 0 && !(r === pr && /no pull requests? found/i.test(r.stderr)),
  );
  return {
    available: true,
    ...(failures.length > 0
      ? {
          reason: `some gh calls failed (${failures.map((f) => (f!.timedOut ? 'timeout' : f!.stderr.trim().split('\n')[0] || `exit ${f!.status}`)).join('; ')})`,
        }
      : {}),
    related_issues: related,
    active_pr,
  };
}
