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

    // The installed hook runs the packed bundle and validates the workspace file (cache miss) on its own.
    repo.write('notes.md', 'hello\n');
    repo.git(['add', 'notes.md']);
    const commit = repo.git(['commit', '-q', '-m', 'docs: notes'], { allowFail: true });
    expect(commit.status).toBe(1);
    expect(commit.stderr).toMatch(/anchor/i);
    expect(commit.stderr).not.toMatch(/MODULE_NOT_FOUND|internal error/);

    // The protocol commands run from their own bundle (the `hestai session` fast path), which validates
    // protocol.yaml and the workspace file from theirs on a cache miss.
    const cache = path.join(repo.home, '.cache');
    fs.rmSync(cache, { recursive: true, force: true });
    const start = packed(['session', 'start', '--objective', 'packed', '--json'], repo.dir, repo.env);
    expect(start.status, start.stderr).toBe(0);
    expect(JSON.parse(start.stdout)).toMatchObject({ session_id: response.session_id, phase: 'BINDING' });
    const show = packed(['session', 'show', '--json'], repo.dir, repo.env);
    expect(show.status, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ objective: 'packed', current_phase: 'BINDING' });
    const bundle = fs.readFileSync(path.join(packageDir, 'dist/hooks/cli-session.cjs'), 'utf8');
    expect(bundle.includes('ZodError') || bundle.includes('LineCounter') || bundle.includes('commander')).toBe(false);
  });

  it('keeps yaml and zod out of the hook bundles, and still validates a changed workspace file on a cache miss', () => {
    // Each hook bundle is parsed on every commit; the config validator is a separate file loaded only when
    // the workspace file changed since it was last validated.
    for (const hook of ['pre-commit', 'commit-msg']) {
      const bundle = fs.readFileSync(path.join(packageDir, `dist/hooks/${hook}.cjs`), 'utf8');
      expect(bundle.includes('ZodError'), `${hook} bundle carries zod`).toBe(false);
      expect(bundle.includes('LineCounter'), `${hook} bundle carries yaml`).toBe(false);
    }
    // Each command's own bundle (hestai <command>) requires yaml from its bundle when it needs it, never zod.
    const commandBundles = fs
      .readdirSync(path.join(packageDir, 'dist/hooks'))
      .filter((f) => f.startsWith('cli-command-'));
    expect(commandBundles).toContain('cli-command-verify.cjs');
    for (const file of commandBundles) {
      const bundle = fs.readFileSync(path.join(packageDir, 'dist/hooks', file), 'utf8');
      expect(bundle.includes('ZodError'), `${file} carries zod`).toBe(false);
      expect(bundle.includes('LineCounter'), `${file} carries yaml`).toBe(false);
    }
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

  it('loads node:fs and node:path once per hook bundle, never as a per-import copy of the module (esbuild __toESM)', () => {
    // A hook starts on every commit: each `import fs from 'node:fs'` bundled as __toESM(require("node:fs"))
    // copies every property of the module again (33 copies in pre-commit), time and garbage for nothing.
    for (const hook of ['pre-commit', 'commit-msg', 'pre-push', 'claude-code', 'cli-session']) {
      const bundle = fs.readFileSync(path.join(packageDir, `dist/hooks/${hook}.cjs`), 'utf8');
      expect(bundle, `${hook} copies a node builtin per import`).not.toMatch(/__toESM\(require\("node:/);
      for (const builtin of ['fs', 'path'])
        expect(
          bundle.split(`require("node:${builtin}")`).length - 1,
          `${hook} requires node:${builtin}`,
        ).toBeLessThanOrEqual(1);
    }
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

  it("leaves ajv and zod's translations out of the CLI chunks, and still validates a JSON Schema with the SDK's validator", () => {
    // Cold start (issue 14): the chunks `hestai mcp` loads hold neither ajv (the SDK's JSON Schema validator,
    // used only for fromJsonSchema and form elicitations) nor zod's ~40 translations of its messages.
    const bundleDir = path.join(packageDir, 'dist/cli');
    const chunks = fs.readdirSync(bundleDir).filter((f) => f.endsWith('.js'));
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      const text = fs.readFileSync(path.join(bundleDir, chunk), 'utf8');
      expect(text, chunk).not.toContain('Ajv2020');
      expect(text, chunk).not.toContain('Nieprawidłow'); // zod's Polish messages
    }
    // The validator the SDK's shim requires on first use, from its own bundle beside the chunks.
    const probe = spawnSync(
      process.execPath,
      [
        '-e',
        `const { AjvJsonSchemaValidator } = require(${JSON.stringify(path.join(bundleDir, 'mcp-ajv.cjs'))});
         const check = new AjvJsonSchemaValidator().getValidator({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });
         process.stdout.write(JSON.stringify([check({ a: 'x' }).valid, check({ a: 1 }).valid]));`,
      ],
      { cwd: work, encoding: 'utf8' },
    );
    expect(probe.status, probe.stderr).toBe(0);
    expect(JSON.parse(probe.stdout)).toEqual([true, false]);
  });
});
