import type { AiSettings } from '../../ai/config.js';
import type { GatheredContext } from './gather.js';
import { rankContext, type SelectedContext } from './rank.js';
import { parseSelectionResponse } from './ai-select.js';

/** How the context was selected, and why (CI-I3; the response says which was used). */
export interface SelectionInfo {
  method: 'ai' | 'deterministic';
  /** Why the deterministic ranking was used (null when the AI selection succeeded). */
  reason: string | null;
  model: string | null;
  prompt: { name: string; version: string; source: 'package' | 'user' } | null;
}

export interface ContextSelection {
  selection: SelectionInfo;
  selected: SelectedContext[];
  /** Checklist items the provider synthesised for the FAST layer (empty on the deterministic path). */
  checklist: string[];
}

export const PROMPT_NAME = 'clock_in_synthesis';
const SELECT_LIMIT = 20;
const OFFER_LIMIT = 40;

/**
 * Selects the context for role and focus: through the configured AI provider (the versioned prompt,
 * candidates pre-ranked deterministically), else — no provider, timeout, HTTP error or a malformed
 * reply — by the deterministic ranking (role affinity, focus relevance, recency, ADR constraints).
 */
export async function selectContext(input: {
  role: string;
  gathered: GatheredContext;
  ai: AiSettings | null;
  home: string | undefined;
  warnings: string[];
}): Promise<ContextSelection> {
  const { role, gathered } = input;
  const focus = gathered.focus.value;
  const deterministic = (reason: string, prompt: SelectionInfo['prompt'] = null): ContextSelection => ({
    selection: { method: 'deterministic', reason, model: input.ai?.model ?? null, prompt },
    selected: rankContext({ role, focus, candidates: gathered.candidates, limit: SELECT_LIMIT }),
    checklist: [],
  });
  if (input.ai === null) return deterministic('no AI provider configured');
  const { loadPrompt } = await import('../../ai/prompts.js');
  const prompt = loadPrompt(PROMPT_NAME, input.home, input.warnings);
  const promptInfo = { name: prompt.name, version: prompt.version, source: prompt.source };
  const offered = rankContext({ role, focus, candidates: gathered.candidates, limit: OFFER_LIMIT });
  const payload = {
    role,
    focus,
    focus_source: gathered.focus.source,
    branch: gathered.git.branch,
    structure: gathered.structure,
    recent_commits: gathered.git.recent_commits.slice(0, 10).map((c) => c.header),
    adr_constraints: gathered.adr_constraints.map((a) => ({
      path: a.path,
      title: a.title,
      status: a.status,
      decision: a.decision,
    })),
    related_issues: gathered.github.related_issues.map((i) => ({ number: i.number, title: i.title })),
    candidates: offered.map((c) => ({ path: c.path, kind: c.kind, score: c.score, reasons: c.reasons })),
  };
  const reply = await (await import('../../ai/client.js')).askAi(input.ai, prompt.text, payload);
  const parsed = reply.ok ? parseSelectionResponse(reply.content, new Set(offered.map((o) => o.path))) : reply;
  if (!parsed.ok)
    return deterministic(`AI selection failed: ${parsed.reason}; used the deterministic ranking`, promptInfo);
  if (parsed.ignored.length > 0)
    input.warnings.push(`the AI provider named ${parsed.ignored.length} file(s) that were not offered; ignored`);
  const byPath = new Map(offered.map((o) => [o.path, o]));
  return {
    selection: { method: 'ai', reason: null, model: input.ai.model, prompt: promptInfo },
    selected: parsed.selected.slice(0, SELECT_LIMIT).map((s) => {
      const base = byPath.get(s.path)!;
      return { ...base, reasons: [`ai: ${s.reason}`, ...base.reasons] };
    }),
    checklist: parsed.checklist,
  };
}
