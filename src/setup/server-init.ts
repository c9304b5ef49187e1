/**
 * `hestai init --server <bare repository>` (issue 43): the repository's pre-receive and post-receive hooks run
 * `hestai receive` (this installation's node and CLI, by absolute path: a server's hook has no npx), and its
 * git config holds the receive options.
 */
import fs from 'node:fs';
import path from 'node:path';
import { usageError } from '../errors.js';
import { runGit } from '../git/exec.js';
import { markReceived } from '../receive/receive.js';
import { installedBinPath } from './mcp-json.js';

const MARK = '# hestai-hooks: hestai receive';

export interface ServerInitResult {
  repository: string;
  hooks: { hook: string; path: string; action: 'created' | 'updated' | 'unchanged' }[];
  config: Record<string, string>;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function hookScript(args: string, node = process.execPath, bin = installedBinPath()): string {
  return `#!/bin/sh\n${MARK} (written by hestai init --server; docs/server.md)\nexec ${quote(node)} ${quote(bin)} receive ${args}\n`;
}

export const SERVER_CONFIG = { 'hestai.receive.tags': 'pass', 'hestai.receive.deletions': 'pass' } as const;

export function initServer(repository: string): ServerInitResult {
  const dir = path.resolve(repository);
  const bare = runGit(['--git-dir', dir, 'rev-parse', '--is-bare-repository'], {
    cwd: path.dirname(dir),
    okCodes: [128],
  });
  if (bare.status !== 0 || bare.stdout.trim() !== 'true')
    throw usageError(`${dir} is not a bare git repository`, {
      code: 'NOT_A_REPO',
      remedy: `Pass the server's bare repository (git init --bare ${dir} makes one): hestai init --server <path>.git`,
    });
  const hooksDir = path.join(dir, 'hooks');
  fs.mkdirSync(hooksDir, { recursive: true });
  const hooks: ServerInitResult['hooks'] = [];
  for (const [hook, args] of [
    ['pre-receive', '"$@"'],
    ['post-receive', '--receipts "$@"'],
  ] as const) {
    const file = path.join(hooksDir, hook);
    const text = hookScript(args);
    const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    if (before !== null && !before.includes(MARK))
      throw usageError(`${file} exists and is not hestai's: init --server does not overwrite a hook of its own`, {
        code: 'HOOK_EXISTS',
        remedy: `Move it aside and run init again: mv ${file} ${file}.local && hestai init --server ${dir} (then call ${hook}.local from your own hook runner)`,
      });
    if (before !== text) {
      fs.writeFileSync(`${file}.tmp`, text, { mode: 0o755 });
      fs.renameSync(`${file}.tmp`, file);
    }
    hooks.push({ hook, path: file, action: before === null ? 'created' : before === text ? 'unchanged' : 'updated' });
  }
  const config: Record<string, string> = {};
  for (const [key, value] of Object.entries(SERVER_CONFIG)) {
    const current = runGit(['--git-dir', dir, 'config', '--get', key], { cwd: dir, okCodes: [1] }).stdout.trim();
    if (current === '') runGit(['--git-dir', dir, 'config', key, value], { cwd: dir });
    config[key] = current || value;
  }
  pointHead(dir);
  markReceived(dir);
  return { repository: dir, hooks, config };
}

/** A HEAD naming no branch (git init --bare's master in a main project) points at main or master, when one exists. */
function pointHead(dir: string): void {
  const has = (ref: string) =>
    runGit(['--git-dir', dir, 'rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: dir, okCodes: [1] })
      .status === 0;
  const head = runGit(['--git-dir', dir, 'symbolic-ref', '-q', 'HEAD'], { cwd: dir, okCodes: [1] }).stdout.trim();
  if (head !== '' && has(head)) return;
  const found = ['refs/heads/main', 'refs/heads/master'].find(has);
  if (found) runGit(['--git-dir', dir, 'symbolic-ref', 'HEAD', found], { cwd: dir });
}
