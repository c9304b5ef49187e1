import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionEnd, sessionStart, sessionState, validateGate, type StateView } from '../../src/protocol/operations.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { seedAnchor } from '../helpers/session-fixture.js';
import { pathWithoutGh } from '../helpers/session-fixtures.js';

// Issue 15 (Speed): session://state (sessionState) and a repeated validate_gate write nothing while nothing
// changed, and see every change another process makes: a new file, a commit, a dirty tree (issue 27: the
// work tree's facts are git's on every read, no cache of ours).

const PROTOCOL = `version: 1
phases:
  - id: CHECK
    stage: start
    gates:
      - { id: tests, step: Tests exist, level: MUST, check: { type: file_exists, path: "test/*.ts" } }
      - { id: branch, step: Not on main, level: MUST, check: { type: branch_not, branches: [main] } }
      - { id: tdd, step: Test first, level: MUST, check: { type: tests_first } }
      - { id: src, step: Source changed, level: SHOULD, check: { type: file_modified_since_start, path: "src/**" } }
      - { id: committed, step: Committed, level: SHOULD, check: { type: git_commit_since_start } }
      - { id: clean, step: Clean tree, level: SHOULD, check: { type: git_clean } }
  - id: DONE
`;

const saved = { ...process.env };
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

function sh(repo: TempRepo, script: string): void {
  const r = spawnSync('/bin/sh', ['-c', script], { cwd: repo.dir, env: repo.env, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

async function startedRun() {
  const repo = makeRepo();
  const env = { PATH: pathWithoutGh() };
  const run = (args: string[]) => repo.hestai(args, { env });
  expect(run(['init', '--no-husky']).status).toBe(0);
  repo.write('.hestai/protocol.yaml', PROTOCOL);
  repo.write('src/app.ts', 'export const a = 1;\n');
  repo.write('test/app.test.ts', '// test\n');
  repo.commit('chore: hestai init');
  repo.git(['switch', '-q', '-c', 'feat/work']);
  const clock = run(['clock-in', '--role', 'implementation-lead', '--focus', 'cache', '--json']);
  expect(clock.status, clock.stderr).toBe(0);
  const token = (JSON.parse(clock.stdout) as { session_id: string }).session_id;
  seedAnchor(repo.dir, token, {}, { role: 'implementation-lead' });
  expect(run(['session', 'start', '--session', token, '--objective', 'cache']).status).toBe(0);
  for (const k of Object.keys(process.env)) if (k.startsWith('GIT_')) delete process.env[k];
  Object.assign(process.env, repo.env);
  const deps = { clock: () => new Date(), env: { ...repo.env, HESTAI_SESSION: token } };
  const input = { working_dir: repo.dir, session_id: token };
  const statePath = path.join(repo.dir, '.hestai/sessions/active', token, 'protocol.json');
  return { repo, deps, input, statePath };
}

const statuses = (view: StateView) => Object.fromEntries(view.checklist.start.map((i) => [i.gate, i.result]));

describe('the protocol reads git facts as git says them, and writes nothing while nothing changed', () => {
  it('session://state: a repeated read is the same; a change by another process is seen', async () => {
    const { repo, deps, input } = await startedRun();
    const first = await sessionState(input, deps);
    expect(statuses(first)).toEqual({
      tests: 'PASS',
      branch: 'PASS',
      tdd: 'PASS',
      src: 'FAIL',
      committed: 'FAIL',
      clean: 'PASS',
    });
    const again = await sessionState(input, deps);
    expect(again).toEqual(first);

    await settle();
    sh(repo, 'echo "export const b = 2;" > src/b.ts');
    expect(statuses(await sessionState(input, deps))).toMatchObject({ src: 'PASS', committed: 'FAIL', clean: 'FAIL' });
    await settle();
    sh(repo, 'git add -A && git commit -q --no-verify -m "test(app): b"');
    expect(statuses(await sessionState(input, deps))).toMatchObject({ src: 'PASS', committed: 'PASS', clean: 'PASS' });
    await settle();
    sh(repo, 'git switch -q main');
    expect(statuses(await sessionState(input, deps))).toMatchObject({ branch: 'FAIL', committed: 'FAIL' });
  }, 30_000);

  it('validate_gate: a repeated check that changes no result writes nothing; a changed result is recorded', async () => {
    const { repo, deps, input, statePath } = await startedRun();
    const first = await validateGate({ ...input, phase: 'CHECK' }, deps);
    const written = fs.statSync(statePath).ino;
    const again = await validateGate({ ...input, phase: 'CHECK' }, deps);
    expect(again).toEqual(first);
    // The state file was not replaced (an atomic write renames a new file over it).
    expect(fs.statSync(statePath).ino).toBe(written);

    sh(repo, 'echo "export const b = 2;" > src/b.ts');
    const changed = await validateGate({ ...input, phase: 'CHECK', step: 'src' }, deps);
    expect(changed.status).toBe('PASS');
    const state = JSON.parse(fs.readFileSync(statePath, 'utf8')) as {
      results: Record<string, { status: string }>;
    };
    expect(state.results['CHECK/src']!.status).toBe('PASS');
    expect(fs.statSync(statePath).ino).not.toBe(written);
  }, 30_000);

  it('session start and end read HEAD, the branch and the file list in a quiet repository', async () => {
    const { repo, deps, input } = await startedRun();
    const head = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    await sessionState(input, deps);
    const ended = await sessionEnd({ ...input, summary: 'first run' }, deps);
    // The run made no commit: it records none (never its starting commit).
    expect(ended).toMatchObject({ status: 'COMPLETE' });
    expect(ended.commit_sha).toBeUndefined();
    const started = await sessionStart({ ...input, objective: 'second run' }, deps);
    expect(started).toMatchObject({ branch: 'feat/work', starting_commit: head });
    // The baseline was taken from the recorded file list: a changed source file counts.
    sh(repo, 'echo "export const a = 2;" > src/app.ts');
    expect(statuses(await sessionState(input, deps))).toMatchObject({ src: 'PASS' });
  }, 30_000);
});
