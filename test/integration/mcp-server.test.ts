import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspacePaths } from '../../src/paths.js';
import { HESTAI_MCP_TOOLS } from '../../src/util/agent-tools.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { connectInProcess, textOf } from '../helpers/mcp.js';
import { seedAnchor, seedSession } from '../helpers/session-fixture.js';

/** Every property of a JSON schema (recursively) that lacks a description, as dotted paths. */
function undescribed(schema: unknown, at = ''): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as {
    properties?: Record<string, unknown>;
    items?: unknown;
    anyOf?: unknown[];
    oneOf?: unknown[];
  };
  const missing: string[] = [];
  for (const [key, sub] of Object.entries(node.properties ?? {})) {
    const here = at === '' ? key : `${at}.${key}`;
    if (typeof (sub as { description?: unknown }).description !== 'string') missing.push(here);
    missing.push(...undescribed(sub, here));
  }
  if (node.items) missing.push(...undescribed(node.items, `${at}[]`));
  for (const alt of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) missing.push(...undescribed(alt, at));
  return missing;
}

describe('MCP server: tool catalogue', () => {
  it('lists anchor_status as read-only and idempotent, with described inputs and declared output schemas', async () => {
    const mcp = await connectInProcess();
    const { tools } = await mcp.client.listTools();
    const status = tools.find((t) => t.name === 'anchor_status');
    expect(status).toBeDefined();
    expect(status!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, destructiveHint: false });
    expect(status!.inputSchema.properties).toHaveProperty('working_dir');
    expect(status!.outputSchema).toBeDefined();
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      expect(undescribed(tool.inputSchema), `${tool.name} input`).toEqual([]);
      // Results are validated against the full zod schema; tools/list declares only the object (field
      // meanings are in docs/mcp.md), so the whole list an agent reads stays within 10 KB
      // (test/e2e/mcp-wording.test.ts).
      expect(tool.outputSchema, `${tool.name} output`).toMatchObject({ type: 'object' });
    }
  });

  it('offers the six session-protocol tools of seed 004', async () => {
    const mcp = await connectInProcess();
    const names = (await mcp.client.listTools()).tools.map((t) => t.name);
    for (const name of [
      'session_start',
      'validate_gate',
      'advance_phase',
      'record_evidence',
      'session_end',
      'get_blocked_reason',
    ]) {
      expect(names).toContain(name);
    }
  });

  it('serves exactly the tools the agent hooks let through before the anchor (HESTAI_MCP_TOOLS)', async () => {
    const mcp = await connectInProcess();
    const names = (await mcp.client.listTools()).tools.map((t) => t.name);
    expect([...names].sort()).toEqual([...HESTAI_MCP_TOOLS].sort());
  });
});

