// The session protocol (seed 004): `git commit` through the hestai hooks with protocol.enforce on (a run
// in its first phase, every blocking gate met) against two `node -e 0` hooks; every CLI protocol command
// (start, gate, advance, evidence, blocked, end, show) against `node -e 0`; and validate_gate over a
// 10-gate phase (no command gates) as an in-process library call. Each iteration of the commit cases first
// makes a `test` commit (untimed); each CLI case first restores the run as prepared (untimed), so the
// commands that change it (start, advance, evidence, end) measure the same work every time.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI, ROOT, git } from '../lib/env.mjs';
import { anchorMissing, anchorSession, hestai, makeRepo, missing, missingHooks, stageFeature } from '../lib/hestai.mjs';
import { measureInProcess, measureSpawn } from '../lib/measure.mjs';
import { nodeNoop } from './members.mjs';

/** Ten gates, one of every kind that needs no command, in the first phase. */
const TEN_GATES = `version: 1
phases:
  - id: CHECK
    stage: start
    gates:
      - { id: readme, step: README exists, level: MUST, check: { type: file_exists, path: README.md } }
      - { id: tests, step: Tests exist, level: MUST, check: { type: file_exists, path: "test/*.ts" } }
      - { id: context, step: Read the project context, level: MUST, check: { type: evidence, accepts: [content_hash], path: .hestai/context/PROJECT-CONTEXT.oct.md } }
      - { id: notes, step: Note the plan, level: MUST, check: { type: evidence, accepts: [manual] } }
      - { id: anchor, step: Anchored, level: MUST, check: { type: anchor_valid } }
      - { id: fresh, step: Fresh context, level: MUST, check: { type: context_fresh } }
      - { id: branch, step: Not on main, level: MUST, check: { type: branch_not, branches: [main] } }
      - { id: tdd, step: Test first, level: MUST, check: { type: tests_first } }
      - { id: src, step: Source changed, level: SHOULD, check: { type: file_modified_since_start, path: "src/**" } }
      - { id: committed, step: Committed, level: SHOULD, check: { type: git_commit_since_start } }
  - id: DONE
`;

/** A repository with the 10-gate protocol, an anchored session, a started run and its evidence recorded. */
export async function protocolRepo(hooks, enforce) {
  const repo = makeRepo(hooks);
  fs.writeFileSync(path.join(repo.repo, '.hestai/protocol.yaml'), TEN_GATES);
  fs.appendFileSync(path.join(repo.repo, '.hestai_workspace.yaml'), `protocol:\n  enforce: ${enforce}\n`);
  git(repo.repo, repo.env, ['add', '-A']);
  git(repo.repo, repo.env, ['commit', '-q', '--no-verify', '-m', 'chore: the session protocol']);
  if (hooks !== 'hestai') return repo;
  const token = await anchorSession(repo.repo, repo.env, repo.role);
  repo.env = { ...repo.env, HESTAI_SESSION: token };
  hestai(repo.repo, repo.env, ['session', 'start', '--objective', 'bench the protocol']);
  const hash = createHash('sha256')
    .update(fs.readFileSync(path.join(repo.repo, '.hestai/context/PROJECT-CONTEXT.oct.md')))
    .digest('hex');
  hestai(repo.repo, repo.env, [
    'session',
    'evidence',
    'CHECK',
    '--step',
    'context',
    '--type',
    'content_hash',
    '--value',
    hash,
  ]);
  hestai(repo.repo, repo.env, [
    'session',
    'evidence',
    'CHECK',
    '--step',
    'notes',
    '--type',
    'manual',
    '--value',
    'plan: measure the protocol hooks',
  ]);
  return repo;
}

function commitMember(id, label, kind, hooks, skip) {
  let repo;
  return {
    id,
    label,
    kind,
    skip,
    async prepare() {
      repo = await protocolRepo(hooks, true);
    },
    setup: (i) => stageFeature(repo.repo, repo.env, i),
    measure: (i) =>
      measureSpawn('git', ['commit', '-q', '-m', `feat(app): implement case ${i}`], { cwd: repo.repo, env: repo.env }),
    cleanup: () => repo && fs.rmSync(repo.base, { recursive: true, force: true }),
  };
}

