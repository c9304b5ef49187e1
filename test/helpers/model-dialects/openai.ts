import { contentText, sse, type Dialect, type ToolResult, type Turn } from './wire.js';

// The OpenAI APIs a model provider's `base_url` serves (Codex CLI): the Responses API (`POST .../responses`,
// server-sent events response.created, response.output_item.done per item, response.completed) and Chat
// Completions (`POST .../chat/completions`, chunks with choices[0].delta, then [DONE]).

const usage = {
  input_tokens: 1,
  input_tokens_details: null,
  output_tokens: 1,
  output_tokens_details: null,
  total_tokens: 2,
};

function responseItems(turn: Turn, n: number): unknown[] {
  if ('text' in turn)
    return [
      {
        type: 'message',
        id: `msg_${n}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: turn.text, annotations: [] }],
      },
    ];
  return turn.tools.map((tool, i) => ({
    type: 'function_call',
    id: `fc_${n}_${i}`,
    call_id: `call_${n}_${i}`,
    ...(tool.namespace === undefined ? {} : { namespace: tool.namespace }),
    name: tool.name,
    arguments: JSON.stringify(tool.input),
    status: 'completed',
  }));
}

export const openaiResponsesDialect: Dialect = {
  name: 'openai-responses',
  isModelCall: (method, url) => method === 'POST' && /\/responses(\?|$)/.test(url),
  isAgentTurn: (body) => Array.isArray(body?.tools) && body.tools.length > 0,
  answer(res, turn, request, n) {
    const id = `resp_${n}`;
    const model = typeof request.body?.model === 'string' ? request.body.model : 'scripted';
    const items = responseItems(turn, n);
    const response = (status: string, output: unknown[]) => ({
      id,
      object: 'response',
      created_at: 0,
      model,
      status,
      output,
      usage: status === 'completed' ? usage : null,
    });
    sse(res, [
      {
        event: 'response.created',
        data: { type: 'response.created', sequence_number: 0, response: response('in_progress', []) },
      },
      ...items.map((item, i) => ({
        event: 'response.output_item.done',
        data: { type: 'response.output_item.done', sequence_number: i + 1, output_index: i, item },
      })),
      {
        event: 'response.completed',
        data: { type: 'response.completed', sequence_number: items.length + 1, response: response('completed', items) },
      },
    ]);
  },
  lastInput: (body) => (Array.isArray(body?.input) ? body.input.at(-1) : undefined),
  toolResults(body): ToolResult[] {
    const input: any[] = Array.isArray(body?.input) ? body.input : [];
    // every request carries the whole conversation: the results after the last model output are new
    let start = 0;
    input.forEach((item, i) => {
      if (item?.type === 'function_call' || (item?.type === 'message' && item.role === 'assistant')) start = i + 1;
    });
    return input
      .slice(start)
      .filter((item) => item?.type === 'function_call_output' || item?.type === 'custom_tool_call_output')
      .map((item) => ({ id: String(item.call_id), content: contentText(item.output), isError: false }));
  },
};

export const openaiChatDialect: Dialect = {
  name: 'openai-chat',
  isModelCall: (method, url) => method === 'POST' && /\/chat\/completions(\?|$)/.test(url),
  isAgentTurn: (body) => Array.isArray(body?.tools) && body.tools.length > 0,
  answer(res, turn, request, n) {
    const model = typeof request.body?.model === 'string' ? request.body.model : 'scripted';
    const chunk = (delta: unknown, finish: string | null) => ({
      id: `chatcmpl_${n}`,
      object: 'chat.completion.chunk',
      created: 0,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const delta =
      'text' in turn
        ? { role: 'assistant', content: turn.text }
        : {
            role: 'assistant',
            tool_calls: turn.tools.map((tool, i) => ({
              index: i,
              id: `call_${n}_${i}`,
              type: 'function',
              function: { name: tool.name, arguments: JSON.stringify(tool.input) },
            })),
          };
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${JSON.stringify(chunk(delta, null))}\n\n`);
    res.write(`data: ${JSON.stringify(chunk({}, 'text' in turn ? 'stop' : 'tool_calls'))}\n\n`);
    res.end('data: [DONE]\n\n');
  },
  lastInput: (body) => (Array.isArray(body?.messages) ? body.messages.at(-1) : undefined),
  toolResults(body): ToolResult[] {
    const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
    let start = 0;
    messages.forEach((m, i) => {
      if (m?.role === 'assistant') start = i + 1;
    });
    return messages
      .slice(start)
      .filter((m) => m?.role === 'tool')
      .map((m) => ({ id: String(m.tool_call_id), content: contentText(m.content), isError: false }));
  },
};
