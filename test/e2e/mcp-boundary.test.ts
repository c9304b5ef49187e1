import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  anchorOverMcp,
  CEREMONY_BIND,
  CEREMONY_ROLE,
  ceremonyRepo,
  connectStdio,
  textOf,
  type OverStdio,
} from '../helpers/mcp.js';
import { PROJECT_ROOT, type TempRepo } from '../helpers/git-repo.js';

// Issue 26, item 6: no MCP connection acts for another. Two agents, each its own `hestai mcp` process
// started by the SDK's real stdio client in the same worktree; the intruder names the victim's session id.

async function clockIn(mcp: OverStdio, repo: TempRepo): Promise<string> {
  const result = await mcp.call('clock_in', { working_dir: repo.dir, role: CEREMONY_ROLE, focus: 'work' });
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent!['session_id'] as string;
}

const pendingDir = (repo: TempRepo, id: string) => path.join(repo.dir, '.hestai/sessions/pending', id);

describe('no MCP connection acts for another', () => {
  it("another connection's anchor on my session id is refused at every stage, so it can neither lock nor own it", async () => {
    const repo = ceremonyRepo();
    const victim = await connectStdio(repo.dir, repo.env);
    const intruder = await connectStdio(repo.dir, repo.env);
    const mine = await clockIn(victim, repo);

    for (const stage of ['identity', 'context', 'proof', 'proof', 'proof', 'proof', 'proof'] as const) {
      const refused = await intruder.call('anchor', {
        stage,
        working_dir: repo.dir,
        session_id: mine,
        role: CEREMONY_ROLE,
        payload: stage === 'identity' ? undefined : 'garbage',
      });
      expect(refused.isError, stage).toBe(true);
      expect(textOf(refused), stage).toContain('NOT_YOUR_SESSION');
    }
    expect(fs.existsSync(pendingDir(repo, mine))).toBe(false);
    expect(fs.existsSync(path.join(repo.dir, '.hestai/sessions/terminal'))).toBe(false);

    // The victim anchors undisturbed; the intruder still cannot close or drive its session.
    expect(await anchorOverMcp(victim, repo.dir, mine)).toBe(mine);
    const status = await victim.call('anchor_status', { working_dir: repo.dir });
    expect(status.structuredContent).toMatchObject({ session_id: mine, unlocked: true });
    const out = await intruder.call('clock_out', { working_dir: repo.dir, session_id: mine });
    expect(textOf(out)).toContain('NOT_YOUR_SESSION');
    const oneShot = await intruder.call('odyssean_anchor', {
      working_dir: repo.dir,
      session_id: mine,
      role: CEREMONY_ROLE,
      vector_candidate: '===RAPH_VECTOR::v4.0===\n===END===',
    });
    expect(oneShot.isError).toBe(true);
    expect(textOf(oneShot)).toContain('NOT_YOUR_SESSION');
  });

  it('session_start, record_evidence and validate_gate on another connection’s session are refused', async () => {
    const repo = ceremonyRepo();
    const victim = await connectStdio(repo.dir, repo.env);
    const intruder = await connectStdio(repo.dir, repo.env);
    const mine = await clockIn(victim, repo);
    const w = { working_dir: repo.dir, session_id: mine };
    for (const [tool, args] of [
      ['session_start', { ...w, objective: 'hijack' }],
      ['record_evidence', { ...w, phase: 'BINDING', evidence_type: 'manual', evidence: 'x' }],
      ['validate_gate', { ...w, phase: 'BINDING' }],
    ] as const) {
      const refused = await intruder.call(tool, args);
      expect(refused.isError, tool).toBe(true);
      expect(textOf(refused), tool).toContain('NOT_YOUR_SESSION');
    }
    expect(fs.existsSync(path.join(repo.dir, '.hestai/sessions/active', mine, 'protocol.json'))).toBe(false);
    const own = await victim.call('session_start', { working_dir: repo.dir, objective: 'mine' });
    expect(own.isError, textOf(own)).toBeFalsy();
  });

  it('a failed handshake is still the connection’s own to retry (ownership is unchanged by the refusals)', async () => {
    const repo = ceremonyRepo();
    const agent = await connectStdio(repo.dir, repo.env);
    const id = await clockIn(agent, repo);
    const identity = await agent.call('anchor', {
      stage: 'identity',
      working_dir: repo.dir,
      session_id: id,
      role: CEREMONY_ROLE,
    });
    expect(identity.isError, textOf(identity)).toBeFalsy();
    const context = await agent.call('anchor', {
      stage: 'context',
      working_dir: repo.dir,
      session_id: id,
      payload: CEREMONY_BIND,
    });
    expect(context.isError, textOf(context)).toBeFalsy();
  });

  it('tools act only inside the repository the server serves', async () => {
    const served = ceremonyRepo();
    const other = ceremonyRepo();
    const mcp = await connectStdio(served.dir, served.env);
    for (const [tool, args] of [
      ['clock_in', { working_dir: other.dir, role: CEREMONY_ROLE, focus: 'elsewhere' }],
      ['anchor', { stage: 'identity', working_dir: other.dir, role: CEREMONY_ROLE }],
    ] as const) {
      const refused = await mcp.call(tool, args);
      expect(refused.isError, tool).toBe(true);
      expect(textOf(refused), tool).toContain('OUTSIDE_SERVED_ROOT');
      expect(textOf(refused), tool).toContain(served.dir);
    }
    const sessions = path.join(other.dir, '.hestai/sessions/active');
    expect(fs.existsSync(sessions) ? fs.readdirSync(sessions).filter((n) => !n.startsWith('.')) : []).toEqual([]);
    // A subdirectory of the served repository is the served repository.
    fs.mkdirSync(path.join(served.dir, 'src', 'deep'), { recursive: true });
    const inside = await mcp.call('clock_in', {
      working_dir: path.join(served.dir, 'src', 'deep'),
      role: CEREMONY_ROLE,
      focus: 'here',
    });
    expect(inside.isError, textOf(inside)).toBeFalsy();
  });
  it('the OUTSIDE_SERVED_ROOT hint is a shell command that runs where the user is (npx hestai mcp --cwd <repo>)', async () => {
    const served = ceremonyRepo();
    const other = ceremonyRepo();
    // A project that installed hestai-hooks as a dependency, as npm lays it out (no hestai on PATH).
    fs.mkdirSync(path.join(served.dir, 'node_modules/.bin'), { recursive: true });
    fs.symlinkSync(PROJECT_ROOT, path.join(served.dir, 'node_modules/hestai-hooks'));
    fs.symlinkSync('../hestai-hooks/dist/cli/bin.js', path.join(served.dir, 'node_modules/.bin/hestai'));
    const mcp = await connectStdio(served.dir, served.env);
    const refused = await mcp.call('clock_in', { working_dir: other.dir, role: CEREMONY_ROLE, focus: 'elsewhere' });
    expect(textOf(refused)).toContain('OUTSIDE_SERVED_ROOT');
    const hint = /^hint: .*\((npx hestai mcp --cwd <repo>)\)/m.exec(textOf(refused));
    expect(hint, textOf(refused)).not.toBeNull();
    const PATH = (process.env['PATH'] ?? '')
      .split(':')
      .filter((dir) => !dir.includes('node_modules'))
      .join(':');
    const run = spawnSync('sh', ['-c', hint![1]!.replace('<repo>', other.dir)], {
      cwd: served.dir,
      env: { ...served.env, PATH },
      input: '',
      encoding: 'utf8',
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stderr).not.toMatch(/unknown option|not found/i);
  });
  it('the roots the client declares only narrow the served repository (file:/// widens nothing), follow roots/list_changed, and without roots the served repository is served', async () => {
    const started = ceremonyRepo();
    const other = ceremonyRepo();
    // Issue 26: a client answering roots/list with the whole file system does not open other repositories.
    let roots = [{ uri: 'file:///', name: 'everything' }];
    const mcp = await connectStdio(started.dir, started.env, { roots: () => roots });
    const clockInAt = (dir: string) => mcp.call('clock_in', { working_dir: dir, role: CEREMONY_ROLE, focus: 'roots' });
    const sessionsIn = (dir: string) => {
      const sessions = path.join(dir, '.hestai/sessions/active');
      return fs.existsSync(sessions) ? fs.readdirSync(sessions).filter((n) => !n.startsWith('.')) : [];
    };
    const widened = await clockInAt(other.dir);
    expect(widened.isError).toBe(true);
    expect(textOf(widened)).toContain('OUTSIDE_SERVED_ROOT');
    expect(textOf(widened)).toContain(started.dir);
    expect(sessionsIn(other.dir)).toEqual([]);
    fs.mkdirSync(path.join(started.dir, 'src', 'deep'), { recursive: true });
    const inside = await clockInAt(path.join(started.dir, 'src', 'deep'));
    expect(inside.isError, textOf(inside)).toBeFalsy();
    // Roots naming another repository serve neither it (not served) nor the served one (not declared).
    roots = [{ uri: pathToFileURL(other.dir).href, name: 'other' }];
    await mcp.client.sendRootsListChanged();
    for (const dir of [other.dir, started.dir]) {
      const refused = await clockInAt(dir);
      expect(refused.isError, dir).toBe(true);
      expect(textOf(refused), dir).toContain('OUTSIDE_SERVED_ROOT');
    }
    expect(sessionsIn(other.dir)).toEqual([]);
    // A root inside the repository does not hand out the repository around it.
    roots = [{ uri: pathToFileURL(path.join(started.dir, 'src')).href, name: 'src' }];
    await mcp.client.sendRootsListChanged();
    const around = await clockInAt(path.join(started.dir, 'src', 'deep'));
    expect(around.isError).toBe(true);
    expect(textOf(around)).toContain('OUTSIDE_SERVED_ROOT');
    // The served repository as a root: served.
    roots = [{ uri: pathToFileURL(started.dir).href, name: 'started' }];
    await mcp.client.sendRootsListChanged();
    const declared = await clockInAt(started.dir);
    expect(declared.isError, textOf(declared)).toBeFalsy();
    // No roots at all: the repository the server was started in.
    roots = [];
    await mcp.client.sendRootsListChanged();
    const fallback = await clockInAt(started.dir);
    expect(fallback.isError, textOf(fallback)).toBeFalsy();
    const elsewhere = await clockInAt(other.dir);
    expect(elsewhere.isError).toBe(true);
    expect(textOf(elsewhere)).toContain('OUTSIDE_SERVED_ROOT');
    expect(sessionsIn(other.dir)).toEqual([]);
  });
  it('resources read nothing outside the roots the client declares', async () => {
    const started = ceremonyRepo();
    const other = ceremonyRepo();
    let roots = [{ uri: pathToFileURL(other.dir).href, name: 'other' }];
    const mcp = await connectStdio(started.dir, started.env, { roots: () => roots });
    // No session and no working_dir yet: the resources would read the start directory, outside the roots.
    await expect(mcp.read('hestai://audit')).rejects.toThrow(/OUTSIDE_SERVED_ROOT/);
    roots = [{ uri: pathToFileURL(started.dir).href, name: 'started' }];
    await mcp.client.sendRootsListChanged();
    const inside = await mcp.call('clock_in', { working_dir: started.dir, role: CEREMONY_ROLE, focus: 'roots' });
    expect(inside.isError, textOf(inside)).toBeFalsy();
    expect(await mcp.read('hestai://audit')).toMatchObject({ working_dir: started.dir });
  });
  it("one agent's failed handshakes never lock another agent's valid session; a fresh or spare session of the role stays locked", async () => {
    const repo = ceremonyRepo();
    const ann = await connectStdio(repo.dir, repo.env);
    const bob = await connectStdio(repo.dir, repo.env);
    const annId = await clockIn(ann, repo);
    expect(await anchorOverMcp(ann, repo.dir, annId)).toBe(annId);
    const bobId = await clockIn(bob, repo);
    const spare = await connectStdio(repo.dir, repo.env);
    const spareId = await clockIn(spare, repo); // clocked in before the lock, not anchored
    await bob.call('anchor', { stage: 'identity', working_dir: repo.dir, role: CEREMONY_ROLE });
    await bob.call('anchor', { stage: 'context', working_dir: repo.dir, payload: CEREMONY_BIND });
    let terminal = false;
    for (let i = 0; i < 10 && !terminal; i++) {
      const failed = await bob.call('anchor', { stage: 'proof', working_dir: repo.dir, payload: 'not a proof' });
      expect(failed.isError).toBe(true);
      terminal = failed.structuredContent?.['terminal'] === true;
    }
    expect(terminal).toBe(true);
    expect((await bob.call('anchor_status', { working_dir: repo.dir })).structuredContent).toMatchObject({
      session_id: bobId,
      unlocked: false,
    });
    // Ann anchored before Bob's lock: still unlocked.
    expect((await ann.call('anchor_status', { working_dir: repo.dir })).structuredContent).toMatchObject({
      session_id: annId,
      unlocked: true,
    });
    // The escape stays closed: a spare session and a fresh clock-in of the role are locked.
    expect(await spare.call('anchor', { stage: 'identity', working_dir: repo.dir, role: CEREMONY_ROLE })).toMatchObject(
      {
        isError: true,
      },
    );
    expect(spareId).not.toBe(bobId);
    const fresh = await connectStdio(repo.dir, repo.env);
    await clockIn(fresh, repo);
    const identity = await fresh.call('anchor', { stage: 'identity', working_dir: repo.dir, role: CEREMONY_ROLE });
    expect(identity.isError).toBe(true);
  });
});
