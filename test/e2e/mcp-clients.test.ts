import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/git-repo.js';
import { pythonMcp, type PythonMcp } from '../helpers/python-mcp.js';
import { makeSession } from '../helpers/session-fixture.js';

// Issue 14, item 3: real MCP clients nobody here wrote, started for real over stdio against the built
// server: the TypeScript SDK v1 client (what the MCP Inspector CLI and most clients run) and the Python SDK.

interface V1Result {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: unknown;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function v1Client(repo: TempRepo): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp'],
    cwd: repo.dir,
    env: repo.env as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'hestai-v1-e2e', version: '1.0.0' });
  await client.connect(transport);
  closers.push(() => client.close());
  return client;
}
const textOf = (result: V1Result) => result.content.map((c) => c.text ?? '').join('\n');

function initRepo(): TempRepo {
  const repo = makeRepo();
  const init = repo.hestai(['init', '--no-husky', '--commit']);
  expect(init.status, init.stderr).toBe(0);
  return repo;
}

/** Every string in a JSON schema (nested objects and arrays included), with its path. */
function strings(schema: Record<string, unknown>, at: string): Array<{ at: string; schema: Record<string, unknown> }> {
  const found: Array<{ at: string; schema: Record<string, unknown> }> = [];
  const types = ([] as unknown[]).concat(schema['type'] ?? []);
  if (types.includes('string')) found.push({ at, schema });
  for (const [key, sub] of Object.entries(
    (schema['properties'] as Record<string, Record<string, unknown>> | undefined) ?? {},
  ))
    found.push(...strings(sub, `${at}.${key}`));
  if (schema['items']) found.push(...strings(schema['items'] as Record<string, unknown>, `${at}[]`));
  for (const variant of [
    ...((schema['anyOf'] as Record<string, unknown>[] | undefined) ?? []),
    ...((schema['oneOf'] as Record<string, unknown>[] | undefined) ?? []),
  ])
    found.push(...strings(variant, at));
  return found;
}

