import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT, tempDir, type TempRepo } from '../helpers/git-repo.js';

// Issue 28, item 4: with the pre-commit framework (https://pre-commit.com, Debian's `pre-commit`), whose
// generated hooks hand over with `exec` inside an if, init never edits its hook files: it refuses with the
// exact lines for .pre-commit-config.yaml, or finds hestai's hook ids there (the repository's own
// .pre-commit-hooks.yaml). hestai is installed globally here, as a Python team would have it. Issue 41, item 3:
// the README's snippet names a rev that exists, and the command beside it pins a commit id; with a rev that
// does not exist, doctor shows pre-commit's own error instead of blaming a line after an exit or exec.

function globalHestai(repo: TempRepo): NodeJS.ProcessEnv {
  const bin = tempDir('hestai-global-bin-');
  fs.symlinkSync(path.join(PROJECT_ROOT, 'dist/cli/bin.js'), path.join(bin, 'hestai'));
  const PATH = [bin, ...(process.env['PATH'] ?? '').split(':').filter((d) => !d.includes('node_modules'))].join(':');
  return { ...repo.env, PATH };
}

function sh(repo: TempRepo, env: NodeJS.ProcessEnv, script: string) {
  const run = spawnSync('sh', ['-c', script], { cwd: repo.dir, env, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const OTHER_HOOK = [
  'repos:',
  '  - repo: local',
  '    hooks:',
  '      - id: say-hi',
  '        name: say hi',
  '        entry: echo hi',
  '        language: system',
  '        pass_filenames: false',
  '        always_run: true',
  '',
].join('\n');

function frameworkRepo(config: string): { repo: TempRepo; env: NodeJS.ProcessEnv } {
  const repo = makeRepo();
  const env = globalHestai(repo);
  repo.commit('chore: pre-commit config', { '.pre-commit-config.yaml': config });
  const install = sh(repo, env, 'pre-commit install --hook-type pre-commit --hook-type commit-msg');
  expect(install.status, install.output).toBe(0);
  return { repo, env };
}

/** A repository holding this checkout's .pre-commit-hooks.yaml on `main`, as pre-commit clones it. */
function hooksSource(): TempRepo {
  const source = makeRepo();
  source.commit('chore: hooks', {
    '.pre-commit-hooks.yaml': fs.readFileSync(path.join(PROJECT_ROOT, '.pre-commit-hooks.yaml'), 'utf8'),
  });
  return source;
}

/** The README's .pre-commit-config.yaml block (after "name this repository"), as a user copies it. */
function readmeSnippet(): string {
  const readme = fs.readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf('On the pre-commit framework, name this repository');
  expect(at).toBeGreaterThan(0);
  return /```yaml\n([\s\S]*?)```/.exec(readme.slice(at))![1]!;
}

function blockedWithoutSession(repo: TempRepo, env: NodeJS.ProcessEnv): void {
  repo.write('notes.md', `hello ${Math.random()}\n`);
  repo.git(['add', 'notes.md']);
  const commit = sh(repo, env, 'git commit -q -m "docs: notes"');
  expect(commit.status, commit.output).not.toBe(0);
  expect(commit.output).toMatch(/commit blocked: no active session/);
}

describe('the pre-commit framework', () => {
  it('init refuses with the exact lines to add; once added and installed, commits are checked and doctor passes', () => {
    const { repo, env } = frameworkRepo(OTHER_HOOK);
    const generated = fs.readFileSync(path.join(repo.dir, '.git/hooks/pre-commit'), 'utf8');
    const init = sh(repo, env, 'hestai init');
    expect(init.status, init.output).toBe(1);
    expect(init.output).toContain('.pre-commit-config.yaml');
    expect(fs.readFileSync(path.join(repo.dir, '.git/hooks/pre-commit'), 'utf8')).toBe(generated);
    const doctor = sh(repo, env, 'hestai doctor');
    expect(doctor.status, doctor.output).not.toBe(0);

    // The lines exactly as printed: the block after the line naming the file, up to the blank line.
    const lines = init.output.split('\n');
    const start = lines.findIndex((l) => l.trim() === '- repo: local');
    expect(start, init.output).toBeGreaterThan(0);
    const end = lines.indexOf('', start);
    const block = lines.slice(start, end).join('\n');
    expect(block).toMatch(/id: hestai-pre-commit/);
    expect(block).toMatch(/id: hestai-commit-msg/);
    fs.appendFileSync(path.join(repo.dir, '.pre-commit-config.yaml'), `${block}\n`);
    const then = /pre-commit install( --hook-type [a-z-]+)+/.exec(init.output);
    expect(then, init.output).not.toBeNull();
    expect(sh(repo, env, then![0]).status).toBe(0);
    repo.commit('chore: adopt hestai');

    blockedWithoutSession(repo, env);
    const after = sh(repo, env, 'hestai doctor');
    expect(after.status, after.output).toBe(0);
    expect(sh(repo, env, 'hestai init').status).toBe(0);
  });

  it("adopts through the repository's .pre-commit-hooks.yaml (two hook ids) with a global hestai", () => {
    // A repository holding this checkout's .pre-commit-hooks.yaml, as pre-commit clones it at a rev.
    const source = makeRepo();
    source.commit('chore: hooks', {
      '.pre-commit-hooks.yaml': fs.readFileSync(path.join(PROJECT_ROOT, '.pre-commit-hooks.yaml'), 'utf8'),
    });
    const rev = source.git(['rev-parse', 'HEAD']).stdout.trim();
    const config = [
      'repos:',
      `  - repo: ${source.dir}`,
      `    rev: ${rev}`,
      '    hooks:',
      '      - id: hestai-pre-commit',
      '      - id: hestai-commit-msg',
      '',
    ].join('\n');
    const { repo, env } = frameworkRepo(config);
    const init = sh(repo, env, 'hestai init');
    expect(init.status, init.output).toBe(0);
    repo.commit('chore: adopt hestai');
    blockedWithoutSession(repo, env);

    const token = sh(repo, env, 'hestai clock-in --role implementation-lead --print-env');
    expect(token.status, token.output).toBe(0);
    const header = sh(repo, env, `${token.output.match(/^export .*$/m)![0]} && git commit -q -m "not conventional"`);
    expect(header.status).not.toBe(0);
    expect(header.output).toMatch(/hestai/);
    const doctor = sh(repo, env, 'hestai doctor');
    expect(doctor.status, doctor.output).toBe(0);
  });

  it("the README's snippet as written (its repo a clone): its rev exists, the command beside it pins a commit id, doctor passes", () => {
    const source = hooksSource();
    const snippet = readmeSnippet();
    const repoLine = /^(\s*- repo: )(\S+)(.*)$/m.exec(snippet)!;
    const config = snippet.replace(repoLine[0], `${repoLine[1]}${source.dir}`);
    const { repo, env } = frameworkRepo(config);
    const init = sh(repo, env, 'hestai init --commit');
    expect(init.status, init.output).toBe(0);
    blockedWithoutSession(repo, env);
    repo.git(['reset', '-q']);
    const pin = /`(pre-commit autoupdate[^`]*)`/.exec(snippet);
    expect(pin, snippet).not.toBeNull();
    const pinned = sh(repo, env, pin![1]!);
    expect(pinned.status, pinned.output).toBe(0);
    const rev = /^\s*rev: (\S+)/m.exec(fs.readFileSync(path.join(repo.dir, '.pre-commit-config.yaml'), 'utf8'))![1];
    expect(rev).toBe(source.git(['rev-parse', 'HEAD']).stdout.trim());
    repo.commit('chore: pin hestai-hooks');
    blockedWithoutSession(repo, env);
    repo.git(['reset', '-q']);
    const doctor = sh(repo, env, 'hestai doctor');
    expect(doctor.status, doctor.output).toBe(0);
  });

  it("a rev that does not exist: doctor fails with pre-commit's own error, not a line after an exit or exec", () => {
    const source = hooksSource();
    const config = readmeSnippet()
      .replace(/^(\s*- repo: )\S+.*$/m, `$1${source.dir}`)
      .replace(/^(\s*rev: )\S+.*$/m, '$1v9.9.9');
    const { repo, env } = frameworkRepo(config);
    expect(sh(repo, env, 'hestai init --commit').status).toBe(0);
    const doctor = sh(repo, env, 'hestai doctor');
    expect(doctor.status, doctor.output).toBe(1);
    expect(doctor.output).toMatch(/pathspec 'v9\.9\.9' did not match/);
    expect(doctor.output).not.toMatch(/exit or exec/);
    expect(doctor.output).toMatch(/hint: .*hestai doctor/);
  });
});
