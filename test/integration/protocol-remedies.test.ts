import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, makeRepo } from '../helpers/git-repo.js';
import { connectInProcess } from '../helpers/mcp.js';
import { pathWithoutGh } from '../helpers/session-fixtures.js';

// Issue 30, item 5: every remedy the protocol suggests is executed here, as the agent or the user would
// run it, and moves the run forward: MCP calls built from the tools' real input schemas (working_dir and
// session_id, no unknown argument), CLI commands as a local npm install calls hestai (`npx hestai`).

const json = <T = Record<string, any>>(text: string): T => JSON.parse(text) as T;

/** A repository where hestai is installed locally: node_modules/.bin/hestai, and no hestai on PATH. */
function localInstall() {
  const repo = makeRepo();
  fs.mkdirSync(path.join(repo.dir, 'node_modules/.bin'), { recursive: true });
  fs.symlinkSync(CLI, path.join(repo.dir, 'node_modules/.bin/hestai'));
  fs.writeFileSync(path.join(repo.dir, 'package.json'), '{"name":"app","private":true}\n');
  fs.appendFileSync(path.join(repo.dir, '.gitignore'), 'node_modules/\n');
  const env = { PATH: pathWithoutGh() };
  expect(repo.hestai(['init', '--no-husky'], { env }).status).toBe(0);
  repo.commit('chore: hestai init');
  repo.git(['switch', '-q', '-c', 'feat/remedies']);
  const clock = repo.hestai(['clock-in', '--role', 'implementation-lead', '--focus', 'remedies', '--json'], { env });
  expect(clock.status, clock.stderr).toBe(0);
  const id = json<{ session_id: string }>(clock.stdout).session_id;
  const hash = createHash('sha256')
    .update(fs.readFileSync(path.join(repo.dir, '.hestai/context/PROJECT-CONTEXT.oct.md')))
    .digest('hex');
  return { repo, id, hash, env: { ...repo.env, ...env } };
}

