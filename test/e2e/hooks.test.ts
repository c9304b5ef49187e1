import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspacePaths } from '../../src/paths.js';
import { CLI, makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/git-repo.js';
import { makeSession } from '../helpers/session-fixture.js';

/** A real `git commit` through whatever hooks are installed (no --no-verify). */
function commit(
  repo: TempRepo,
  message: string,
  files: Record<string, string> = {},
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
) {
  const cwd = options.cwd ?? repo.dir;
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true });
    fs.writeFileSync(path.join(cwd, file), content);
  }
  repo.git(['add', '-A'], { cwd });
  return repo.git(['commit', '-q', '--allow-empty', '-m', message], { cwd, allowFail: true, env: options.env ?? {} });
}
const lastMessage = (repo: TempRepo, cwd = repo.dir) => repo.git(['log', '-1', '--format=%B'], { cwd }).stdout;

describe('hestai init --no-husky', () => {
  it('creates the layout, git-ignores runtime state, installs plain hooks, and is idempotent', () => {
    const repo = makeRepo();
    const first = repo.hestai(['init', '--no-husky']);
    expect(first.status, first.stderr).toBe(0);
    const paths = workspacePaths(repo.dir);
    for (const dir of [paths.context, paths.state, paths.pending, paths.active, paths.archive, paths.audit])
      expect(fs.statSync(dir).isDirectory()).toBe(true);
    expect(fs.readFileSync(paths.projectContext, 'utf8')).toContain('PHASE::B1');
    expect(fs.existsSync(paths.protocol)).toBe(true);
    for (const role of [
      'holistic-orchestrator',
      'implementation-lead',
      'system-steward',
      'requirements-steward',
      'technical-architect',
      'code-review-specialist',
    ]) {
      expect(fs.readFileSync(path.join(paths.agents, `${role}.oct.md`), 'utf8')).toMatch(/^===/);
    }
    const gitignore = fs.readFileSync(path.join(repo.dir, '.gitignore'), 'utf8');
    for (const line of ['.hestai/sessions/', '.hestai/audit/', '.hestai/context/state/'])
      expect(gitignore.split('\n')).toContain(line);
    // Issue 27: nothing is cached in the worktree, so there is no .hestai/cache/ to make or ignore.
    expect(gitignore.split('\n')).not.toContain('.hestai/cache/');
    expect(fs.existsSync(path.join(repo.dir, '.hestai', 'cache'))).toBe(false);
    const hook = fs.readFileSync(path.join(repo.dir, '.git/hooks/pre-commit'), 'utf8');
    expect(hook).toContain(path.join(PROJECT_ROOT, 'hooks/pre-commit'));
    expect(hook).not.toMatch(/npx|tsx/);
    expect(fs.statSync(path.join(repo.dir, '.git/hooks/commit-msg')).mode & 0o111).not.toBe(0);
    const config = fs.readFileSync(paths.workspaceConfig, 'utf8');
    expect(config).toContain(`since: "${repo.git(['rev-parse', 'HEAD']).stdout.trim()}"`);

    const snapshot = () =>
      ['.gitignore', '.git/hooks/pre-commit', '.git/hooks/commit-msg', '.hestai_workspace.yaml'].map((f) =>
        fs.readFileSync(path.join(repo.dir, f), 'utf8'),
      );
    const before = snapshot();
    const second = repo.hestai(['init', '--no-husky']);
    expect(second.status, second.stderr).toBe(0);
    expect(snapshot()).toEqual(before);
  });

  it('--mcp registers `hestai mcp` in .mcp.json next to the servers already there, and refuses a file that is not a JSON object', () => {
    const repo = makeRepo();
    const mcpJson = path.join(repo.dir, '.mcp.json');
    fs.writeFileSync(
      mcpJson,
      JSON.stringify({ mcpServers: { other: { command: 'other-server', args: [] } }, note: 'kept' }),
    );
    const init = repo.hestai(['init', '--no-husky', '--mcp']);
    expect(init.status, init.stderr).toBe(0);
    const doc = JSON.parse(fs.readFileSync(mcpJson, 'utf8')) as { mcpServers: Record<string, unknown>; note: string };
    expect(doc.note).toBe('kept');
    expect(doc.mcpServers['other']).toEqual({ command: 'other-server', args: [] });
    expect(doc.mcpServers['hestai']).toEqual({ type: 'stdio', command: 'node', args: [CLI, 'mcp'], env: {} });

    const other = makeRepo();
    fs.writeFileSync(path.join(other.dir, '.mcp.json'), '[1]\n');
    const refused = other.hestai(['init', '--no-husky', '--mcp']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`${path.join(other.dir, '.mcp.json')} is not a JSON object`);
    expect(fs.readFileSync(path.join(other.dir, '.mcp.json'), 'utf8')).toBe('[1]\n');
  });

  it('keeps the lines of an existing plain hook', () => {
    const repo = makeRepo();
    fs.writeFileSync(
      path.join(repo.dir, '.git/hooks/pre-commit'),
      '#!/bin/sh\necho existing-hook-ran > .existing-ran\n',
      { mode: 0o755 },
    );
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    const hook = fs.readFileSync(path.join(repo.dir, '.git/hooks/pre-commit'), 'utf8');
    expect(hook).toContain('echo existing-hook-ran');
    expect(hook).toContain('hooks/pre-commit');
  });

  it('blocks real commits without an anchored session, then lets them through with trailers', () => {
    const repo = makeRepo();
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    const blocked = commit(repo, 'docs: adopt hestai');
    expect(blocked.status).toBe(1);
    expect(blocked.stderr).toContain('hestai clock-in');
    const { token } = makeSession(repo.dir);
    const ok = commit(repo, 'docs: adopt hestai');
    expect(ok.status, ok.stderr).toBe(0);
    expect(lastMessage(repo)).toContain(`HestAI-Session: ${token}`);
    expect(lastMessage(repo)).toMatch(/HestAI-Anchor: sha256:[0-9a-f]{64}/);
  });

  it('enforces test-first on real commits', () => {
    const repo = makeRepo();
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    makeSession(repo.dir);
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    const feat = commit(repo, 'feat(app): add', { 'src/app.ts': 'export const a = 1;\n' });
    expect(feat.status).toBe(1);
    expect(feat.stderr).toContain('feat commit');
    expect(commit(repo, 'test(app): failing', { 'test/app.test.ts': 'x' }).status).toBe(0);
    const again = commit(repo, 'feat(app): add');
    expect(again.status, again.stderr).toBe(0);
  });

  it('a bypass commits with a HestAI-Bypass trailer and two audit lines', () => {
    const repo = makeRepo();
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    const result = commit(repo, 'feat: hotfix', { 'src/x.ts': 'x' }, { env: { HESTAI_BYPASS: 'prod is down' } });
    expect(result.status, result.stderr).toBe(0);
    expect(lastMessage(repo)).toContain('HestAI-Bypass: prod is down');
    const audit = fs.readFileSync(workspacePaths(repo.dir).auditLog, 'utf8').trim().split('\n');
    expect(audit).toHaveLength(2);
    expect(commit(repo, 'docs: x', {}, { env: { HESTAI_BYPASS: '' } }).status).toBe(1);
  });

  it('the hooks fire in a linked worktree added after init', () => {
    const repo = makeRepo();
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
    const wt = path.join(path.dirname(repo.dir), 'linked');
    repo.git(['worktree', 'add', '-q', '-b', 'feat/linked', wt]);
    const blocked = commit(repo, 'docs: in the worktree', { 'notes.md': 'x' }, { cwd: wt });
    expect(blocked.status).toBe(1);
    expect(blocked.stderr).toContain('hestai clock-in');
    makeSession(wt);
    const ok = commit(repo, 'docs: in the worktree', {}, { cwd: wt });
    expect(ok.status, ok.stderr).toBe(0);
  });
});

