import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { verdictOf, type VerifyReport } from '../helpers/anchored-repo.js';
import { makeRepo, PROJECT_ROOT, tempDir, type TempRepo } from '../helpers/git-repo.js';
import { npmEnv, readmeBlock } from '../helpers/packed.js';

// Issue 24, item 5: adoption passes CI. A new user follows the README literally: the adoption block
// (`npx hestai init ...`), the flow block (clock-in, the three anchor stages, a test commit and a feat
// commit through the installed hooks), `git push` to a bare remote, then the CI step in a fresh clone,
// run as action.yml runs it (its own scripts, bash, the push event). hestai-hooks is "installed" as npm
// would leave it: node_modules/hestai-hooks (this checkout, with its built dist/) and node_modules/.bin/hestai.

const BIND = [
  '## BIND (Identity Lock)',
  'ROLE::implementation-lead',
  'COGNITION::LOGOS::ATHENA',
  'AUTHORITY::RESPONSIBLE[greeting]',
  '',
].join('\n');
const PROOF = [
  '## TENSION (Cognitive Proof - AGENT GENERATED)',
  'L1::[TDD_MANDATE]<->CTX:README.md:1-1[the project title]->TRIGGER[commit the failing test first]',
  'L2::[ADOPTED_POLICY]<->CTX:.hestai_workspace.yaml[tdd.since set by init]->TRIGGER[judge only what follows]',
  '## COMMIT (Falsifiable Contract)',
  'ARTIFACT::greet.js',
  'GATE::npm test',
  '',
].join('\n');

interface Project extends TempRepo {
  remote: string;
  /** The remote's main before the adoption was pushed (what the push event names as `before`). */
  before: string;
  env: NodeJS.ProcessEnv;
  sh(script: string): { status: number; stdout: string; out: string };
}

/** A project with a history, pushed to a bare remote, with hestai-hooks installed as a devDependency. */
function project(): Project {
  const repo = makeRepo();
  repo.commit('chore: ignore dependencies', { '.gitignore': 'node_modules/\n' });
  fs.mkdirSync(path.join(repo.dir, 'node_modules/.bin'), { recursive: true });
  fs.symlinkSync(PROJECT_ROOT, path.join(repo.dir, 'node_modules/hestai-hooks'));
  fs.symlinkSync('../hestai-hooks/dist/cli/bin.js', path.join(repo.dir, 'node_modules/.bin/hestai'));
  const remote = path.join(tempDir('hestai-remote-'), 'origin.git');
  repo.git(['init', '-q', '--bare', '-b', 'main', remote]);
  repo.git(['remote', 'add', 'origin', remote]);
  repo.git(['push', '-q', 'origin', 'main']);
  const env = npmEnv(repo.env);
  const before = repo.git(['rev-parse', 'HEAD']).stdout.trim();
  return {
    ...repo,
    remote,
    before,
    env,
    sh(script) {
      const run = spawnSync('sh', ['-c', script], { cwd: repo.dir, env, encoding: 'utf8' });
      return { status: run.status ?? -1, stdout: run.stdout, out: `$ ${script}\n${run.stdout}${run.stderr}` };
    },
  };
}

/** The adoption block's commands a new user runs: all but the install (done above) and the optional lines. */
function adoptionCommands(): string[] {
  const lines = readmeBlock('**Add it to your repository**');
  expect(lines[0]).toMatch(/^npm i -D hestai-hooks(\s|$)/);
  return lines.slice(1).filter((line) => !/#\s*optional\b/.test(line));
}

/** The paths `hestai init` created or changed that git still shows as uncommitted. */
function uncommitted(p: Project): string[] {
  return p
    .git(['status', '--porcelain', '--untracked-files=all'])
    .stdout.split('\n')
    .filter(Boolean)
    .map((line) => line.slice(3))
    .filter((file) => /^(\.hestai|\.hestai-sys|\.hestai_workspace\.yaml|\.gitignore)/.test(file));
}

interface Step {
  name?: string;
  run?: string;
  env?: Record<string, string>;
}
const action = parse(fs.readFileSync(path.join(PROJECT_ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
  runs: { steps: Step[] };
};

/** action.yml's fetch and verify steps, run as the runner does (bash -e, inputs at their defaults), for a push. */
function ciOnPush(p: Project): { status: number; out: string } {
  const clone = path.join(tempDir('hestai-ci-'), 'clone');
  p.git(['clone', '-q', '--branch', 'main', `file://${p.remote}`, clone]);
  const event = path.join(tempDir('hestai-event-'), 'event.json');
  const after = p.git(['rev-parse', 'HEAD'], { cwd: clone }).stdout.trim();
  fs.writeFileSync(event, JSON.stringify({ before: p.before, after, repository: { default_branch: 'main' } }));
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? '']));
  let out = '';
  for (const name of ['fetch the anchor proof records', 'hestai verify']) {
    const step = action.runs.steps.find((s) => s.name === name)!;
    const stepEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries(step.env ?? {}))
      stepEnv[k] = v.replace(/\$\{\{\s*inputs\.([a-z-]+)\s*\}\}/g, (_, input: string) => inputs[input] ?? '');
    const run = spawnSync('bash', ['-e', '-c', step.run!], {
      cwd: clone,
      encoding: 'utf8',
      env: {
        ...p.env,
        ...stepEnv,
        GITHUB_ACTION_PATH: PROJECT_ROOT,
        GITHUB_ACTIONS: 'true',
        GITHUB_EVENT_NAME: 'push',
        GITHUB_EVENT_PATH: event,
      },
    });
    out += `${run.stdout}${run.stderr}`;
    if (run.status !== 0) return { status: run.status ?? -1, out };
  }
  return { status: 0, out };
}

