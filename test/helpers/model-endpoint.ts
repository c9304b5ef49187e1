import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import type { Dialect, ModelRequest, ToolResult, Turn } from './model-dialects/wire.js';
import { anthropicDialect } from './model-dialects/anthropic.js';
import { geminiDialect } from './model-dialects/gemini.js';
import { openaiChatDialect, openaiResponsesDialect } from './model-dialects/openai.js';

// A scripted model endpoint for the real agent runtimes (issue 29): an HTTP server on 127.0.0.1 that
// speaks one runtime's model API, answers each of the runtime's model calls with the next turn of a
// script (tool calls, then text) and records every request, so a test asserts on what the runtime sent
// back (a tool result with is_error and hestai's message). Loopback only, bounded in requests and time,
// closed after each test and by itself when its lifetime ends.

export type { Dialect, ModelRequest, ToolCall, ToolResult, Turn } from './model-dialects/wire.js';

/** A turn, or a function of the request that asks for it (to use what the runtime sent so far). */
export type Step = Turn | ((request: ModelRequest) => Turn);

export const DIALECTS = {
  anthropic: anthropicDialect,
  'openai-responses': openaiResponsesDialect,
  'openai-chat': openaiChatDialect,
  gemini: geminiDialect,
} as const satisfies Record<string, Dialect>;

export interface ModelEndpoint {
  /** http://127.0.0.1:PORT */
  url: string;
  requests: ModelRequest[];
  /** Every tool result the runtime sent back, in order. */
  toolResults(): ToolResult[];
  /** The requests of the agent loop (those that offer tools), in order. */
  turns(): ModelRequest[];
  /** The last item of the conversation `request` carries (what the runtime said last). */
  lastInput(request: ModelRequest): unknown;
  /** The steps of the script not played yet. */
  remaining(): number;
  /** Steps that threw instead of giving a turn (the run was ended there), each with its reason. */
  failures: string[];
  close(): Promise<void>;
}

const open: ModelEndpoint[] = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!.close();
});

/**
 * Starts the endpoint. Each agent-loop call takes the next step; once the script is played, it answers
 * `done` as text. It refuses requests past `maxRequests` (default 40) and closes itself after
 * `lifetimeMs` (default 90 s).
 */
export async function startModelEndpoint(options: {
  api: keyof typeof DIALECTS;
  script: Step[];
  maxRequests?: number;
  lifetimeMs?: number;
}): Promise<ModelEndpoint> {
  const dialect: Dialect = DIALECTS[options.api];
  const script = [...options.script];
  const max = options.maxRequests ?? 40;
  const requests: ModelRequest[] = [];
  const failures: string[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: any = null;
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch {
        body = null;
      }
      const request: ModelRequest = { method: req.method ?? '', url: req.url ?? '', body };
      requests.push(request);
      if (requests.length > max) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `scripted endpoint: more than ${max} requests` } }));
        return;
      }
      if (!dialect.isModelCall(request.method, request.url)) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `scripted endpoint: no route ${request.method} ${request.url}` } }));
        return;
      }
      const step = dialect.isAgentTurn(body) ? script.shift() : undefined;
      let turn: Turn;
      try {
        turn = step === undefined ? { text: 'done' } : typeof step === 'function' ? step(request) : step;
      } catch (error) {
        // a step that cannot be played ends the run at once (the runtime reads a final text), and says why
        failures.push(`step ${requests.length}: ${error instanceof Error ? error.message : String(error)}`);
        turn = { text: 'scripted endpoint: a step failed' };
      }
      dialect.answer(res, turn, request, ++n);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const lifetime = setTimeout(() => void endpoint.close(), options.lifetimeMs ?? 90_000);
  lifetime.unref();
  let closed: Promise<void> | null = null;
  const endpoint: ModelEndpoint = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    toolResults: () => requests.flatMap((r) => (r.body === null ? [] : dialect.toolResults(r.body))),
    turns: () => requests.filter((r) => r.body !== null && dialect.isAgentTurn(r.body)),
    lastInput: (request) => dialect.lastInput(request.body),
    remaining: () => script.length,
    failures,
    close() {
      clearTimeout(lifetime);
      closed ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      return closed;
    },
  };
  open.push(endpoint);
  return endpoint;
}