describe('the TypeScript SDK v1 client', () => {
  it('sees every library error as an isError result with its text, hint and code (never a -32602 about the output schema)', async () => {
    const repo = initRepo();
    const one = makeSession(repo.dir);
    const two = makeSession(repo.dir);
    const client = await v1Client(repo);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['clock_in', { working_dir: repo.dir, role: 'Not A Role' }, 'ROLE_INVALID'],
      ['anchor_status', { working_dir: 'relative/dir' }, 'WORKDIR_INVALID'],
      ['clock_out', { working_dir: repo.dir, session_id: one.token }, 'NOT_YOUR_SESSION'],
      ['anchor_status', { working_dir: repo.dir }, 'SESSION_AMBIGUOUS'],
      ['clock_out', { working_dir: path.join(repo.dir, 'missing') }, 'WORKDIR_INVALID'],
    ];
    for (const [tool, args, code] of cases) {
      const result = (await client.callTool({ name: tool, arguments: args })) as V1Result;
      expect(result.isError, `${tool} ${code}`).toBe(true);
      expect(textOf(result)).toContain(`code: ${code}`);
      expect(textOf(result)).toMatch(/\nhint: \S/);
      expect(result.structuredContent, `${tool} ${code}`).toBeUndefined();
    }
    expect(
      textOf((await client.callTool({ name: 'anchor_status', arguments: { working_dir: repo.dir } })) as V1Result),
    ).toContain(two.token);
  });

  it('validates successful results against the declared output schemas', async () => {
    const repo = initRepo();
    const client = await v1Client(repo);
    const clockIn = (await client.callTool({
      name: 'clock_in',
      arguments: { working_dir: repo.dir, role: 'implementation-lead' },
    })) as V1Result;
    expect(clockIn.isError, textOf(clockIn)).toBeFalsy();
    const status = (await client.callTool({ name: 'anchor_status', arguments: { working_dir: repo.dir } })) as V1Result;
    expect(status.isError, textOf(status)).toBeFalsy();
    const identity = (await client.callTool({
      name: 'anchor',
      arguments: { stage: 'identity', working_dir: repo.dir, role: 'implementation-lead' },
    })) as V1Result;
    expect(identity.isError, textOf(identity)).toBeFalsy();
    const bad = (await client.callTool({
      name: 'anchor',
      arguments: { stage: 'context', working_dir: repo.dir, payload: '## BIND\nROLE::nobody' },
    })) as V1Result;
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/retr/);
    const out = (await client.callTool({ name: 'clock_out', arguments: { working_dir: repo.dir } })) as V1Result;
    expect(out.isError, textOf(out)).toBeFalsy();
  });

  it('refuses an unknown argument key, naming it and the nearest known one', async () => {
    const repo = initRepo();
    const client = await v1Client(repo);
    const result = (await client.callTool({
      name: 'anchor_status',
      arguments: { working_dir: repo.dir, sessionId: 'x' },
    })) as V1Result;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('sessionId');
    expect(textOf(result)).toContain('session_id');
  });

  it('bounds every input string: tools/list declares maxLength, and a 5 MiB role is refused without being echoed', async () => {
    const repo = initRepo();
    const client = await v1Client(repo);
    const { tools } = await client.listTools();
    for (const tool of tools) {
      expect(tool.inputSchema['additionalProperties'], tool.name).toBe(false);
      for (const s of strings(tool.inputSchema as Record<string, unknown>, tool.name)) {
        if (s.schema['enum'] === undefined) expect(s.schema['maxLength'], s.at).toEqual(expect.any(Number));
      }
    }
    const huge = 'a'.repeat(5 * 1024 * 1024);
    const result = (await client.callTool({
      name: 'clock_in',
      arguments: { working_dir: repo.dir, role: huge },
    })) as V1Result;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result).length).toBeLessThan(4096);
    expect(textOf(result)).toMatch(/role/);
  });
});

describe('the MCP Python SDK', () => {
  let py: PythonMcp = { python: null, skip: 'not probed yet' };
  beforeAll(() => {
    py = pythonMcp();
    if (py.skip !== null) console.warn(`skipping the Python SDK client test: ${py.skip}`);
  }, 300_000);

  it('drives the server over stdio: errors are isError results with hints, successes validate against the output schemas', (ctx) => {
    if (py.python === null) return ctx.skip(py.skip);
    const repo = initRepo();
    const run = spawnSync(
      py.python,
      [path.join(PROJECT_ROOT, 'test/e2e/python/mcp_client.py'), process.execPath, CLI, repo.dir],
      {
        cwd: repo.dir,
        env: repo.env,
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Record<
      string,
      { raised?: string; is_error?: boolean; text?: string; structured?: unknown }
    > & { tools: string[]; state: Record<string, unknown> };
    expect(report.tools).toEqual(expect.arrayContaining(['anchor', 'anchor_status', 'clock_in', 'clock_out']));
    for (const [key, code] of [
      ['bad_role', 'ROLE_INVALID'],
      ['relative_dir', 'WORKDIR_INVALID'],
    ] as const) {
      expect(report[key], key).toMatchObject({ is_error: true });
      expect(report[key]!.text).toContain(`code: ${code}`);
      expect(report[key]!.text).toMatch(/\nhint: \S/);
    }
    expect(report['unknown_key']).toMatchObject({ is_error: true });
    expect(report['unknown_key']!.text).toContain('sessionId');
    for (const key of ['clock_in', 'anchor_status', 'clock_out']) {
      expect(report[key]!.raised, key).toBeUndefined();
      expect(report[key], key).toMatchObject({ is_error: false });
    }
    const id = (report['clock_in']!.structured as { session_id: string }).session_id;
    expect(report.state).toMatchObject({ working_dir: repo.dir, session_id: id });
  });
});
