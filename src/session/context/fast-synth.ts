import type { AiSettings } from '../../ai/config.js';
import type { GatheredContext } from './gather.js';
import { parseFastReply, type FastExtras } from './fast-reply.js';

export const FAST_PROMPT_NAME = 'clock_in_fast_layer';

/** How the FAST layer was synthesised (STEP_6), recorded in the response, current-focus and the audit line. */
export interface FastSynthesis {
  method: 'ai' | 'deterministic';
  /** Why the deterministic documents were written as they are (null when the provider's reply was used). */
  reason: string | null;
  prompt: { name: string; version: string; source: 'package' | 'user' } | null;
}

const TEMPLATES = [
  '===CURRENT_FOCUS===',
  'SUMMARY::"<one line>"',
  'NEXT_STEPS::["<step>"]',
  'RISKS::["<risk>"]',
  '===END===',
  '===BLOCKERS===',
  'POTENTIAL::["<possible blocker>"]',
  '===END===',
].join('\n');

/**
 * STEP_6: sends the versioned FAST-layer prompt with the templates and a summary of the gathered context
 * to the provider, and validates the reply as OCTAVE (`parseFastReply`). No provider, a failed call or an
 * unusable reply: the deterministic documents, with the reason.
 */
export async function synthesizeFast(input: {
  role: string;
  gathered: GatheredContext;
  ai: AiSettings | null;
  home: string | undefined;
  warnings: string[];
}): Promise<{ synthesis: FastSynthesis; extras: FastExtras | null }> {
  const deterministic = (reason: string, prompt: FastSynthesis['prompt'] = null) => ({
    synthesis: { method: 'deterministic' as const, reason, prompt },
    extras: null,
  });
  if (input.ai === null) return deterministic('no AI provider configured');
  const { loadPrompt } = await import('../../ai/prompts.js');
  const prompt = loadPrompt(FAST_PROMPT_NAME, input.home, input.warnings);
  const info = { name: prompt.name, version: prompt.version, source: prompt.source };
  const g = input.gathered;
  const payload = {
    role: input.role,
    focus: g.focus.value,
    branch: g.git.branch,
    changes: g.git.changes,
    diff: { files: g.git.diff.files, hunks: g.git.diff.hunks, top: g.git.diff.top.slice(0, 10) },
    recent_commits: g.git.recent_commits.slice(0, 10).map((c) => c.header),
    adr_constraints: g.adr_constraints
      .slice(0, 10)
      .map((a) => ({ path: a.path, title: a.title, decision: a.decision })),
    related_issues: g.github.related_issues.map((i) => ({ number: i.number, title: i.title })),
    quality_gates: g.quality_gates.map((q) => ({ name: q.name, status: q.status })),
    templates: TEMPLATES,
  };
  const reply = await (await import('../../ai/client.js')).askAi(input.ai, prompt.text, payload);
  const parsed = reply.ok ? parseFastReply(reply.content) : reply;
  if (!parsed.ok)
    return deterministic(`AI synthesis failed: ${parsed.reason}; wrote the deterministic FAST layer`, info);
  return { synthesis: { method: 'ai', reason: null, prompt: info }, extras: parsed.extras };
}
