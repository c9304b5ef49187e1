import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspacePaths } from '../../src/paths.js';
import { readSession } from '../../src/records/session.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { connectInProcess, textOf } from '../helpers/mcp.js';
import { seedAnchor, seedSession } from '../helpers/session-fixture.js';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const clock = () => NOW;
const ROLE = 'implementation-lead';

function projectRepo(): TempRepo {
  const repo = makeRepo();
  repo.commit('chore: project context', {
    '.hestai/context/PROJECT-CONTEXT.oct.md': '===PROJECT_CONTEXT===\nPHASE::B1\nNAME::"demo"\n===END===\n',
    'src/app.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  });
  return repo;
}

describe('MCP tools: annotations of the session tools are true', () => {
  it('clock_in creates state (not read-only, not idempotent); clock_out removes the active directory (destructive)', async () => {
    const mcp = await connectInProcess();
    const tools = (await mcp.client.listTools()).tools;
    expect(tools.find((t) => t.name === 'clock_in')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(tools.find((t) => t.name === 'clock_out')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    });
  });
});

describe('MCP tools: clock_in', () => {
  it('registers a session and returns the ClockInResponse with a readable next step', async () => {
    const repo = projectRepo();
    const mcp = await connectInProcess({ clock, env: repo.env });
    const result = await mcp.call('clock_in', { working_dir: repo.dir, role: ROLE, focus: 'implement the app' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const id = result.structuredContent!['session_id'] as string;
    expect(result.structuredContent).toMatchObject({
      focus_resolved: { value: 'implement the app', source: 'explicit' },
      conflict: null,
      context_generated_at: NOW.toISOString(),
      context_paths: { checklist: '.hestai/context/state/checklist.oct.md' },
    });
    expect(readSession(workspacePaths(repo.dir), id)).toMatchObject({ role: ROLE, focus: 'implement the app' });
    expect(textOf(result)).toContain(id);
    expect(textOf(result)).toMatch(/anchor/);
    const checklist = (await (
      await connectInProcess({ cwd: repo.dir, clock, env: repo.env })
    ).read('hestai://context/checklist')) as Record<string, unknown>;
    expect(checklist).toMatchObject({ exists: true, parsed: { data: { SESSION_ID: id } } });
  });

  it('reports an invalid role as an isError result with the library error and its remedy, and writes nothing', async () => {
    const repo = projectRepo();
    const mcp = await connectInProcess({ clock, env: repo.env });
    const result = await mcp.call('clock_in', { working_dir: repo.dir, role: 'Bad Role!' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toContain('code: ROLE_INVALID');
    expect(textOf(result)).toMatch(/^hestai: .*role/);
    expect(textOf(result)).toMatch(/\nhint: /);
    expect(fs.existsSync(workspacePaths(repo.dir).active)).toBe(false);
  });

  it('aborts on a live neighbour when asked to, as an isError result', async () => {
    const repo = projectRepo();
    const mcp = await connectInProcess({ clock, env: repo.env });
    const first = await mcp.call('clock_in', { working_dir: repo.dir, role: ROLE });
    expect(first.isError).toBeFalsy();
    const second = await mcp.call('clock_in', { working_dir: repo.dir, role: 'tester', on_conflict: 'abort' });
    expect(second.isError).toBe(true);
    expect(textOf(second)).toContain('code: SESSION_CONFLICT');
  });
});

describe("MCP tools: clock_out (the connection's own session only)", () => {
  it('refuses a session the connection did not start, anchor or get pinned; the pinned connection closes it, anchored or not', async () => {
    const repo = projectRepo();
    const session = seedSession(repo.dir);
    const stranger = await connectInProcess({ clock, env: repo.env });
    const refused = await stranger.call('clock_out', {
      working_dir: repo.dir,
      session_id: session.session_id,
      summary: 'done',
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('code: NOT_YOUR_SESSION');
    expect(textOf(refused)).toMatch(/hint: .*clock_in/);
    expect(fs.existsSync(path.join(workspacePaths(repo.dir).active, session.session_id))).toBe(true);
    seedAnchor(repo.dir, session.session_id);
    const mcp = await connectInProcess({ clock, env: { ...repo.env, HESTAI_SESSION: session.session_id } });
    const done = await mcp.call('clock_out', { working_dir: repo.dir, summary: 'added the app' });
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(done.structuredContent).toMatchObject({ session_id: session.session_id, summary: 'added the app' });
    const archive = fs.readFileSync(path.join(repo.dir, done.structuredContent!['archive_path'] as string), 'utf8');
    expect(archive).toContain('BINDING::anchored');
    expect(fs.existsSync(path.join(workspacePaths(repo.dir).active, session.session_id))).toBe(false);
    expect(textOf(done)).toContain(session.session_id);
    const history = (await (
      await connectInProcess({ cwd: repo.dir, clock, env: repo.env })
    ).read('hestai://session/archive')) as { sessions: Array<{ session_id: string }> };
    expect(history.sessions[0]?.session_id).toBe(session.session_id);
  });

  it('closes its own session whose anchor was tampered with, recorded as unanchored', async () => {
    const repo = projectRepo();
    const session = seedSession(repo.dir);
    const anchor = seedAnchor(repo.dir, session.session_id);
    fs.writeFileSync(
      path.join(workspacePaths(repo.dir).active, session.session_id, 'anchor.json'),
      JSON.stringify({ ...anchor, tier: 'quick' }),
    );
    const mcp = await connectInProcess({ clock, env: { ...repo.env, HESTAI_SESSION: session.session_id } });
    const done = await mcp.call('clock_out', { working_dir: repo.dir });
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(done.structuredContent).toMatchObject({ session_id: session.session_id, anchor_digest: null });
    expect(fs.readFileSync(path.join(repo.dir, done.structuredContent!['archive_path'] as string), 'utf8')).toContain(
      'BINDING::unanchored',
    );
  });

  it('without any session, reports the library error as an isError result', async () => {
    const repo = projectRepo();
    const mcp = await connectInProcess({ clock, env: repo.env });
    const result = await mcp.call('clock_out', { working_dir: repo.dir });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^hestai: /);
  });
});