/** The run's state file of the repository's session (the bench restores it between iterations). */
function stateFile(repo) {
  return path.join(repo.repo, '.hestai/sessions/active', repo.env.HESTAI_SESSION, 'protocol.json');
}

export default function protocolGroup() {
  let cliRepo;
  let snapshot;
  let lib;
  let libRepo;
  const cliSkip = () => missing(['session', 'show']) ?? anchorMissing();
  /** `expect`: the exit code the command must end with (a failed command would measure an error path). */
  const cli = (id, args, { fresh = false, expect = 0 } = {}) => ({
    id,
    label: `hestai ${args.join(' ')}`,
    kind: 'case',
    skip: cliSkip,
    async prepare() {
      if (cliRepo === undefined) {
        cliRepo = await protocolRepo('hestai', false);
        snapshot = fs.readFileSync(stateFile(cliRepo));
      }
    },
    // Untimed: the run as prepared (phase CHECK, its evidence recorded), or none for `session start`.
    setup() {
      if (fresh) fs.rmSync(stateFile(cliRepo), { force: true });
      else fs.writeFileSync(stateFile(cliRepo), snapshot);
    },
    measure: () => measureSpawn(process.execPath, [CLI, ...args], { cwd: cliRepo.repo, env: cliRepo.env, expect }),
    cleanup() {
      if (cliRepo) fs.rmSync(cliRepo.base, { recursive: true, force: true });
      cliRepo = undefined;
    },
  });
  const cliCases = [
    cli('protocol-start', ['session', 'start', '--objective', 'bench the protocol', '--json'], { fresh: true }),
    cli('protocol-show', ['session', 'show', '--json']),
    cli('protocol-blocked', ['session', 'blocked', '--json']),
    cli('protocol-gate', ['session', 'gate', 'CHECK', '--json']),
    cli('protocol-evidence', [
      'session',
      'evidence',
      'CHECK',
      '--step',
      'notes',
      '--type',
      'manual',
      '--value',
      'plan: bench',
      '--json',
    ]),
    cli('protocol-advance', ['session', 'advance', '--json']),
    cli('protocol-end', ['session', 'end', '--summary', 'measured the protocol commands', '--json']),
  ];
  return {
    id: 'protocol',
    title: 'session protocol (seed 004)',
    members: [
      nodeNoop(),
      commitMember('protocol-noop-hooks', 'commit, both hooks `node -e 0`', 'baseline', 'noop'),
      commitMember(
        'protocol-hestai-hooks',
        'commit, hestai hooks with protocol.enforce (10 gates, all met)',
        'case',
        'hestai',
        () => missingHooks() ?? cliSkip(),
      ),
      ...cliCases,
      {
        id: 'protocol-lib-validate',
        label: 'validateGate over 10 gates, library call in-process',
        kind: 'case',
        async skip() {
          const entry = path.join(ROOT, 'dist/protocol/operations.js');
          lib = fs.existsSync(entry) ? await import(pathToFileURL(entry).href) : {};
          return typeof lib.validateGate === 'function'
            ? (anchorMissing() ?? null)
            : 'not built yet: dist/protocol/operations.js';
        },
        async prepare() {
          libRepo = await protocolRepo('hestai', false);
        },
        measure: () =>
          measureInProcess(async () => {
            const r = await lib.validateGate(
              { working_dir: libRepo.repo, phase: 'CHECK' },
              { clock: () => new Date(), env: libRepo.env },
            );
            if (r.gates.length !== 10) throw new Error(`expected 10 gates, got ${r.gates.length}`);
          }),
        cleanup: () => libRepo && fs.rmSync(libRepo.base, { recursive: true, force: true }),
      },
    ],
    ratios: [
      {
        case: 'protocol-hestai-hooks',
        baseline: 'protocol-noop-hooks',
        metric: 'wall',
        budget: { op: '<=', limit: 1.3 },
      },
      ...cliCases.map((c) => ({ case: c.id, baseline: 'node-e-0', metric: 'wall', budget: { op: '<', limit: 2 } })),
    ],
    absolute: [{ case: 'protocol-lib-validate', metric: 'wall', budget: { op: '<', limit: 5 } }],
  };
}
