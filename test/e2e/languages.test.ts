import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT, tempDir, type TempRepo } from '../helpers/git-repo.js';

// Issue 28, item 5: a Python, a Go and a Rust project adopt through the README's path for them (a global
// install, then `hestai init`): no package.json or node_modules in their tree, and their own test layouts
// pass test-first through the installed hooks (test commit first, then the feat; a feat alone is refused).

interface Language {
  name: string;
  project: Record<string, string>;
  test: Record<string, string>;
  feat: Record<string, string>;
  gate: string;
}

const LANGUAGES: Language[] = [
  {
    name: 'python',
    project: { 'pyproject.toml': '[project]\nname = "greet"\nversion = "0.1.0"\n' },
    test: {
      'tests/test_greet.py': 'from greet import greet\n\ndef test_greet():\n    assert greet("Ada") == "hi Ada"\n',
    },
    gate: 'pytest',
    feat: { 'greet.py': 'def greet(name):\n    return f"hi {name}"\n' },
  },
  {
    name: 'go',
    project: { 'go.mod': 'module example.com/greet\n\ngo 1.21\n' },
    test: {
      'greet_test.go':
        'package greet\n\nimport "testing"\n\nfunc TestGreet(t *testing.T) {\n\tif Greet("Ada") != "hi Ada" {\n\t\tt.Fatal("no")\n\t}\n}\n',
    },
    gate: 'go test ./...',
    feat: { 'greet.go': 'package greet\n\nfunc Greet(name string) string { return "hi " + name }\n' },
  },
  {
    name: 'rust',
    project: { 'Cargo.toml': '[package]\nname = "greet"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': '' },
    test: { 'tests/greet.rs': '#[test]\nfn greets() {\n    assert_eq!(greet::greet("Ada"), "hi Ada");\n}\n' },
    gate: 'cargo test',
    feat: { 'src/lib.rs': 'pub fn greet(name: &str) -> String {\n    format!("hi {name}")\n}\n' },
  },
];

function globalEnv(repo: TempRepo): NodeJS.ProcessEnv {
  const bin = tempDir('hestai-global-bin-');
  fs.symlinkSync(path.join(PROJECT_ROOT, 'dist/cli/bin.js'), path.join(bin, 'hestai'));
  const PATH = [bin, ...(process.env['PATH'] ?? '').split(':').filter((d) => !d.includes('node_modules'))].join(':');
  return { ...repo.env, PATH };
}

function sh(repo: TempRepo, env: NodeJS.ProcessEnv, script: string) {
  const run = spawnSync('sh', ['-c', script], { cwd: repo.dir, env, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, output: `${run.stdout}${run.stderr}` };
}

/** clock-in and the three anchor stages with the global `hestai`; returns the session id. */
function ceremony(repo: TempRepo, env: NodeJS.ProcessEnv, language: Language): string {
  const clockIn = sh(repo, env, 'hestai clock-in --role implementation-lead --focus greet --print-env');
  expect(clockIn.status, clockIn.output).toBe(0);
  const token = /^export HESTAI_SESSION=([0-9a-f-]{36})$/m.exec(clockIn.stdout)![1]!;
  const dir = tempDir('hestai-payload-');
  fs.writeFileSync(
    path.join(dir, 'bind.oct'),
    '## BIND (Identity Lock)\nROLE::implementation-lead\nCOGNITION::LOGOS::HEPHAESTUS+ATHENA\nAUTHORITY::RESPONSIBLE[greet]\n',
  );
  fs.writeFileSync(
    path.join(dir, 'proof.oct'),
    [
      '## TENSION (Cognitive Proof - AGENT GENERATED)',
      'L1::[README_STAYS_TRUE]<->CTX:README.md:1-1[what it says today]->TRIGGER[keep it true]',
      'L2::[CONFIG_STAYS_TRUE]<->CTX:.hestai_workspace.yaml[what it says today]->TRIGGER[keep it true]',
      '## COMMIT (Falsifiable Contract)',
      `ARTIFACT::${Object.keys(language.feat)[0]}`,
      `GATE::${language.gate}`,
      '',
    ].join('\n'),
  );
  for (const args of [
    `--stage identity --role implementation-lead --token ${token}`,
    `--stage context --token ${token} --payload-file ${path.join(dir, 'bind.oct')}`,
    `--stage proof --token ${token} --payload-file ${path.join(dir, 'proof.oct')}`,
  ]) {
    const step = sh(repo, env, `hestai anchor ${args}`);
    expect(step.status, `${args}\n${step.output}`).toBe(0);
  }
  return token;
}

function commit(repo: TempRepo, env: NodeJS.ProcessEnv, message: string, files: Record<string, string>) {
  for (const [file, text] of Object.entries(files)) repo.write(file, text);
  repo.git(['add', '-A']);
  return sh(repo, env, `git commit -q -m "${message}"`);
}

describe.each(LANGUAGES)('a $name project adopts with a global install', (language) => {
  it('has no package.json or node_modules, and its tests pass test-first through the hooks', () => {
    const repo = makeRepo();
    repo.commit('chore: the project', language.project);
    const env = globalEnv(repo);
    const init = sh(repo, env, 'hestai init');
    expect(init.status, init.output).toBe(0);
    for (const stray of ['package.json', 'package-lock.json', 'node_modules'])
      expect(fs.existsSync(path.join(repo.dir, stray)), stray).toBe(false);
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);

    const session = { ...env, HESTAI_SESSION: ceremony(repo, env, language) };
    const featFirst = commit(repo, session, 'feat(greet): greet by name', language.feat);
    expect(featFirst.status, featFirst.output).not.toBe(0);
    expect(featFirst.output).toMatch(/test/i);
    repo.git(['reset', '-q', '--hard']);
    repo.git(['clean', '-qfd']);

    const test = commit(repo, session, 'test(greet): greets by name', language.test);
    expect(test.status, test.output).toBe(0);
    const feat = commit(repo, session, 'feat(greet): greet by name', language.feat);
    expect(feat.status, feat.output).toBe(0);
    expect(repo.git(['log', '-1', '--format=%B']).stdout).toMatch(/HestAI-Anchor:/);
  });
});
