import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, makeRepo, tempDir, type RunResult, type TempRepo } from '../helpers/git-repo.js';

// Shared by the attack tests: a repository "someone else prepared" (its files committed, as after a
// clone), a directory outside it holding a sentinel, and a CLI run that cannot hang the suite.

export interface Outside {
  dir: string;
  /** A file outside the repository that must never change. */
  sentinel: string;
  /** Everything under `dir`, with contents, to compare before and after. */
  snapshot(): Record<string, string>;
}

export function outsideDir(): Outside {
  const dir = tempDir('hestai-outside-');
  const sentinel = path.join(dir, 'bashrc');
  fs.writeFileSync(sentinel, 'export PS1=original\n');
  const snapshot = () => {
    const out: Record<string, string> = {};
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const full = path.join(d, e.name);
        if (e.isDirectory()) walk(full);
        else
          out[path.relative(dir, full)] = e.isFile()
            ? fs.readFileSync(full, 'utf8')
            : `<${e.isFIFO() ? 'fifo' : 'other'}>`;
      }
    };
    walk(dir);
    return out;
  };
  return { dir, sentinel, snapshot };
}

/** A repository whose `link` (relative to the root) is a committed symlink to `target`. */
export function repoWithLink(link: string, target: string, files: Record<string, string> = {}): TempRepo {
  const repo = makeRepo();
  for (const [file, content] of Object.entries(files)) repo.write(file, content);
  const full = path.join(repo.dir, link);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.symlinkSync(target, full);
  repo.git(['add', '-A', '-f']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: prepared by someone else']);
  return repo;
}

/** Runs the built CLI with a time limit (a FIFO must never make a command hang). */
export function hestai(repo: TempRepo, args: string[], env: NodeJS.ProcessEnv = {}, input?: string): RunResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: repo.dir,
    env: { ...repo.env, ...env },
    encoding: 'utf8',
    input,
    timeout: 30_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** No stack trace reached the user. */
export function noStack(result: RunResult): void {
  const text = `${result.stdout}\n${result.stderr}`;
  if (/\n\s+at .+:\d+:\d+\)?/.test(text) || /internal error/i.test(text))
    throw new Error(`a stack trace or internal error reached the user:\n${text.slice(0, 2000)}`);
}
