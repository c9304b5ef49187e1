/**
 * What the person's draft cites (issue 41): the worktree's changed files that HEAD has, with the lines the
 * change touches, then files of recent commits, then tracked files; and the evident test command. Only
 * files HEAD holds are offered: `hestai verify` re-checks every citation at the anchored commit.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runGitAsync } from '../git/async.js';
import { countLines, MAX_CTX_BYTES } from './ctx-probe.js';
import type { Citation } from './person.js';

/** hestai's own files: citing them proves nothing about the work. */
const OWN =
  /^(\.hestai\/|\.hestai-sys\/|\.hestai_workspace\.yaml$|\.gitignore$|\.husky\/|package-lock\.json$|yarn\.lock$|pnpm-lock\.yaml$)/;

/** Lines of a worktree file, or null when it is not a regular file of a readable size. */
function linesOf(root: string, file: string): number | null {
  try {
    const full = path.join(root, file);
    const stat = fs.lstatSync(full);
    if (!stat.isFile() || stat.size > MAX_CTX_BYTES || stat.size === 0) return null;
    return countLines(fs.readFileSync(full));
  } catch {
    return null;
  }
}

/** The first hunk's lines of HEAD's version of each changed file (`git diff -U0 HEAD`). */
function firstHunks(diff: string): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  let file: string | null = null;
  for (const line of diff.split('\n')) {
    const name = /^\+\+\+ b\/(.*)$/.exec(line) ?? /^--- a\/(.*)$/.exec(line);
    if (line.startsWith('diff --git')) file = null;
    if (name && file === null) file = name[1]!;
    const hunk = /^@@ -(\d+)(?:,(\d+))? /.exec(line);
    if (hunk && file !== null && !out.has(file)) {
      const from = Math.max(1, Number(hunk[1]));
      const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
      out.set(file, [from, from + Math.max(count, 1) - 1]);
    }
  }
  return out;
}

/** Up to `max` citations: changed files first, then recently committed ones, then tracked files. */
export async function draftCitations(root: string, max: number): Promise<Citation[]> {
  const [diff, recent, tracked] = await Promise.all([
    runGitAsync(['diff', '-U0', '--no-color', '--no-ext-diff', '--no-renames', 'HEAD', '--'], {
      cwd: root,
      okCodes: [0, 1, 128],
      maxBytes: 1024 * 1024,
    }),
    runGitAsync(['log', '-n', '20', '--name-only', '--format=', 'HEAD', '--'], { cwd: root, okCodes: [0, 128] }),
    runGitAsync(['ls-files', '--'], { cwd: root, okCodes: [0] }),
  ]);
  const known = new Set(tracked.stdout.split('\n').filter(Boolean));
  const out: Citation[] = [];
  const seen = new Set<string>();
  const add = (file: string, range: [number, number] | null) => {
    if (out.length >= max || seen.has(file) || OWN.test(file) || !known.has(file)) return;
    const lines = linesOf(root, file);
    if (lines === null || lines === 0) return;
    seen.add(file);
    const [from, to] = range ?? [1, lines];
    const start = Math.min(from, lines);
    out.push({ path: file, from: start, to: Math.max(start, Math.min(to, lines)) });
  };
  for (const [file, range] of firstHunks(diff.stdout)) add(file, range);
  for (const file of recent.stdout.split('\n').filter(Boolean)) add(file, null);
  const readmeFirst = [...known].sort((a, b) => Number(/^readme/i.test(b)) - Number(/^readme/i.test(a)));
  for (const file of readmeFirst) add(file, null);
  return out;
}

/** The command that evidently runs the project's tests, or null. */
export function evidentGate(root: string): string | null {
  const has = (file: string) => fs.existsSync(path.join(root, file));
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts?: Record<string, unknown>;
    };
    if (typeof pkg.scripts?.['test'] === 'string') return 'npm test';
  } catch {
    /* no package.json, or not JSON */
  }
  if (has('Makefile') && /^test:/m.test(fs.readFileSync(path.join(root, 'Makefile'), 'utf8'))) return 'make test';
  if (has('go.mod')) return 'go test ./...';
  if (has('Cargo.toml')) return 'cargo test';
  if (has('pyproject.toml') || has('pytest.ini') || has('setup.py')) return 'pytest';
  return null;
}
