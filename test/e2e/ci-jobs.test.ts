import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { anchoredRepo, type AnchoredRepo } from '../helpers/anchored-repo.js';
import { PROJECT_ROOT, sharedFixture, tempDir } from '../helpers/git-repo.js';

// Issue 28, item 6: the README's complete CI jobs (GitHub Actions without the action, GitLab CI) are valid
// job files, and their steps, run locally as the CI runner would in a fresh clone, pass an anchored
// test-first branch and fail one with a feat pushed past the hooks. The install step (`npm ci`) is replaced
// by the layout npm gives a project that depends on hestai-hooks (node_modules/hestai-hooks, .bin/hestai).

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

function dependencyLayout(dir: string): void {
  fs.mkdirSync(path.join(dir, 'node_modules/.bin'), { recursive: true });
  fs.symlinkSync(PROJECT_ROOT, path.join(dir, 'node_modules/hestai-hooks'));
  fs.symlinkSync('../hestai-hooks/dist/cli/bin.js', path.join(dir, 'node_modules/.bin/hestai'));
}

function runLines(dir: string, env: NodeJS.ProcessEnv, lines: string[]) {
  const script = ['set -e', ...lines.filter((line) => !INSTALL.test(line.trim()))].join('\n');
  const run = spawnSync('bash', ['-c', script], { cwd: dir, env, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

// An adopted repository anchored on a new branch feat/x, and its base: built once, copied per test.
const anchoredBranch = sharedFixture(() => {
  const repo = anchoredRepo();
  const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
  repo.git(['checkout', '-q', '-b', 'feat/x']);
  repo.anchor();
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

  it.each([false, true])('run in a fresh clone of a pull request (bad branch: %s), GitHub and GitLab', (bad) => {
    const { repo, base } = pushedBranch(bad);
    const clone = repo.freshClone('feat/x');
    dependencyLayout(clone);
    const head = repo.git(['rev-parse', 'feat/x']).stdout.trim();
    const event = path.join(tempDir('hestai-event-'), 'event.json');
    fs.writeFileSync(event, JSON.stringify({ pull_request: { base: { sha: base }, head: { sha: head } } }));
    const job = Object.values((parse(github!) as { jobs: Record<string, GithubJob> }).jobs)[0]!;
    const gh = runLines(
      clone,
      { ...repo.env, GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event },
      job.steps.flatMap((s) => (s.run ? [s.run] : [])),
    );
    const gl = runLines(
      clone,
      {
        ...repo.env,
        GITLAB_CI: 'true',
        CI_PIPELINE_SOURCE: 'merge_request_event',
        CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
        CI_DEFAULT_BRANCH: 'main',
      },
      Object.values(parse(gitlab!) as Record<string, { script: string[] }>)[0]!.script,
    );
    if (bad) {
      expect(gh.status, gh.output).not.toBe(0);
      expect(gh.output).toMatch(/::error/);
      expect(gl.status, gl.output).not.toBe(0);
      expect(gl.output).toMatch(/feat\(greet\)/);
    } else {
      expect(gh.status, gh.output).toBe(0);
      expect(gl.status, gl.output).toBe(0);
    }
  });
});
