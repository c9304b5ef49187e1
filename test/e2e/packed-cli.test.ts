import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspacePaths } from '../../src/paths.js';
import { makeRepo, PROJECT_ROOT } from '../helpers/git-repo.js';
import { connectStdio } from '../helpers/mcp.js';

// The CLI as npm ships it: `npm pack` of this checkout, unpacked where no node_modules can be found by
// walking up. The shipped `hestai` is one esbuild bundle (code-split at its lazy imports), so every command
// must run from the tarball alone, find its assets (package.json, prompts/, templates/, hooks/) beside the
// bundle, and never reach for a dependency at run time.
let packageDir = '';
let cli = '';

let work = '';

beforeAll(() => {
  // Not tempDir(): that one is removed after each test, and the unpacked package serves the whole file.
  work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-pack-')));
  const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
  });
  expect(pack.status, pack.stderr).toBe(0);
  const tarball = path.join(work, pack.stdout.trim().split('\n').pop()!);
  const untar = spawnSync('tar', ['-xzf', tarball, '-C', work], { encoding: 'utf8' });
  expect(untar.status, untar.stderr).toBe(0);
  packageDir = path.join(work, 'package');
  cli = path.join(packageDir, 'dist/cli/bin.js');
  expect(fs.existsSync(path.join(packageDir, 'node_modules'))).toBe(false);
}, 60_000);
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function packed(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, env, encoding: 'utf8' });
  if (result.error) throw result.error;
  // A missing module or asset shows as an internal error (exit 2) or a Node stack; neither may happen.
  expect(result.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|MODULE_NOT_FOUND|internal error|ENOENT/);
  return result;
}

describe('the packed CLI runs without node_modules', () => {
  it('prints the package version, initialises a repository, clocks in, and blocks an unanchored commit', () => {
    const repo = makeRepo();
    const { version } = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(packed(['--version'], repo.dir, repo.env).stdout.trim()).toBe(version);

    const init = packed(['init', '--no-husky'], repo.dir, repo.env);
    expect(init.status, init.stderr).toBe(0);
    expect(fs.readFileSync(path.join(repo.dir, '.git/hooks/pre-commit'), 'utf8')).toContain(
      path.join(packageDir, 'hooks/pre-commit'),
    );
    expect(fs.readFileSync(path.join(workspacePaths(repo.dir).agents, 'implementation-lead.oct.md'), 'utf8')).toMatch(
      /^===/,
    );

    const clockIn = packed(
      ['--json', 'clock-in', '--role', 'implementation-lead', '--focus', 'packed'],
      repo.dir,
      repo.env,
    );
    expect(clockIn.status, clockIn.stderr).toBe(0);
    const response = JSON.parse(clockIn.stdout) as { session_id: string; focus_resolved: { value: string } };
    expect(response.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.focus_resolved.value).toBe('packed');
    expect(fs.readFileSync(workspacePaths(repo.dir).currentFocus, 'utf8')).toContain('packed');

    // The installed hook runs the packed bundle and validates the workspace file on its own.
    repo.write('notes.md', 'hello\n');
    repo.git(['add', 'notes.md']);
    const commit = repo.git(['commit', '-q', '-m', 'docs: notes'], { allowFail: true });
    expect(commit.status).toBe(1);
    expect(commit.stderr).toMatch(/anchor/i);
    expect(commit.stderr).not.toMatch(/MODULE_NOT_FOUND|internal error/);

    // The protocol commands validate protocol.yaml and the workspace file from the packed CLI alone.
    const start = packed(['session', 'start', '--objective', 'packed', '--json'], repo.dir, repo.env);
    expect(start.status, start.stderr).toBe(0);
    expect(JSON.parse(start.stdout)).toMatchObject({ session_id: response.session_id, phase: 'BINDING' });
    const show = packed(['session', 'show', '--json'], repo.dir, repo.env);
    expect(show.status, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ objective: 'packed', current_phase: 'BINDING' });
  });

  it('validates a changed workspace file in the installed hook, naming the unknown key and the nearest one', () => {
    const repo = makeRepo();
    expect(packed(['init', '--no-husky'], repo.dir, repo.env).status).toBe(0);
    const workspaceFile = workspacePaths(repo.dir).workspaceConfig;
    fs.appendFileSync(workspaceFile, 'freshnes:\n  max_age_hours: 12\n');
    repo.write('notes.md', 'hello\n');
    repo.git(['add', 'notes.md']);
    const commit = repo.git(['commit', '-q', '-m', 'docs: notes'], { allowFail: true });
    expect(commit.status).toBe(1); // git reports any failing hook as 1; the hook's own exit 2 is in its text
    expect(commit.stderr).toContain(workspaceFile);
    expect(commit.stderr).toMatch(/freshnes.*freshness/s);
    expect(commit.stderr).not.toMatch(/MODULE_NOT_FOUND|internal error/);
  });

  it('serves MCP over stdio', async () => {
    const repo = makeRepo();
    const { client } = await connectStdio(repo.dir, repo.env, { entry: cli });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['clock_in', 'anchor', 'odyssean_anchor', 'clock_out', 'anchor_status']),
    );
    expect(client.getServerVersion()?.name).toBe('hestai');
  });
});
