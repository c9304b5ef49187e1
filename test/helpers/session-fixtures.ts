import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { HestaiError } from '../../src/errors.js';

/** A fixed clock for library calls. */
export function fixedClock(iso: string): () => Date {
  const ms = Date.parse(iso);
  return () => new Date(ms);
}

/** Awaits a promise that must reject with a HestaiError; returns it. */
export async function rejection(promise: Promise<unknown>): Promise<HestaiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HestaiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail with a HestaiError');
}

/** Puts an executable shell script named `name` in a fresh bin directory and returns that directory. */
export function fakeBin(dir: string, name: string, script: string): string {
  const bin = path.join(dir, 'fake-bin');
  fs.mkdirSync(bin, { recursive: true });
  const file = path.join(bin, name);
  fs.writeFileSync(file, script);
  fs.chmodSync(file, 0o755);
  return bin;
}

/** PATH directories that hold git and sh but no `gh`. */
export function pathWithoutGh(): string {
  return (process.env['PATH'] ?? '')
    .split(path.delimiter)
    .filter((dir) => dir !== '' && !fs.existsSync(path.join(dir, 'gh')))
    .join(path.delimiter);
}

export interface ChatServer {
  url: string;
  requests: { url: string; headers: http.IncomingHttpHeaders; body: Record<string, unknown> }[];
}

const servers: http.Server[] = [];
afterEach(async () => {
  while (servers.length > 0) {
    const server = servers.pop()!;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/**
 * A real OpenAI-compatible chat-completions server on 127.0.0.1:0. `reply` returns the HTTP answer for a
 * request body, or `'hang'` to never answer (the timeout path).
 */
export async function chatServer(
  reply: (body: Record<string, unknown>) => { status: number; body: string } | 'hang',
): Promise<ChatServer> {
  const requests: ChatServer['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      requests.push({ url: req.url ?? '', headers: req.headers, body });
      const answer = reply(body);
      if (answer === 'hang') return;
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(answer.body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, requests };
}

/** A chat-completions reply whose message content is `content`. */
export function completion(content: string): { status: number; body: string } {
  return {
    status: 200,
    body: JSON.stringify({
      id: 'x',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content } }],
    }),
  };
}