describe('MCP server: anchor_status (tool gating, seed 001)', () => {
  it('reports locked with the reason and what to do when the session does not exist', async () => {
    const repo = makeRepo();
    const mcp = await connectInProcess();
    const id = '6f1c7f9e-8c1d-4c2e-9a51-2b0d6c1e7a10';
    const result = await mcp.call('anchor_status', { working_dir: repo.dir, session_id: id });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ session_id: id, unlocked: false, code: 'NO_SESSION' });
    expect(result.structuredContent!['remedy']).toMatch(/clock_in/);
    expect(textOf(result)).toMatch(/locked/i);
  });

  it('reports locked until anchor.json exists, then unlocked with the anchor digest', async () => {
    const repo = makeRepo();
    const session = seedSession(repo.dir, { context_generated_at: new Date().toISOString() });
    const mcp = await connectInProcess();
    const before = await mcp.call('anchor_status', { working_dir: repo.dir, session_id: session.session_id });
    expect(before.structuredContent).toMatchObject({ unlocked: false, code: 'NO_ANCHOR' });
    expect(before.structuredContent!['remedy']).toMatch(/anchor/);
    const anchor = seedAnchor(repo.dir, session.session_id);
    const after = await mcp.call('anchor_status', { working_dir: repo.dir, session_id: session.session_id });
    expect(after.isError).toBeFalsy();
    expect(after.structuredContent).toMatchObject({
      unlocked: true,
      code: 'UNLOCKED',
      anchor: { role: 'implementation-lead', mode: 'full', tier: 'default', digest: `sha256:${anchor.integrity.hash}` },
    });
    expect(textOf(after)).toMatch(/unlocked/i);
  });

  it('keeps tools locked when anchor.json was edited after validation', async () => {
    const repo = makeRepo();
    const session = seedSession(repo.dir);
    const anchor = seedAnchor(repo.dir, session.session_id);
    const file = path.join(workspacePaths(repo.dir).active, session.session_id, 'anchor.json');
    fs.writeFileSync(file, JSON.stringify({ ...anchor, role: 'system-steward' }));
    const mcp = await connectInProcess();
    const result = await mcp.call('anchor_status', { working_dir: repo.dir, session_id: session.session_id });
    expect(result.structuredContent).toMatchObject({ unlocked: false, code: 'TAMPERED' });
    expect(result.structuredContent!['reason']).toContain('anchor.json');
  });

  it('never unlocks for an untracked anchor', async () => {
    const repo = makeRepo();
    const session = seedSession(repo.dir);
    seedAnchor(repo.dir, session.session_id, { mode: 'untracked' as never });
    const mcp = await connectInProcess();
    const result = await mcp.call('anchor_status', { working_dir: repo.dir, session_id: session.session_id });
    expect(result.structuredContent).toMatchObject({ unlocked: false });
  });

  it('without session_id, answers for no session at all (not an error) and says to clock in', async () => {
    const repo = makeRepo();
    const mcp = await connectInProcess();
    const result = await mcp.call('anchor_status', { working_dir: repo.dir });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      session_id: null,
      selected_by: null,
      unlocked: false,
      code: 'NO_SESSION',
      anchor: null,
    });
    expect(result.structuredContent!['remedy']).toMatch(/clock_in/);
  });

  it('without session_id, checks the only live session, refuses to guess between several, and honours the HESTAI_SESSION the server was started with', async () => {
    const repo = makeRepo();
    const anchored = seedSession(repo.dir, {
      started_at: '2026-11-22T09:00:00.000Z',
      context_generated_at: new Date().toISOString(),
    });
    seedAnchor(repo.dir, anchored.session_id);
    const mcp = await connectInProcess();
    const only = await mcp.call('anchor_status', { working_dir: repo.dir });
    expect(only.structuredContent).toMatchObject({
      session_id: anchored.session_id,
      selected_by: 'only',
      unlocked: true,
    });
    const newer = seedSession(repo.dir, { started_at: '2026-11-22T11:00:00.000Z' });
    const ambiguous = await mcp.call('anchor_status', { working_dir: repo.dir });
    expect(ambiguous.isError).toBe(true);
    expect(textOf(ambiguous)).toContain(anchored.session_id);
    expect(textOf(ambiguous)).toContain(newer.session_id);
    expect(textOf(ambiguous)).toContain('code: SESSION_AMBIGUOUS');
    const pinned = await connectInProcess({ env: { HESTAI_SESSION: newer.session_id } });
    const explicit = await pinned.call('anchor_status', { working_dir: repo.dir });
    expect(explicit.structuredContent).toMatchObject({
      session_id: newer.session_id,
      selected_by: 'env',
      unlocked: false,
      code: 'NO_ANCHOR',
    });
    const given = await pinned.call('anchor_status', { working_dir: repo.dir, session_id: anchored.session_id });
    expect(given.structuredContent).toMatchObject({
      session_id: anchored.session_id,
      selected_by: 'explicit',
      unlocked: true,
    });
  });

  it('refuses a relative working_dir as an isError result with the CLI error and its remedy, and keeps serving', async () => {
    const repo = makeRepo();
    const mcp = await connectInProcess();
    const bad = await mcp.call('anchor_status', {
      working_dir: 'relative/dir',
      session_id: '6f1c7f9e-8c1d-4c2e-9a51-2b0d6c1e7a10',
    });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toBeUndefined();
    expect(textOf(bad)).toMatch(/\nhint: .*absolute/);
    expect(textOf(bad)).toMatch(/\ncode: WORKDIR_INVALID$/);
    expect(textOf(bad)).toMatch(/^hestai: working directory "relative\/dir" is not absolute/);
    expect(textOf(bad)).toMatch(/hint: /);
    const good = await mcp.call('anchor_status', {
      working_dir: repo.dir,
      session_id: '6f1c7f9e-8c1d-4c2e-9a51-2b0d6c1e7a10',
    });
    expect(good.isError).toBeFalsy();
  });

  it('refuses a directory outside any repository with NOT_A_REPO', async () => {
    const dir = tempDir();
    const mcp = await connectInProcess();
    const result = await mcp.call('anchor_status', {
      working_dir: dir,
      session_id: '6f1c7f9e-8c1d-4c2e-9a51-2b0d6c1e7a10',
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('code: NOT_A_REPO');
  });

  it('answers malformed arguments with an isError result naming the field', async () => {
    const mcp = await connectInProcess();
    const result = await mcp.call('anchor_status', { working_dir: 42, session_id: 'x' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/working_dir/);
  });
});