/** The flow block, one shell (HESTAI_SESSION carries over), with the files each commit line commits. */
function flowScript(): string {
  const lines = readmeBlock('**The flow, for an agent or a person**').map((line) => line.replace(/\s+#\s[^"']*$/, ''));
  const commitLine = lines.find((line) => line.startsWith('git commit'))!;
  const [testCommit, featCommit] = commitLine.split(' && ');
  expect(testCommit).toMatch(/^git commit -m "test\(/);
  expect(featCommit).toMatch(/^git commit -m "feat\(/);
  return [
    'set -e',
    ...lines.filter((line) => line !== commitLine),
    "mkdir -p test && printf 'assert greet\\n' > test/greet.test.js && git add test/greet.test.js",
    testCommit,
    "printf 'export const greet = (name) => name;\\n' > greet.js && git add greet.js",
    featCommit,
    'git push -q origin main',
  ].join('\n');
}

describe("the README's adoption path, run literally, passes CI", () => {
  it('init as the README says, clock-in, anchor, a test and a feat commit, push: the CI step passes in a fresh clone', () => {
    const p = project();
    for (const command of adoptionCommands()) {
      const run = p.sh(command);
      expect(run.status, run.out).toBe(0);
    }
    // What init created is committed by the README's adoption block itself, before any session exists.
    expect(uncommitted(p)).toEqual([]);
    fs.writeFileSync(path.join(p.dir, 'bind.md'), BIND);
    fs.writeFileSync(path.join(p.dir, 'proof.md'), PROOF);
    const flow = p.sh(flowScript());
    expect(flow.status, flow.out).toBe(0);

    const ci = ciOnPush(p);
    expect(ci.status, ci.out).toBe(0);
    expect(ci.out).not.toContain('::error');
    expect(ci.out).toMatch(/hestai verify [0-9a-f]{7}\.\.[0-9a-f]{7}: 3 commit\(s\), 0 error\(s\)/);
  });

  it("following init's own next step (clock-in first) is refused at the anchor with a command that commits the adoption; run as printed, CI passes", () => {
    const p = project();
    const init = p.sh('npx hestai init');
    expect(init.status, init.out).toBe(0);
    // init says so too, with the same command the refusal below prints (run there as printed).
    expect(init.stdout).toContain('next: make the adoption commit first: npx hestai init --commit');
    const clockIn = p.sh('npx hestai clock-in --role implementation-lead --json');
    expect(clockIn.status, clockIn.out).toBe(0);
    const token = (JSON.parse(clockIn.stdout) as { session_id: string }).session_id;
    const identity = `npx hestai anchor --stage identity --role implementation-lead --token ${token}`;
    const refused = p.sh(identity);
    expect(refused.status, refused.out).toBe(1);
    expect(refused.out).toContain('ADOPTION_UNCOMMITTED');
    const remedy = /`(npx hestai init --commit)`/.exec(refused.out);
    expect(remedy, refused.out).not.toBeNull();
    const committed = p.sh(remedy![1]!);
    expect(committed.status, committed.out).toBe(0);
    expect(uncommitted(p)).toEqual([]);
    expect(p.git(['log', '-1', '--format=%s']).stdout.trim()).toBe('chore: adopt hestai-hooks (hestai init)');

    fs.writeFileSync(path.join(p.dir, 'bind.md'), BIND);
    fs.writeFileSync(path.join(p.dir, 'proof.md'), PROOF);
    const flow = p.sh(
      [
        'set -e',
        identity,
        `npx hestai anchor --stage context --token ${token} --payload-file bind.md`,
        `npx hestai anchor --stage proof --token ${token} --payload-file proof.md`,
        `printf 'x\\n' > notes.md && git add notes.md && HESTAI_SESSION=${token} git commit -q -m "docs: notes"`,
        'git push -q origin main',
      ].join('\n'),
    );
    expect(flow.status, flow.out).toBe(0);
    const ci = ciOnPush(p);
    expect(ci.status, ci.out).toBe(0);
  });

  it('attack: an unanchored commit dressed as the adoption commit that also adds code fails CI', () => {
    const p = project();
    expect(p.sh('npx hestai init').status).toBe(0);
    p.write('src/backdoor.js', 'export const open = true;\n');
    p.git(['add', '-A']);
    p.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai-hooks (hestai init)']);
    p.git(['push', '-q', 'origin', 'main']);
    const ci = ciOnPush(p);
    expect(ci.status, ci.out).toBe(1);
    const clone = path.join(tempDir('hestai-ci-'), 'clone');
    p.git(['clone', '-q', `file://${p.remote}`, clone]);
    const json = p.hestai(['verify', '--format', 'json', '--from', p.before], { cwd: clone });
    const report = JSON.parse(json.stdout) as VerifyReport;
    expect(verdictOf(report, 'chore: adopt hestai-hooks (hestai init)', 'trailers')?.status).toBe('fail');
  });
});
