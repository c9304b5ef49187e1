import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { anchoredRepo, type AnchoredRepo } from '../helpers/anchored-repo.js';
import { PROJECT_ROOT, sharedFixture, tempDir } from '../helpers/git-repo.js';
import { installPinned } from '../helpers/npm-tool.js';
import { npmEnv, sharedCleanPack, readmeBlock, type Packed } from '../helpers/packed.js';

// Issue 28, item 6: the README's complete CI jobs (GitHub Actions without the action, GitLab CI) are valid
// job files, and their steps, run locally as the CI runner would in a fresh clone, pass an anchored
// test-first branch and fail one with a feat pushed past the hooks. Issue 41, item 3: the branch depends on
// hestai-hooks as the README says before the registry (the tarball inside the repository), and the job's
// `npm ci` runs for real in the clone with an empty npm cache.

function readmeYamlBlocks(heading: string): string[] {
  const readme = fs.readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf(heading);
  expect(at, `README has no "${heading}"`).toBeGreaterThanOrEqual(0);
  const section = readme.slice(at, readme.indexOf('\n## ', at));
  return [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

interface GithubJob {
  'runs-on': string;
  steps: Array<{ uses?: string; with?: Record<string, unknown>; run?: string }>;
}

const INSTALL = /^npm (ci|i|install)\b/;

// lefthook as test/e2e/lefthook.test.ts gets it: pinned, in the tests' tool cache, its postinstall refused.
const LEFTHOOK = await installPinned({
  pkg: 'lefthook',
  version: '2.2.2',
  bin: 'lefthook',
  allowScripts: { lefthook: false },
});

let packed: Packed;
beforeAll(() => {
  packed = sharedCleanPack();
}, 300_000);

/** npm as a CI runner has it: an empty cache of its own, the registry asked. */
function emptyCacheEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { npm_config_prefer_offline: _offline, ...rest } = npmEnv(env);
  return { ...rest, npm_config_cache: tempDir('hestai-npm-cache-') };
}

/** The README's install line for a tarball, as written: `npm i -D ./vendor/hestai-hooks-<v>.tgz`. */
function readmeTarballInstall(): string {
  const line = readmeBlock('**Add it to your repository**')[0]!;
  const install = /before it is on the registry: (npm i -D (\.\/\S+\.tgz))/.exec(line);
  expect(install, line).not.toBeNull();
  return install![1]!;
}

/** The dependency, as the README says: the tarball inside the repository, installed from there, committed. */
function dependOnVendoredTarball(repo: AnchoredRepo): void {
  const install = readmeTarballInstall();
  const file = install.replace(/^npm i -D \.\//, '');
  fs.mkdirSync(path.dirname(path.join(repo.dir, file)), { recursive: true });
  expect(path.basename(file)).toBe(path.basename(packed.tarball));
  fs.copyFileSync(packed.tarball, path.join(repo.dir, file));
  repo.write('package.json', `${JSON.stringify({ name: 'app', private: true }, null, 2)}\n`);
  fs.appendFileSync(path.join(repo.dir, '.gitignore'), 'node_modules/\n');
  const run = spawnSync('sh', ['-c', install], { cwd: repo.dir, env: npmEnv(repo.env), encoding: 'utf8' });
  expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  expect(run.stdout + run.stderr).not.toMatch(/npm warn/i);
  expect(repo.commitHooked('chore(deps): hestai-hooks from vendor/').status).toBe(0);
}

/** A job's lines run by bash in `dir`; asynchronous, so the GitHub and the GitLab job run side by side. */
function runLines(
  dir: string,
  env: NodeJS.ProcessEnv,
  lines: string[],
): Promise<{ status: number | null; output: string }> {
  const script = ['set -e', ...lines].join('\n');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: dir, env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

// An adopted repository anchored on a new branch feat/x that depends on the vendored tarball, and its base:
// built once (one `npm i -D` of the tarball), copied per test.
const anchoredBranch = sharedFixture(() => {
  const repo = anchoredRepo();
  const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
  repo.git(['checkout', '-q', '-b', 'feat/x']);
  repo.anchor();
  dependOnVendoredTarball(repo);
  return { repo, base };
});

/** A branch `feat/x` pushed to the bare remote: anchored test then feat, or (bad) a feat past the hooks. */
function pushedBranch(bad: boolean): { repo: AnchoredRepo; base: string } {
  const { repo, base } = anchoredBranch();
  if (bad) {
    repo.write('src/greet.js', 'export const greet = (n) => `hi ${n}`;\n');
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'feat(greet): greet by name']);
  } else {
    expect(repo.commitHooked('test(greet): greets by name', { 'test/greet.test.js': 'test\n' }).status).toBe(0);
    expect(repo.commitHooked('feat(greet): greet by name', { 'src/greet.js': 'greet\n' }).status).toBe(0);
  }
  expect(repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true }).status).toBe(0);
  return { repo, base };
}

