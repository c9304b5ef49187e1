import { contentText, sse, type Dialect, type ToolResult, type Turn } from './wire.js';

// The Gemini API as Gemini CLI calls it at GOOGLE_GEMINI_BASE_URL: `POST /v1beta/models/{model}:
// streamGenerateContent?alt=sse` (server-sent events, each a GenerateContentResponse) and `:generateContent`
// (one JSON response); `:countTokens` is answered too. Tool calls are `functionCall` parts; the runtime sends
// back `functionResponse` parts.

function candidate(turn: Turn) {
  const parts =
    'text' in turn
      ? [{ text: turn.text }]
      : turn.tools.map((tool) => ({ functionCall: { name: tool.name, args: tool.input } }));
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    modelVersion: 'scripted',
  };
}

export const geminiDialect: Dialect = {
  name: 'gemini',
  isModelCall: (method, url) =>
    method === 'POST' && /\/models\/[^/:]+:(streamGenerateContent|generateContent|countTokens)/.test(url),
  isAgentTurn: (body) =>
    Array.isArray(body?.tools) &&
    body.tools.some((t: any) => Array.isArray(t?.functionDeclarations) && t.functionDeclarations.length > 0),
  answer(res, turn, request) {
    if (/:countTokens/.test(request.url)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ totalTokens: 1 }));
      return;
    }
    // a side call that asks for JSON (a router's or checker's schema) gets an empty object, not prose
    const said: Turn =
      request.body?.generationConfig?.responseMimeType === 'application/json' && 'text' in turn ? { text: '{}' } : turn;
    if (/:streamGenerateContent/.test(request.url)) return sse(res, [{ data: candidate(said) }]);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(candidate(said)));
  },
  lastInput: (body) => (Array.isArray(body?.contents) ? body.contents.at(-1) : undefined),
  toolResults(body): ToolResult[] {
    const contents: any[] = Array.isArray(body?.contents) ? body.contents : [];
    const last = contents[contents.length - 1];
    if (last?.role !== 'user' || !Array.isArray(last.parts)) return [];
    return last.parts
      .filter((p: any) => p?.functionResponse)
      .map((p: any) => {
        const response = p.functionResponse.response ?? {};
        return {
          id: String(p.functionResponse.id ?? p.functionResponse.name),
          content: contentText(response.error ?? response.output ?? response),
          isError: response.error !== undefined,
        };
      });
  },
};
