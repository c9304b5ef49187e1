import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, makeRepo } from '../helpers/git-repo.js';

// Robust transport (issue 14, item 5): what reaches `hestai mcp` on stdin is written by someone else.
// An oversized line is answered with a JSON-RPC error and the server keeps serving; every line that is
// not JSON is reported on stderr (one line) and answered with -32700.

interface Message {
  id?: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** A raw `hestai mcp` process: write lines (or raw bytes), await the answer with a given id. */
function rawServer(cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [CLI, 'mcp'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const messages: Message[] = [];
  let exit: number | null | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (let nl = stdout.indexOf('\n'); nl !== -1; nl = stdout.indexOf('\n')) {
      const line = stdout.slice(0, nl);
      stdout = stdout.slice(nl + 1);
      if (line.trim() !== '') messages.push(JSON.parse(line) as Message);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.on('close', (code) => {
    exit = code;
  });
  child.stdin.on('error', () => {}); // EPIPE once the server is gone: the assertions say what went wrong
  const until = async (test: () => boolean, what: string) => {
    for (let i = 0; i < 1500 && !test(); i++) await new Promise((r) => setTimeout(r, 20));
    if (!test()) throw new Error(`timed out waiting for ${what}; exit ${String(exit)}; stderr: ${stderr}`);
  };
  return {
    // Resolves when written, or when the server is gone (a dead server must fail the test, not hang it).
    write: (data: string) =>
      new Promise<void>((resolve) => {
        if (child.stdin.write(data)) return resolve();
        child.stdin.once('drain', () => resolve());
        child.once('close', () => resolve());
      }),
    messages,
    stderr: () => stderr,
    exited: () => exit !== undefined,
    until,
    answer: async (id: number) => {
      await until(() => messages.some((m) => m.id === id), `the answer to ${id}`);
      return messages.find((m) => m.id === id)!;
    },
    close: async () => {
      child.stdin.end();
      await until(() => exit !== undefined, 'exit');
      return exit;
    },
  };
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('the stdio transport of hestai mcp', () => {
  it('answers a line over 10 MiB with a JSON-RPC error and keeps serving', async () => {
    const repo = makeRepo();
    const server = rawServer(repo.dir, repo.env);
    await server.write(`${initialize}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    await server.answer(1);
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'clock_in', arguments: { working_dir: repo.dir, role: 'x'.repeat(11 * 1024 * 1024) } },
    });
    await server.write(`${huge}\n`);
    const refused = await server.answer(7);
    expect(refused.error).toMatchObject({ code: -32600 });
    expect(refused.error!.message).toMatch(/10 MiB/);
    expect(server.exited()).toBe(false);
    await server.write(`${JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/list' })}\n`);
    expect((await server.answer(8)).result).toHaveProperty('tools');
    const lines = server
      .stderr()
      .split('\n')
      .filter((l) => /10 MiB/.test(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.length).toBeLessThan(500);
    expect(await server.close()).toBe(0);
  });

  it('reports every line that is not JSON on stderr, one line each, and answers it with -32700', async () => {
    const repo = makeRepo();
    const server = rawServer(repo.dir, repo.env);
    await server.write(`${initialize}\n`);
    await server.answer(1);
    await server.write('this is not json {\n');
    await server.write(`{"jsonrpc":"2.0","id":3,"method":\n`);
    await server.until(
      () => server.messages.filter((m) => m.error?.code === -32700).length === 2,
      'two -32700 answers',
    );
    for (const parseError of server.messages.filter((m) => m.error?.code === -32700)) expect(parseError.id).toBeNull();
    await server.write(`${JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' })}\n`);
    expect((await server.answer(9)).result).toHaveProperty('tools');
    const reports = server
      .stderr()
      .split('\n')
      .filter((l) => /not JSON/.test(l));
    expect(reports).toHaveLength(2);
    expect(reports[0]).toContain('this is not json');
    expect(await server.close()).toBe(0);
  });
});
