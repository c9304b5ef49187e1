import { CONTROL } from '../../util/text.js';
/** What the AI provider answered, after validation against the candidates it was offered. */
export type SelectionParse =
  | { ok: true; selected: { path: string; reason: string }[]; checklist: string[]; ignored: string[] }
  | { ok: false; reason: string };

function clean(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '' || CONTROL.test(text)) return null;
  return text.length > max ? text.slice(0, max) : text;
}

/**
 * Pure: validates the provider's reply `{"selected": [{"path", "reason"}], "checklist": [...]}` (a
 * fenced block is accepted). Only paths that were offered count — the provider can never add a file;
 * at least one must remain. Checklist items are one line, at most 200 characters, at most 10.
 */
export function parseSelectionResponse(content: string, known: ReadonlySet<string>): SelectionParse {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(content);
  let data: unknown;
  try {
    data = JSON.parse((fenced ? fenced[1]! : content).trim());
  } catch {
    return { ok: false, reason: 'the reply is not JSON' };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { ok: false, reason: 'the reply is not a JSON object' };
  const record = data as Record<string, unknown>;
  if (!Array.isArray(record['selected'])) return { ok: false, reason: 'the reply has no "selected" list' };
  const selected: { path: string; reason: string }[] = [];
  const ignored: string[] = [];
  for (const item of record['selected'] as unknown[]) {
    const entry = typeof item === 'string' ? { path: item } : (item as Record<string, unknown> | null);
    const p = entry && typeof entry === 'object' ? entry['path'] : undefined;
    if (typeof p !== 'string') continue;
    if (!known.has(p)) {
      ignored.push(p);
      continue;
    }
    if (selected.some((s) => s.path === p)) continue;
    selected.push({ path: p, reason: clean(entry?.['reason'], 200) ?? 'selected by the AI provider' });
  }
  if (selected.length === 0) return { ok: false, reason: 'the reply selected none of the offered files' };
  const checklist: string[] = [];
  if (Array.isArray(record['checklist'])) {
    for (const item of record['checklist'] as unknown[]) {
      const text = clean(item, 200);
      if (text !== null && checklist.length < 10) checklist.push(text);
    }
  }
  return { ok: true, selected, checklist, ignored };
}
