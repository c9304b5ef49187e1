/**
 * Attribution (issue 42): which agent runtime started a session, and the model it named, as recorded at its
 * SessionStart and carried into the anchor's proof record; the `Assisted-by: <runtime>:<model>` trailer of the
 * Linux kernel's rule for AI-assisted commits. Pure.
 */
import type { Trailer } from '../tdd/trailers.js';

/** The agent runtime that started a session, and its model when the runtime said it. */
export interface AgentIdentity {
  runtime: string;
  model: string | null;
}

export const ASSISTED_BY = 'Assisted-by';

/** A runtime or model name that is safe in a trailer: one word, no spaces or line breaks. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._:@/+[\]-]{0,127}$/;
/** A runtime's name: a safe name without `:`, which would read as `runtime:model` in the trailer. */
const RUNTIME = /^[A-Za-z0-9][A-Za-z0-9._@/+[\]-]{0,127}$/;

/** Pure: the model a runtime's payload names (`model`, or `model.id`), when it is a safe name; else null. */
export function payloadModel(value: unknown): string | null {
  const raw =
    typeof value === 'string'
      ? value
      : value !== null && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string'
        ? (value as { id: string }).id
        : null;
  const name = raw?.trim() ?? '';
  return NAME.test(name) ? name : null;
}

/** Pure: a recorded identity, when both names are safe (a hand-edited record may say anything). */
export function agentIdentity(value: unknown): AgentIdentity | null {
  if (value === null || typeof value !== 'object') return null;
  const { runtime, model } = value as { runtime?: unknown; model?: unknown };
  if (typeof runtime !== 'string' || !RUNTIME.test(runtime)) return null;
  return { runtime, model: typeof model === 'string' && NAME.test(model) ? model : null };
}

/** Pure: the identity of an MCP client by the name it gave at `initialize` (`:` made `-`), when that is safe; no model. */
export const clientIdentity = (name: string): AgentIdentity | null =>
  agentIdentity({ runtime: name.replace(/:/g, '-'), model: null });

/** Pure: `runtime:model`, or the runtime alone. */
export const attributionOf = (agent: AgentIdentity): string =>
  agent.model === null ? agent.runtime : `${agent.runtime}:${agent.model}`;

/** Pure: the `Assisted-by` trailer a session's commits get (none for a person's session, or when `off`). */
export function attributionTrailers(agent: unknown, policy: 'off' | 'warn' | 'required'): Trailer[] {
  const identity = policy === 'off' ? null : agentIdentity(agent);
  return identity === null ? [] : [{ key: ASSISTED_BY, value: attributionOf(identity), add: true }];
}

/**
 * Pure: whether an `Assisted-by` value (`AGENT:MODEL [tool]...`) names the recorded agent: its runtime, and
 * its model or none. Another runtime or model is a mismatch.
 */
export function namesAgent(value: string, agent: AgentIdentity): boolean {
  const word = value.trim().split(/\s+/)[0] ?? '';
  const colon = word.indexOf(':');
  const runtime = colon < 0 ? word : word.slice(0, colon);
  return runtime === agent.runtime && (colon < 0 || word.slice(colon + 1) === agent.model);
}
