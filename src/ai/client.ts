import type { AiSettings } from './config.js';

/** A chat message of the OpenAI chat-completions protocol. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Why the provider could not answer (the caller falls back to deterministic selection). */
export class AiError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AiError';
  }
}

/**
 * `POST {base_url}/chat/completions` with `model` and `messages`; returns the first choice's message
 * content. Times out after `timeout_ms` (AbortSignal.timeout); every failure is an `AiError` whose
 * message says what went wrong (HTTP status, timeout, malformed reply).
 */
async function completeChat(settings: AiSettings, messages: readonly ChatMessage[]): Promise<string> {
  if (settings.model === null)
    throw new AiError('no model configured (set ai.model_override, HESTAI_AI_MODEL or --model)');
  let response: Response;
  try {
    response = await fetch(`${settings.base_url}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(settings.api_key ? { authorization: `Bearer ${settings.api_key}` } : {}),
      },
      body: JSON.stringify({ model: settings.model, messages, temperature: 0 }),
      signal: AbortSignal.timeout(settings.timeout_ms),
    });
  } catch (error) {
    throw failure(settings, error, 'the AI provider could not be reached');
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw failure(settings, error, "reading the AI provider's reply failed");
  }
  if (!response.ok) throw new AiError(`the AI provider answered HTTP ${response.status}`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new AiError('the AI provider answered with something that is not JSON');
  }
  const content = (data as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new AiError('the AI provider reply has no choices[0].message.content');
  return content;
}

/** A failed request or read: its timeout, else `what` with the error's message. */
function failure(settings: AiSettings, error: unknown, what: string): AiError {
  const { name, message } = error as Error;
  if (name === 'TimeoutError' || name === 'AbortError')
    return new AiError(`the AI provider timed out after ${settings.timeout_ms} ms`);
  return new AiError(`${what} (${message})`);
}

/**
 * Sends `system` and `payload` (as JSON) and returns the reply's content, or why there is none: every
 * failure, for a caller that falls back to its deterministic answer.
 */
export async function askAi(
  settings: AiSettings,
  system: string,
  payload: unknown,
): Promise<{ ok: true; content: string } | { ok: false; reason: string }> {
  const messages: ChatMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: JSON.stringify(payload) },
  ];
  try {
    return { ok: true, content: await completeChat(settings, messages) };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}