describe("the README's CI jobs", () => {
  const [github, gitlab] = readmeYamlBlocks('**CI without the action, and GitLab CI**');

  it('are complete job files: install, full history, the anchor records, verify', () => {
    expect(github, 'a GitHub Actions workflow').toBeDefined();
    expect(gitlab, 'a GitLab CI job').toBeDefined();
    const workflow = parse(github!) as { on: unknown; jobs: Record<string, GithubJob> };
    expect(workflow.on).toEqual(expect.arrayContaining(['push', 'pull_request']));
    const [job] = Object.values(workflow.jobs);
    expect(job!['runs-on']).toMatch(/ubuntu/);
    const checkout = job!.steps.find((s) => s.uses?.startsWith('actions/checkout@'));
    expect(checkout?.with?.['fetch-depth']).toBe(0);
    const runs = job!.steps.flatMap((s) => (s.run ? [s.run.trim()] : []));
    expect(runs.some((r) => INSTALL.test(r))).toBe(true);
    expect(runs.some((r) => /hestai verify/.test(r))).toBe(true);

    const pipeline = parse(gitlab!) as Record<
      string,
      { image: string; variables: Record<string, unknown>; script: string[] }
    >;
    const [gl] = Object.values(pipeline);
    expect(gl!.image).toMatch(/^node:\d+/);
    expect(String(gl!.variables['GIT_DEPTH'])).toBe('0');
    expect(gl!.script.some((line) => INSTALL.test(line))).toBe(true);
    expect(gl!.script.some((line) => /hestai verify/.test(line))).toBe(true);
  });

  it.each([false, true])('run in a fresh clone of a pull request (bad branch: %s), GitHub and GitLab', async (bad) => {
    const { repo, base } = pushedBranch(bad);
    const [clone, cloneGl] = [repo.freshClone('feat/x'), repo.freshClone('feat/x')];
    const head = repo.git(['rev-parse', 'feat/x']).stdout.trim();
    const event = path.join(tempDir('hestai-event-'), 'event.json');
    fs.writeFileSync(event, JSON.stringify({ pull_request: { base: { sha: base }, head: { sha: head } } }));
    const job = Object.values((parse(github!) as { jobs: Record<string, GithubJob> }).jobs)[0]!;
    const [gh, gl] = await Promise.all([
      runLines(
        clone,
        {
          ...emptyCacheEnv(repo.env),
          GITHUB_ACTIONS: 'true',
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_EVENT_PATH: event,
        },
        job.steps.flatMap((s) => (s.run ? [s.run] : [])),
      ),
      runLines(
        cloneGl,
        {
          ...emptyCacheEnv(repo.env),
          GITLAB_CI: 'true',
          CI_PIPELINE_SOURCE: 'merge_request_event',
          CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
          CI_DEFAULT_BRANCH: 'main',
        },
        Object.values(parse(gitlab!) as Record<string, { script: string[] }>)[0]!.script,
      ),
    ]);
    if (bad) {
      expect(gh.status, gh.output).not.toBe(0);
      expect(gh.output).toMatch(/::error/);
      expect(gl.status, gl.output).not.toBe(0);
      expect(gl.output).toMatch(/feat\(greet\)/);
    } else {
      expect(gh.status, gh.output).toBe(0);
      expect(gl.status, gl.output).toBe(0);
    }
    // npm ci installed the committed tarball: the hestai that verified is the packed one, not this checkout.
    expect(fs.realpathSync(path.join(clone, 'node_modules/hestai-hooks'))).toBe(
      path.join(clone, 'node_modules/hestai-hooks'),
    );
    expect(gh.output).not.toMatch(/npm warn/i);
  });

  describe('a fresh clone and a linked worktree of the adopted repository', () => {
    const sh = (cwd: string, env: NodeJS.ProcessEnv, script: string) => {
      const run = spawnSync('sh', ['-c', script], { cwd, env, encoding: 'utf8' });
      return { status: run.status, output: `$ ${script}\n${run.stdout}${run.stderr}` };
    };
    /**
     * In a linked worktree made without npm ci, a commit prints one `hestai:` line naming `npm ci` and no stack;
     * run as printed, the next commit is judged (no active session). Returns the first commit's run.
     */
    const npmCiRemedy = (wt: string, env: NodeJS.ProcessEnv) => {
      fs.writeFileSync(path.join(wt, 'notes.md'), 'notes\n');
      const added = sh(wt, env, 'git add notes.md');
      expect(added.status, added.output).toBe(0);
      const bare = sh(wt, env, 'git commit -q -m "docs: notes"');
      expect(bare.status, bare.output).not.toBe(0);
      expect(bare.output).not.toMatch(/MODULE_NOT_FOUND|Cannot find module|node:internal|at Module/);
      const line = bare.output.split('\n').filter((l) => l.startsWith('hestai:'));
      expect(line, bare.output).toHaveLength(1);
      const command = /run `([^`]+)`/.exec(line[0]!);
      expect(command, line[0]).not.toBeNull();
      expect(command![1]).toBe('npm ci');
      const installed = sh(wt, env, command![1]!);
      expect(installed.status, installed.output).toBe(0);
      const judged = sh(wt, env, 'git commit -q -m "docs: notes"');
      expect(judged.status, judged.output).not.toBe(0);
      expect(judged.output).toMatch(/commit blocked: no active session/);
      return bare;
    };

    it('doctor fails in a clone without the hooks and prints the one command that installs them; run as printed, it passes', () => {
      const { repo } = pushedBranch(false);
      const clone = repo.freshClone('feat/x');
      const env = npmEnv(repo.env);
      expect(sh(clone, env, 'npm ci').status).toBe(0);
      const doctor = sh(clone, env, 'npx hestai doctor');
      expect(doctor.status, doctor.output).toBe(1);
      const remedy = /hint: .*`(npx hestai init)`/.exec(doctor.output);
      expect(remedy, doctor.output).not.toBeNull();
      const init = sh(clone, env, remedy![1]!);
      expect(init.status, init.output).toBe(0);
      expect(repo.git(['status', '--porcelain'], { cwd: clone }).stdout).toBe('');
      const again = sh(clone, env, 'npx hestai doctor');
      expect(again.status, again.output).toBe(0);

      // A linked worktree made without npm ci: the hooks (shared by every worktree) name the command, no stack.
      const wt = path.join(tempDir('hestai-wt-'), 'wt');
      repo.git(['worktree', 'add', '-q', '-b', 'other', wt], { cwd: clone });
      npmCiRemedy(wt, env);
    });

    it.skipIf(LEFTHOOK === null)(
      'lefthook: a linked worktree without npm ci names `npm ci`; run as printed, an anchored commit there passes',
      () => {
        const { repo } = pushedBranch(false);
        const PATH = [
          path.dirname(LEFTHOOK!),
          ...(process.env['PATH'] ?? '').split(':').filter((d) => !d.includes('node_modules')),
        ];
        const env = { ...npmEnv(repo.env), PATH: PATH.join(':') };
        repo.write('lefthook.yml', 'pre-commit:\n  commands:\n    lint:\n      run: echo lint ran\n');
        const init = sh(repo.dir, env, 'npx hestai init');
        expect(init.status, init.output).toBe(0);
        expect(init.output).toMatch(/\(lefthook: hestai's commands in lefthook\.yml\)/);
        repo.git(['add', '-A']);
        repo.git(['commit', '-q', '--no-verify', '-m', 'chore: hestai through lefthook']);

        const wt = path.join(tempDir('hestai-wt-'), 'wt');
        repo.git(['worktree', 'add', '-q', '-b', 'other', wt]);
        expect(npmCiRemedy(wt, env).output).toContain('lint ran');
        // Anchored in that worktree, the same commit passes through lefthook and hestai.
        repo.anchor(['README.md:1-1', '.hestai_workspace.yaml'], wt);
        const passed = sh(wt, env, 'git commit -q -m "docs: notes"');
        expect(passed.status, passed.output).toBe(0);
        expect(passed.output).toContain('lint ran');
        expect(repo.git(['log', '-1', '--format=%B'], { cwd: wt }).stdout).toMatch(/HestAI-Anchor: sha256:/);
      },
    );
  });
});