describe('hestai init with husky', () => {
  function huskyRepo(): TempRepo {
    const repo = makeRepo();
    repo.write(
      'package.json',
      JSON.stringify({ name: 'app', private: true, devDependencies: { husky: '^9.1.7' } }, null, 2),
    );
    repo.write('.husky/pre-commit', 'echo lint-staged-ran > .lint-ran\n');
    repo.write('.gitignore', 'node_modules/\n.lint-ran\n');
    const husky = repo.git(['config', '--get', 'core.hooksPath'], { allowFail: true });
    expect(husky.status).toBe(1);
    const install = spawnHusky(repo);
    expect(install.status, install.stderr).toBe(0);
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: husky']);
    return repo;
  }

  it('adds the hook lines to .husky/ keeping existing lines; both run on a real commit', () => {
    const repo = huskyRepo();
    const init = repo.hestai(['init']);
    expect(init.status, init.stderr).toBe(0);
    const preCommit = fs.readFileSync(path.join(repo.dir, '.husky/pre-commit'), 'utf8');
    expect(preCommit).toContain('echo lint-staged-ran');
    expect(preCommit).toContain('hooks/pre-commit');
    expect(fs.readFileSync(path.join(repo.dir, '.husky/commit-msg'), 'utf8')).toContain('hooks/commit-msg');
    expect(repo.hestai(['init']).status).toBe(0);
    expect(fs.readFileSync(path.join(repo.dir, '.husky/pre-commit'), 'utf8')).toBe(preCommit);

    const blocked = commit(repo, 'docs: x', { 'a.md': 'x' });
    expect(blocked.status).toBe(1);
    expect(fs.existsSync(path.join(repo.dir, '.lint-ran'))).toBe(true);
    makeSession(repo.dir);
    expect(commit(repo, 'docs: x').status).toBe(0);
  });

  it('the hooks fire in a linked worktree (husky alone skips them there)', () => {
    const repo = huskyRepo();
    expect(repo.hestai(['init']).status).toBe(0);
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
    const wt = path.join(path.dirname(repo.dir), 'linked');
    repo.git(['worktree', 'add', '-q', '-b', 'feat/linked', wt]);
    expect(fs.existsSync(path.join(wt, '.husky/_'))).toBe(false);
    const blocked = commit(repo, 'docs: in the worktree', { 'notes.md': 'x' }, { cwd: wt });
    expect(blocked.status).toBe(1);
    expect(blocked.stderr).toContain('hestai clock-in');
    expect(fs.existsSync(path.join(wt, '.lint-ran'))).toBe(true);
  });

  it('doctor reports a worktree whose hooks will not fire, and `hestai init` repairs it after husky re-arms itself', () => {
    const repo = huskyRepo();
    expect(repo.hestai(['init']).status).toBe(0);
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
    // `npm install` runs husky's prepare again, which points core.hooksPath back at .husky/_.
    expect(spawnHusky(repo).status).toBe(0);
    const wt = path.join(path.dirname(repo.dir), 'linked');
    repo.git(['worktree', 'add', '-q', '-b', 'feat/linked', wt]);
    const doctor = repo.hestai(['doctor', '--json'], { cwd: wt });
    const report = JSON.parse(doctor.stdout) as { checks: { name: string; status: string; message: string }[] };
    const hooks = report.checks.find((c) => c.name === 'hooks');
    expect(hooks?.status).toBe('fail');
    expect(hooks?.message).toContain('will not run');
    expect(repo.hestai(['init'], { cwd: wt }).status).toBe(0);
    const after = JSON.parse(repo.hestai(['doctor', '--json'], { cwd: wt }).stdout) as typeof report;
    expect(after.checks.find((c) => c.name === 'hooks')?.status).toBe('pass');
  });
});

