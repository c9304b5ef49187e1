// The repository the protocol tests start from: the hooks installed by `hestai init`, protocol.enforce in the
// workspace config (an own protocol.yaml if given), committed, a branch feat/x, and a clocked-in session with
// a seeded valid anchor; with `objective`, a protocol run started on it (`hestai session start`).
import { expect } from 'vitest';
import { makeRepo, type RunResult, type TempRepo } from './git-repo.js';
import { seedAnchor } from './session-fixture.js';
import { pathWithoutGh } from './session-fixtures.js';

export interface ProtocolRepo {
  repo: TempRepo;
  /** The environment the tests run hestai and git with (no `gh` on PATH). */
  env: NodeJS.ProcessEnv;
  run: (args: string[]) => RunResult;
  token: string;
}

export function protocolRepo(
  options: { protocol?: string; enforce?: boolean; focus?: string; objective?: string } = {},
): ProtocolRepo {
  const repo = makeRepo();
  const env = { PATH: pathWithoutGh() };
  const run = (args: string[]) => repo.hestai(args, { env });
  expect(run(['init', '--no-husky']).status).toBe(0);
  if (options.protocol !== undefined) repo.write('.hestai/protocol.yaml', options.protocol);
  repo.write('.hestai_workspace.yaml', `protocol:\n  enforce: ${options.enforce ?? true}\n`);
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
  repo.git(['switch', '-q', '-c', 'feat/x']);
  const clock = run(['clock-in', '--role', 'implementation-lead', '--focus', options.focus ?? 'protocol', '--json']);
  expect(clock.status, clock.stderr).toBe(0);
  const token = (JSON.parse(clock.stdout) as { session_id: string }).session_id;
  seedAnchor(repo.dir, token, {}, { role: 'implementation-lead' });
  if (options.objective !== undefined)
    expect(run(['session', 'start', '--objective', options.objective]).status).toBe(0);
  return { repo, env, run, token };
}
