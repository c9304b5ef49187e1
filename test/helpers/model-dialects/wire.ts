import type http from 'node:http';

// The wire shapes the scripted model endpoint (../model-endpoint.ts) shares across the model APIs.

/** One tool call the scripted model makes. */
export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
  /** The namespace of a namespaced tool (Codex offers an MCP server's tools as namespace `mcp__<server>`). */
  namespace?: string;
}

/** One answer of the model: tool calls (the runtime runs them and calls back) or a final text. */
export type Turn = { tools: ToolCall[] } | { text: string };

/** One request the runtime sent. */
export interface ModelRequest {
  method: string;
  url: string;
  /** The JSON body (null when there was none or it was not JSON). */
  body: any;
}

/** What a runtime sent back for one tool call, in every API's terms. */
export interface ToolResult {
  id: string;
  content: string;
  isError: boolean;
}

/** How one model API is spoken. */
export interface Dialect {
  name: string;
  /** True for the requests that are model calls (others get a 404). */
  isModelCall(method: string, url: string): boolean;
  /** True for a call of the agent loop (it offers tools): it takes the next step of the script. */
  isAgentTurn(body: any): boolean;
  /** Writes the answer for `turn`; `n` numbers the tool call ids. */
  answer(res: http.ServerResponse, turn: Turn, request: ModelRequest, n: number): void;
  /** The tool results carried by a request. */
  toolResults(body: any): ToolResult[];
  /** The last item of the conversation a request carries (what the runtime said last: a result, a prompt). */
  lastInput(body: any): unknown;
}

/** Server-sent events: `event:` (when named) and `data:` lines. */
export function sse(res: http.ServerResponse, events: Array<{ event?: string; data: unknown }>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const e of events)
    res.write(`${e.event === undefined ? '' : `event: ${e.event}\n`}data: ${JSON.stringify(e.data)}\n\n`);
  res.end();
}

/** The text of a tool result's content, whatever shape the API gives it (string, blocks, parts). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(contentText).join('');
  if (content !== null && typeof content === 'object') {
    const o = content as Record<string, unknown>;
    if (typeof o['text'] === 'string') return o['text'];
    if ('output' in o) return contentText(o['output']);
    if ('content' in o) return contentText(o['content']);
    return JSON.stringify(o);
  }
  return content === undefined || content === null ? '' : String(content);
}