/** The executable part of a remedy (before "(then ...)" / ", then ..."), its placeholders filled. */
const firstStep = (remedy: string, fill: Record<string, string>) => {
  let step = remedy.split(/ \(then |, then | then stages /)[0]!;
  for (const [from, to] of Object.entries(fill)) step = step.split(from).join(to);
  return step;
};

/** Parses `tool({...})` into its name and arguments. */
const parseCall = (text: string) => {
  const m = /^([a-z_]+)\((\{.*\})\)$/.exec(text);
  expect(m, text).not.toBeNull();
  return { tool: m![1]!, args: json(m![2]!) };
};

describe('the remedies of the protocol, executed', () => {
  it('MCP: get_blocked_reason and a refused advance_phase name calls that the tools accept and that move the run', async () => {
    const { repo, id, hash, env } = localInstall();
    const mcp = await connectInProcess({ cwd: repo.dir, env: { ...env, HESTAI_SESSION: id } });
    expect((await mcp.call('session_start', { working_dir: repo.dir, objective: 'remedies' })).isError).toBeFalsy();

    const refused = await mcp.call('advance_phase', { working_dir: repo.dir });
    expect(refused.isError).toBe(true);
    const fixes = refused.structuredContent!['suggested_actions'] as string[];
    expect(fixes).toHaveLength(2);
    expect(refused.structuredContent!['message']).toContain('record_evidence(');

    const blocked = (await mcp.call('get_blocked_reason', { working_dir: repo.dir })).structuredContent!;
    const actions = blocked['suggested_actions'] as string[];
    expect(actions).toEqual(fixes);
    expect(actions.join('\n')).not.toContain('"token"');
    expect(actions.join('\n')).not.toContain('undefined');

    // record_evidence, as suggested with its placeholder filled: the gate passes.
    const evidence = parseCall(firstStep(actions[0]!, { '<sha256 of .hestai/context/PROJECT-CONTEXT.oct.md>': hash }));
    expect(evidence.args).toMatchObject({ working_dir: fs.realpathSync(repo.dir), session_id: id });
    const recorded = await mcp.call(evidence.tool, evidence.args);
    expect(recorded.isError, recorded.content[0]?.text).toBeFalsy();
    expect(recorded.structuredContent).toMatchObject({ gate_status: 'PASS' });

    // anchor, as suggested: the identity stage is accepted (no unknown argument) and opens the handshake.
    const anchor = parseCall(firstStep(actions[1]!, {}));
    expect(anchor.tool).toBe('anchor');
    expect(anchor.args).toMatchObject({ stage: 'identity', working_dir: fs.realpathSync(repo.dir), session_id: id });
    const identity = await mcp.call(anchor.tool, anchor.args);
    expect(identity.isError, identity.content[0]?.text).toBeFalsy();
    expect(identity.structuredContent).toMatchObject({ success: true, stage: 'identity' });

    // The validate_gate call a remedy ends with is accepted too (the evidence gate now passes).
    const validate = parseCall(actions[1]!.split(', then ')[1]!);
    const gate = await mcp.call(validate.tool, { ...validate.args, step: 'read_context' });
    expect(gate.structuredContent).toMatchObject({ step: 'read_context', status: 'PASS' });
  });

  it('CLI: a local install is told `npx hestai ...`, and running the command as printed (no hestai on PATH) moves the run', () => {
    const { repo, id, hash, env } = localInstall();
    const local = (args: string[]) =>
      spawnSync('npx', ['--no-install', 'hestai', ...args], { cwd: repo.dir, env, encoding: 'utf8' });
    expect(spawnSync('sh', ['-c', 'command -v hestai'], { env, encoding: 'utf8' }).status).not.toBe(0);
    expect(local(['session', 'start', '--session', id, '--objective', 'remedies']).status).toBe(0);

    const refused = local(['session', 'advance', '--session', id, '--json']);
    expect(refused.status).toBe(1);
    const fixes = json(refused.stdout)['suggested_actions'] as string[];
    expect(fixes[0]).toMatch(/^npx hestai session evidence BINDING --step read_context --type content_hash /);
    expect(fixes[1]).toMatch(/^npx hestai anchor --stage identity --role implementation-lead --token /);

    const blocked = json(local(['session', 'blocked', '--session', id, '--json']).stdout);
    expect(blocked['suggested_actions']).toEqual(fixes);
    const evidence = firstStep(fixes[0]!, { "'<sha256 of .hestai/context/PROJECT-CONTEXT.oct.md>'": hash }).replace(
      /\s+\(sha256sum .*$/,
      '',
    );
    const ran = spawnSync('sh', ['-c', evidence], { cwd: repo.dir, env, encoding: 'utf8' });
    expect(ran.status, `${evidence}\n${ran.stderr}`).toBe(0);
    const anchored = spawnSync('sh', ['-c', firstStep(fixes[1]!, {})], { cwd: repo.dir, env, encoding: 'utf8' });
    expect(anchored.status, anchored.stderr).toBe(0);
    expect(anchored.stdout).toContain('BIND');
    const validate = spawnSync(
      'sh',
      ['-c', `${fixes[1]!.split(', then ')[1]!.replace('--step anchor', '--step read_context')} --json`],
      {
        cwd: repo.dir,
        env,
        encoding: 'utf8',
      },
    );
    expect(json(validate.stdout)).toMatchObject({ step: 'read_context', status: 'PASS' });
  });

  it('a stage without its token says the token is missing and how to pass it, never token "undefined"', () => {
    const { repo, env } = localInstall();
    fs.writeFileSync(path.join(repo.dir, 'bind.md'), '## BIND\n');
    for (const stage of ['context', 'proof']) {
      const res = repo.hestai(['anchor', '--stage', stage, '--payload-file', 'bind.md'], { env });
      expect(res.status, stage).toBe(2);
      expect(res.stderr).not.toContain('undefined');
      expect(res.stderr).toContain('--token');
    }
  });
});