describe('ensureHooksArmed', () => {
  it('reports an armed worktree, and repairs a linked worktree husky left unarmed', async () => {
    const { ensureHooksArmed } = await import('../../src/setup/armed.js');
    const { resolveWorkspace } = await import('../../src/workspace.js');
    const repo = makeRepo();
    repo.write('package.json', JSON.stringify({ devDependencies: { husky: '^9' } }));
    expect(spawnHusky(repo).status).toBe(0);
    expect(ensureHooksArmed(resolveWorkspace(repo.dir))).toMatchObject({ armed: false, repaired: false });
    expect(repo.hestai(['init']).status).toBe(0);
    expect(ensureHooksArmed(resolveWorkspace(repo.dir))).toMatchObject({ armed: true, repaired: false });
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
    expect(spawnHusky(repo).status).toBe(0);
    const wt = path.join(path.dirname(repo.dir), 'linked');
    repo.git(['worktree', 'add', '-q', '-b', 'feat/linked', wt]);
    const repaired = ensureHooksArmed(resolveWorkspace(wt));
    expect(repaired).toMatchObject({ armed: true, repaired: true });
    expect(repaired.message).toContain('core.hooksPath');
    expect(ensureHooksArmed(resolveWorkspace(wt))).toMatchObject({ armed: true, repaired: false });
  });
});

describe('clock-in arms the hooks of its worktree', () => {
  it('reports armed hooks, and repairs a linked worktree husky left unarmed', () => {
    const repo = makeRepo();
    repo.write('package.json', JSON.stringify({ devDependencies: { husky: '^9' } }));
    expect(repo.hestai(['init']).status).toBe(0);
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
    const armed = JSON.parse(repo.hestai(['clock-in', '--role', 'implementation-lead', '--json']).stdout) as {
      hooks?: { armed: boolean; repaired: boolean };
    };
    expect(armed.hooks).toMatchObject({ armed: true, repaired: false });
    expect(spawnHusky(repo).status).toBe(0);
    const wt = path.join(path.dirname(repo.dir), 'linked-clock');
    repo.git(['worktree', 'add', '-q', '-b', 'feat/linked-clock', wt]);
    const result = repo.hestai(['clock-in', '--role', 'implementation-lead', '--json'], { cwd: wt });
    const response = JSON.parse(result.stdout) as { hooks?: { armed: boolean; repaired: boolean; message: string } };
    expect(response.hooks).toMatchObject({ armed: true, repaired: true });
    expect(response.hooks!.message).toContain('core.hooksPath');
  });
});

function spawnHusky(repo: TempRepo) {
  return repo.git(
    ['-c', `alias.husky=!node ${JSON.stringify(path.join(PROJECT_ROOT, 'node_modules/husky/bin.js'))}`, 'husky'],
    { allowFail: true },
  );
}
