import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { CLI, makeRepo } from '../helpers/git-repo.js';
import { CEREMONY_ROLE, connectStdio } from '../helpers/mcp.js';
import { holdLock } from '../helpers/hold-lock.js';

// Issue 26, item 7: MCP housekeeping. A cancelled request stops before any write it has not made; a JSON-RPC
// batch and a request with an id that is not a string or number are answered as the negotiated revision
// requires. Raw JSON lines over the server's stdio where the SDK client would not send them.

/** `hestai mcp` as a child, fed raw lines; `next()` resolves with each JSON line it answers. */
function rawServer(cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [CLI, 'mcp'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: unknown[] = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim() !== '') lines.push(JSON.parse(line));
    }
  });
  return {
    send: (value: unknown) => child.stdin.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`),
    async next(): Promise<any> {
      while (lines.length === 0) await sleep(5);
      return lines.shift();
    },
    close: () => child.kill(),
  };
}

async function opened(revision: string) {
  const repo = makeRepo();
  const server = rawServer(repo.dir, repo.env);
  server.send({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  const init = await server.next();
  expect(init.result.protocolVersion).toBe(revision);
  server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { repo, server };
}

describe('MCP housekeeping', () => {
  it('a batch under 2025-06-18 (no batches) is answered with one Invalid Request error', async () => {
    const { server } = await opened('2025-06-18');
    try {
      server.send([{ jsonrpc: '2.0', id: 5, method: 'ping' }]);
      const answer = await server.next();
      expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      expect(answer.error.message).toContain('batch');
      server.send({ jsonrpc: '2.0', id: 6, method: 'ping' });
      expect(await server.next()).toMatchObject({ id: 6, result: {} });
    } finally {
      server.close();
    }
  });

  it('a batch under 2025-03-26 is answered with an array of the responses', async () => {
    const { server } = await opened('2025-03-26');
    try {
      server.send([
        { jsonrpc: '2.0', id: 'a', method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
        { jsonrpc: '2.0', id: 'b', method: 'ping' },
      ]);
      const answer = await server.next();
      expect(Array.isArray(answer)).toBe(true);
      expect(answer.map((r: { id: string }) => r.id).sort()).toEqual(['a', 'b']);
      server.send([]);
      expect(await server.next()).toMatchObject({ id: null, error: { code: -32600 } });
    } finally {
      server.close();
    }
  });

  it('a request whose id is an object (or another non-id) is answered with Invalid Request, id null', async () => {
    const { server } = await opened('2025-06-18');
    try {
      for (const id of [{ x: 1 }, [1], true]) {
        server.send({ jsonrpc: '2.0', id, method: 'ping' });
        expect(await server.next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      }
      server.send({ jsonrpc: '2.0', id: 7, method: 'ping' });
      expect(await server.next()).toMatchObject({ id: 7, result: {} });
    } finally {
      server.close();
    }
  });

  it('a cancelled clock_in waiting on a lock stops before it creates a session', async () => {
    const repo = makeRepo();
    const mcp = await connectStdio(repo.dir, repo.env);
    const holder = await holdLock(path.join(repo.dir, '.hestai/sessions/.locks/sessions'));
    const active = path.join(repo.dir, '.hestai/sessions/active');
    const controller = new AbortController();
    const call = mcp.client
      .callTool(
        { name: 'clock_in', arguments: { working_dir: repo.dir, role: CEREMONY_ROLE, focus: 'cancel me' } },
        { signal: controller.signal },
      )
      .catch((error: Error) => error);
    // clock_in creates active/ and takes the sessions lock in one synchronous step: from here on it waits.
    while (!fs.existsSync(active)) await sleep(5);
    controller.abort('the user pressed Esc');
    expect(await call).toBeInstanceOf(Error);
    await mcp.client.ping(); // the cancellation notification is in the server before the lock is released
    await holder.release();
    const sessions = () =>
      fs.existsSync(active) ? fs.readdirSync(active).filter((n) => /^[0-9a-f-]{36}$/.test(n)) : [];
    // The server says when the cancelled call stopped; a session written instead ends the wait too.
    while (!mcp.stderr().includes('clock_in cancelled') && sessions().length === 0) await sleep(10);
    expect(sessions()).toEqual([]);
    expect(mcp.stderr()).toContain('clock_in cancelled before');
  });
});
