import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspacePaths } from '../../src/paths.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { connectInProcess } from '../helpers/mcp.js';
import { seedAnchor, seedSession } from '../helpers/session-fixture.js';

const NOW = new Date('2026-11-23T12:00:00.000Z');
const clock = () => NOW;

describe('MCP resources', () => {
  it('lists the session:// protocol resources and the hestai:// clock-in, anchor and audit views as JSON resources', async () => {
    const repo = makeRepo();
    const mcp = await connectInProcess({ cwd: repo.dir, clock });
    const { resources } = await mcp.client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([
      'hestai://audit',
      'hestai://context/checklist',
      'hestai://session/archive',
      'hestai://session/current',
      'session://checklist',
      'session://history',
      'session://state',
      'session://violations',
    ]);
    for (const resource of resources) {
      expect(resource.mimeType).toBe('application/json');
      expect(resource.description, resource.uri).toBeTruthy();
    }
  });

  it('hestai://session/current says there is no session and what to do', async () => {
    const repo = makeRepo();
    const mcp = await connectInProcess({ cwd: repo.dir, clock });
    const state = (await mcp.read('hestai://session/current')) as Record<string, unknown>;
    expect(state).toMatchObject({
      working_dir: repo.dir,
      session_id: null,
      session: null,
      anchor: null,
      context: null,
      active_sessions: [],
    });
    expect(state['hint']).toMatch(/clock_in/);
  });

  it('hestai://session/current shows the session record, the verdict the hooks give it and the age of its context', async () => {
    const repo = makeRepo();
    const session = seedSession(repo.dir, { context_generated_at: '2026-11-22T10:00:00.000Z' });
    seedAnchor(repo.dir, session.session_id);
    const mcp = await connectInProcess({ cwd: repo.dir, clock, env: { HESTAI_SESSION: session.session_id } });
    const state = (await mcp.read('hestai://session/current')) as Record<string, unknown>;
    expect(state).toMatchObject({
      session_id: session.session_id,
      selected_by: 'env',
      session: { session_id: session.session_id, role: 'implementation-lead', state: 'ACTIVE' },
      // Anchored, but the context is 26 h old and not acknowledged: the hooks refuse it, so MCP does too.
      anchor: { unlocked: false, code: 'STALE' },
      context: {
        generated_at: '2026-11-22T10:00:00.000Z',
        age_hours: 26,
        max_age_hours: 24,
        stale: true,
        acknowledged: false,
      },
      active_sessions: [
        { session_id: session.session_id, role: 'implementation-lead', state: 'ACTIVE', anchored: true },
      ],
    });
  });

  it('hestai://session/current picks no session among several live ones (like the hooks) and says how to choose', async () => {
    const repo = makeRepo();
    const anchored = seedSession(repo.dir, { started_at: '2026-11-22T09:00:00.000Z' });
    seedAnchor(repo.dir, anchored.session_id);
    const other = seedSession(repo.dir, { started_at: '2026-11-22T11:00:00.000Z' });
    seedSession(repo.dir, { started_at: '2026-11-22T12:00:00.000Z', state: 'STALE' });
    const mcp = await connectInProcess({ cwd: repo.dir, clock });
    const state = (await mcp.read('hestai://session/current')) as Record<string, unknown>;
    expect(state).toMatchObject({ working_dir: repo.dir, session_id: null, selected_by: null });
    expect(state['hint']).toContain('session_id');
    expect((state['active_sessions'] as unknown[]).length).toBe(3);
    void other;
  });

  it('hestai://session/current reports an unreadable neighbour session without failing', async () => {
    const repo = makeRepo();
    const session = seedSession(repo.dir);
    const broken = '0b7a9f3c-2d4e-4f6a-8b1c-3d5e7f9a1b2c';
    const dir = path.join(workspacePaths(repo.dir).active, broken);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'session.json'), '{"version": 1,');
    const mcp = await connectInProcess({ cwd: repo.dir, clock, env: { HESTAI_SESSION: session.session_id } });
    const state = (await mcp.read('hestai://session/current')) as {
      problems: Array<{ session_id: string; error: string }>;
    };
    expect(state.problems).toEqual([{ session_id: broken, error: expect.stringContaining('corrupt') }]);
  });

  it('hestai://context/checklist returns the FAST-layer checklist, or says it does not exist yet', async () => {
    const repo = makeRepo();
    const mcp = await connectInProcess({ cwd: repo.dir, clock });
    const missing = (await mcp.read('hestai://context/checklist')) as Record<string, unknown>;
    expect(missing).toMatchObject({ file: '.hestai/context/state/checklist.oct.md', exists: false, content: null });
    expect(missing['hint']).toMatch(/clock_in/);
    const text =
      '===CHECKLIST===\nMETA:\n  TYPE::"FAST_LAYER"\nITEMS::["[x] write the failing test","[ ] implement"]\n===END===\n';
    repo.write('.hestai/context/state/checklist.oct.md', text);
    const present = (await mcp.read('hestai://context/checklist')) as Record<string, unknown>;
    expect(present).toMatchObject({
      exists: true,
      content: text,
      parsed: {
        name: 'CHECKLIST',
        data: { META: { TYPE: 'FAST_LAYER' }, ITEMS: ['[x] write the failing test', '[ ] implement'] },
      },
      parse_errors: [],
    });
  });

  it('hestai://context/checklist reports OCTAVE syntax errors with their line and still returns the text', async () => {
    const repo = makeRepo();
    const text = '===CHECKLIST===\nITEMS::[a,\n===END===\n';
    repo.write('.hestai/context/state/checklist.oct.md', text);
    const mcp = await connectInProcess({ cwd: repo.dir, clock });
    const result = (await mcp.read('hestai://context/checklist')) as {
      content: string;
      parsed: unknown;
      parse_errors: string[];
    };
    expect(result.content).toBe(text);
    expect(result.parsed).toBeNull();
    expect(result.parse_errors[0]).toMatch(/^\.hestai\/context\/state\/checklist\.oct\.md:2: /);
  });

  it('hestai://session/archive returns the five most recently archived sessions, newest first', async () => {
    const repo = makeRepo();
    const archive = workspacePaths(repo.dir).archive;
    fs.mkdirSync(archive, { recursive: true });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const id = `0b7a9f3c-2d4e-4f6a-8b1c-3d5e7f9a1b2${i}`;
      ids.push(id);
      const file = path.join(archive, `2026-11-2${i}-${id}.oct.md`);
      fs.writeFileSync(file, `===SESSION_ARCHIVE===\nSESSION_ID::"${id}"\n===END===\n`);
      const at = new Date(Date.UTC(2026, 10, 20 + i, 12));
      fs.utimesSync(file, at, at);
    }
    const mcp = await connectInProcess({ cwd: repo.dir, clock });
    const history = (await mcp.read('hestai://session/archive')) as {
      sessions: Array<{ session_id: string; file: string; archived_at: string; content: string }>;
    };
    expect(history.sessions.map((s) => s.session_id)).toEqual([ids[6], ids[5], ids[4], ids[3], ids[2]]);
    expect(history.sessions[0]!.file).toBe(`.hestai/sessions/archive/2026-11-26-${ids[6]}.oct.md`);
    expect(history.sessions[0]!.archived_at).toBe('2026-11-26T12:00:00.000Z');
    expect(history.sessions[0]!.content).toContain(`SESSION_ID::"${ids[6]}"`);
    expect(history.sessions[0]).toMatchObject({ parsed: { name: 'SESSION_ARCHIVE', data: { SESSION_ID: ids[6] } } });
  });

  it('hestai://session/archive orders by the ENDED_AT of an archive when it has one', async () => {
    const repo = makeRepo();
    const archive = workspacePaths(repo.dir).archive;
    fs.mkdirSync(archive, { recursive: true });
    const early = '0b7a9f3c-2d4e-4f6a-8b1c-3d5e7f9a1b21';
    const late = '0b7a9f3c-2d4e-4f6a-8b1c-3d5e7f9a1b22';
    // Written in the opposite order of their end times: the later session's file is the older one on disk.
    fs.writeFileSync(
      path.join(archive, `20261121T100000Z-${late}.oct.md`),
      `===SESSION_ARCHIVE===\nSESSION_ID::"${late}"\nENDED_AT::"2026-11-21T10:00:00.000Z"\n===END===\n`,
    );
    const old = new Date('2026-11-01T00:00:00Z');
    fs.utimesSync(path.join(archive, `20261121T100000Z-${late}.oct.md`), old, old);
    fs.writeFileSync(
      path.join(archive, `20261120T100000Z-${early}.oct.md`),
      `===SESSION_ARCHIVE===\nSESSION_ID::"${early}"\nENDED_AT::"2026-11-20T10:00:00.000Z"\n===END===\n`,
    );
    const mcp = await connectInProcess({ cwd: repo.dir, clock });
    const history = (await mcp.read('hestai://session/archive')) as {
      sessions: Array<{ session_id: string; archived_at: string }>;
    };
    expect(history.sessions).toMatchObject([
      { session_id: late, archived_at: '2026-11-21T10:00:00.000Z' },
      { session_id: early, archived_at: '2026-11-20T10:00:00.000Z' },
    ]);
  });

  it('hestai://session/archive is empty before any session was archived', async () => {
    const repo = makeRepo();
    const mcp = await connectInProcess({ cwd: repo.dir, clock });
    expect(await mcp.read('hestai://session/archive')).toEqual({ working_dir: repo.dir, sessions: [] });
  });

  it('hestai://audit lists bypasses, acknowledgments, take-overs, resets and violations from the audit log', async () => {
    const repo = makeRepo();
    const lines = [
      { at: '2026-11-22T10:00:00.000Z', event: 'clock_in', session_id: 's1' },
      { at: '2026-11-22T10:01:00.000Z', event: 'bypass', session_id: 's1', reason: 'hotfix' },
      { at: '2026-11-22T10:02:00.000Z', event: 'stale_acknowledged', session_id: 's1', reason: 'reviewed' },
      { at: '2026-11-22T10:03:00.000Z', event: 'session_takeover', session_id: 's2' },
      { at: '2026-11-22T10:04:00.000Z', event: 'anchor_reset', session_id: 's2' },
      { at: '2026-11-22T10:05:00.000Z', event: 'tdd_violation', session_id: 's2' },
      { at: '2026-11-22T10:06:00.000Z', event: 'anchor_validated', session_id: 's2' },
    ];
    repo.write('.hestai/audit/audit.jsonl', `${lines.map((l) => JSON.stringify(l)).join('\n')}\n{not json\n`);
    const mcp = await connectInProcess({ cwd: repo.dir, clock });
    const result = (await mcp.read('hestai://audit')) as {
      violations: Array<Record<string, unknown>>;
      problems: string[];
    };
    expect(result.violations.map((v) => v['event'])).toEqual([
      'bypass',
      'stale_acknowledged',
      'session_takeover',
      'anchor_reset',
      'tdd_violation',
    ]);
    expect(result.violations.map((v) => v['kind'])).toEqual([
      'bypass',
      'acknowledgment',
      'takeover',
      'reset',
      'violation',
    ]);
    expect(result.violations[0]).toMatchObject({ reason: 'hotfix', session_id: 's1', at: '2026-11-22T10:01:00.000Z' });
    expect(result.problems).toEqual([expect.stringMatching(/audit\.jsonl:8: .*not JSON/)]);
  });

  it('fails a read with the CLI error when the server was not started inside a repository', async () => {
    const dir = tempDir();
    const mcp = await connectInProcess({ cwd: dir, clock });
    await expect(mcp.read('hestai://session/current')).rejects.toThrow(/not inside a git work tree/);
  });
});
