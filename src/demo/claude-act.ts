import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findOnPath } from '../util/run-process.js';
import type { DemoRepo } from './demo-repo.js';

/** Where Claude Code is: the project's node_modules/.bin, else PATH; null when it is not installed. */
export function installedClaude(env: NodeJS.ProcessEnv = process.env): string | null {
  const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../node_modules/.bin/claude');
  return fs.existsSync(bin) ? bin : findOnPath('claude', env);
}

/** The parts of a Messages API request the scripted model reads. */
interface MessagesRequest {
  model?: string;
  stream?: boolean;
  tools?: unknown[];
  messages?: { role?: string; content?: unknown }[];
}

interface ToolCall {
  name: string;
  input: Record<string, unknown>;
}

/**
 * A model that plays `calls` (one tool call per turn, then "done") in the Anthropic Messages API's
 * streamed form, on 127.0.0.1; it records the tool results Claude Code sends back and closes after 60 s.
 */
async function scriptedModel(
  calls: ToolCall[],
): Promise<{ url: string; results: { content: string; isError: boolean }[]; close: () => void }> {
  const script = [...calls];
  const results: { content: string; isError: boolean }[] = [];
  let n = 0;
  const prefix = randomUUID().slice(0, 8); // ids unique across runs: a resumed conversation keeps the old ones
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      let body: MessagesRequest = {};
      try {
        body = JSON.parse(text) as MessagesRequest;
      } catch {
        /* not JSON */
      }
      const last = Array.isArray(body.messages) ? body.messages[body.messages.length - 1] : null;
      for (const block of Array.isArray(last?.content) ? last.content : [])
        if (block?.type === 'tool_result')
          results.push({
            content: typeof block.content === 'string' ? block.content : JSON.stringify(block.content),
            isError: block.is_error === true,
          });
      const call =
        Array.isArray(body.tools) && body.tools.length > 0 && body.stream === true ? script.shift() : undefined;
      const id = `toolu_${prefix}_${++n}`;
      const events: unknown[] = [
        {
          type: 'message_start',
          message: {
            id: `msg_${n}`,
            type: 'message',
            role: 'assistant',
            model: body.model,
            content: [],
            stop_reason: null,
            usage: { input_tokens: 1, output_tokens: 1 },
          },
        },
        call
          ? {
              type: 'content_block_start',
              index: 0,
              content_block: { type: 'tool_use', id, name: call.name, input: {} },
            }
          : { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        call
          ? {
              type: 'content_block_delta',
              index: 0,
              delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.input) },
            }
          : { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'done' } },
        { type: 'content_block_stop', index: 0 },
        {
          type: 'message_delta',
          delta: { stop_reason: call ? 'tool_use' : 'end_turn', stop_sequence: null },
          usage: { output_tokens: 1 },
        },
        { type: 'message_stop' },
      ];
      if (body.stream !== true) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `msg_${n}`,
            type: 'message',
            role: 'assistant',
            model: body.model,
            content: [{ type: 'text', text: 'done' }],
            stop_reason: 'end_turn',
            usage: { input_tokens: 1, output_tokens: 1 },
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const e of events) res.write(`event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => {
    server.closeAllConnections();
    server.close();
  };
  setTimeout(close, 60_000).unref();
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, results, close };
}

function run(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd, env, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code ?? -1);
    });
  });
}

/**
 * The demo's act with the real Claude Code (when it is installed): a scripted
 * model asks it to Read and then Write src/greet.js; the hooks refuse the Write (the model reads why), the
 * agent's session is anchored, and on `--resume` the same Write is allowed.
 */
export async function claudeAct(repo: DemoRepo, anchor: (token: string) => void): Promise<void> {
  const claude = installedClaude();
  process.stdout.write('\n── 5b. the real Claude Code runs the same hooks\n');
  if (claude === null) {
    process.stdout.write('  skipped: Claude Code is not installed here (npm install -g @anthropic-ai/claude-code)\n');
    return;
  }
  const file = path.join(repo.dir, 'src/greet.js');
  const calls = (content: string): ToolCall[] => [
    { name: 'Read', input: { file_path: file } },
    { name: 'Write', input: { file_path: file, content } },
  ];
  const sessionId = randomUUID();
  const env = (url: string): NodeJS.ProcessEnv => {
    const clean: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(repo.env)) if (!/^(ANTHROPIC_|CLAUDE)/.test(k)) clean[k] = v;
    return {
      ...clean,
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: 'demo',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    };
  };
  const turn = async (args: string[], content: string) => {
    const model = await scriptedModel(calls(content));
    try {
      const code = await run(
        claude,
        ['-p', 'greet in French', '--permission-mode', 'acceptEdits', '--model', 'claude-sonnet-4-5', ...args],
        repo.dir,
        env(model.url),
      );
      return { code, write: model.results[1] };
    } finally {
      model.close();
    }
  };
  const first = await turn(['--session-id', sessionId], 'export const greet = (n) => `bonjour ${n}`;\n');
  process.stdout.write(
    `$ claude -p "greet in French" --permission-mode acceptEdits   (a scripted model on 127.0.0.1)\n`,
  );
  process.stdout.write(
    `  Claude Code sent back for the Write (is_error: ${first.write?.isError}):\n${(first.write?.content ?? '').split('\n<system-reminder>')[0]!.replace(/^/gm, '    ')}\n`,
  );
  if (first.code !== 0 || first.write?.isError !== true)
    throw new Error('demo step "5b" : the real Claude Code was not refused the Write');
  const bound = JSON.parse(
    fs.readFileSync(path.join(repo.dir, `.hestai/sessions/bindings/claude-code/${sessionId}.json`), 'utf8'),
  ).session_id as string;
  anchor(bound);
  const second = await turn(['--resume', sessionId], 'export const greet = (n) => `bonjour ${n}`;\n');
  process.stdout.write(`$ claude -p "greet in French" --resume ${sessionId.slice(0, 8)}…   (after the anchor)\n`);
  process.stdout.write(
    `  Claude Code sent back for the Write (is_error: ${second.write?.isError}): ${(second.write?.content ?? '').split('\n')[0]}\n`,
  );
  if (second.code !== 0 || second.write?.isError !== false)
    throw new Error('demo step "5b": the anchored Write was not allowed');
}
