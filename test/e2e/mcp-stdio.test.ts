import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { connectStdio } from '../helpers/mcp.js';

/** Writes raw lines to `hestai mcp` and collects every stdout line until stdin closes and it exits. */
function rawSession(
  repo: TempRepo,
  lines: string[],
): Promise<{ code: number | null; stdout: string[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'mcp'], {
      cwd: repo.dir,
      env: repo.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: stdout.split('\n').filter((l) => l !== ''), stderr }));
    // Give the server each line separately, then wait for the last answer before closing stdin.
    for (const line of lines) child.stdin.write(`${line}\n`);
    const waitForLast = setInterval(() => {
      if (stdout.includes('"id":99')) {
        clearInterval(waitForLast);
        child.stdin.end();
      }
    }, 20);
    setTimeout(() => {
      clearInterval(waitForLast);
      child.stdin.end();
    }, 20_000);
  });
}

describe('hestai mcp over stdio (the SDK stdio client against the built server)', () => {
  it('serves the tool catalogue and the resources, starting from the directory it was launched in', async () => {
    const repo = makeRepo();
    const { client } = await connectStdio(repo.dir, repo.env);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('anchor_status');
    const state = await client.readResource({ uri: 'hestai://session/current' });
    const body = JSON.parse((state.contents[0] as { text: string }).text) as { working_dir: string; session: unknown };
    expect(body.working_dir).toBe(repo.dir);
    expect(body.session).toBeNull();
  });

  it('uses --cwd as the directory for resources', async () => {
    const repo = makeRepo();
    const other = makeRepo();
    const { client } = await connectStdio(repo.dir, repo.env, { args: ['--cwd', other.dir] });
    const state = await client.readResource({ uri: 'hestai://session/current' });
    expect(JSON.parse((state.contents[0] as { text: string }).text)).toMatchObject({ working_dir: other.dir });
  });

  it('keeps stdout for the protocol only and survives malformed requests', async () => {
    const repo = makeRepo();
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const result = await rawSession(repo, [
      'this is not json {',
      JSON.stringify(init),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      '[1, 2, 3]',
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'no/such/method' }),
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'anchor_status', arguments: { working_dir: 7 } },
      }),
      JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }),
      JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/list' }),
    ]);
    expect(result.code).toBe(0);
    const messages = result.stdout.map(
      (line) => JSON.parse(line) as { id?: number; result?: Record<string, unknown>; error?: unknown },
    );
    const byId = new Map(messages.map((m) => [m.id, m]));
    expect(byId.get(1)?.result).toHaveProperty('serverInfo');
    expect(byId.get(2)?.error).toMatchObject({ code: -32601 });
    expect(byId.get(3)?.result).toMatchObject({ isError: true });
    expect(byId.get(4)).toBeDefined();
    expect((byId.get(99)!.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toContain(
      'anchor_status',
    );
    expect(result.stderr).not.toContain('    at '); // diagnostics are one line each, no stack dumps for bad input
  });
});
