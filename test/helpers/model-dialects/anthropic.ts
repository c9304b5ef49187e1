import { contentText, sse, type Dialect, type ToolResult } from './wire.js';

// The Anthropic Messages API as Claude Code calls it (`POST /v1/messages?beta=true`): a streamed answer is
// message_start, per block content_block_start / _delta / _stop, message_delta (stop_reason), message_stop.
// A request that is not streamed (a side call) gets one JSON message.

export const anthropicDialect: Dialect = {
  name: 'anthropic',
  isModelCall: (method, url) => method === 'POST' && /^\/v1\/messages(\?|$)/.test(url),
  isAgentTurn: (body) => Array.isArray(body?.tools) && body.tools.length > 0 && body.stream === true,
  answer(res, turn, request, n) {
    const model = typeof request.body?.model === 'string' ? request.body.model : 'scripted';
    const usage = { input_tokens: 1, output_tokens: 1 };
    const toolUses =
      'tools' in turn
        ? turn.tools.map((t, i) => ({ type: 'tool_use', id: `toolu_${n}_${i}`, name: t.name, input: t.input }))
        : [];
    const stopReason = toolUses.length > 0 ? 'tool_use' : 'end_turn';
    if (request.body?.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `msg_${n}`,
          type: 'message',
          role: 'assistant',
          model,
          content: toolUses.length > 0 ? toolUses : [{ type: 'text', text: 'text' in turn ? turn.text : '' }],
          stop_reason: stopReason,
          stop_sequence: null,
          usage,
        }),
      );
      return;
    }
    const events: Array<{ event: string; data: unknown }> = [];
    const send = (event: string, data: Record<string, unknown>) =>
      events.push({ event, data: { type: event, ...data } });
    send('message_start', {
      message: { id: `msg_${n}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage },
    });
    if ('text' in turn) {
      send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: turn.text } });
      send('content_block_stop', { index: 0 });
    }
    toolUses.forEach((use, index) => {
      send('content_block_start', { index, content_block: { ...use, input: {} } });
      send('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(use.input) },
      });
      send('content_block_stop', { index });
    });
    send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 1 } });
    send('message_stop', {});
    sse(res, events);
  },
  lastInput: (body) => (Array.isArray(body?.messages) ? body.messages.at(-1) : undefined),
  toolResults(body): ToolResult[] {
    const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
    const last = messages[messages.length - 1];
    if (last?.role !== 'user' || !Array.isArray(last.content)) return [];
    return last.content
      .filter((block: any) => block?.type === 'tool_result')
      .map((block: any) => ({
        id: String(block.tool_use_id),
        content: contentText(block.content),
        isError: block.is_error === true,
      }));
  },
};
