/** A file offered for the agent's context, with the signals the ranking reads. */
export interface ContextCandidate {
  path: string;
  kind: 'human_context' | 'adr' | 'additional' | 'project_doc' | 'source';
  /** Position among the files of the recent commits (0 = most recent), when it appears there. */
  recentIndex?: number;
  /** Changed in the working tree. */
  modified?: boolean;
  /** Title and decision text of an ADR, matched against the focus. */
  adrText?: string;
}

/** A selected context file: its score and why it was chosen. */
export interface SelectedContext {
  path: string;
  kind: ContextCandidate['kind'];
  score: number;
  reasons: string[];
}

const STOPWORDS = new Set(['the', 'and', 'for', 'with', 'from', 'into', 'this', 'that', 'general', 'github', 'issue']);
const RECENT_WINDOW = 20;

/** Pure: the words of a focus that can match paths (lower case, ≥ 3 letters or a number, no stopwords). */
export function focusTokens(focus: string): string[] {
  const tokens = focus
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => (t.length >= 3 || /^\d+$/.test(t)) && !STOPWORDS.has(t));
  return [...new Set(tokens)];
}

function tokensMatch(a: string, b: string): boolean {
  return a === b || (a.length >= 4 && b.length >= 4 && (a.startsWith(b) || b.startsWith(a)));
}

function matching(focus: readonly string[], text: string): string[] {
  if (focus.length === 0) return [];
  const lower = text.toLowerCase();
  // Cheap pre-filter: a token can only match a word if a 4-letter prefix (or the token) occurs.
  if (!focus.some((f) => lower.includes(f.length >= 4 ? f.slice(0, 4) : f))) return [];
  const words = lower.split(/[^a-z0-9]+/).filter((w) => w !== '');
  return focus.filter((f) => words.some((w) => tokensMatch(f, w)));
}

/** Role affinity, most specific first: the first row whose role pattern matches applies. */
const ROLE_AFFINITY: readonly { role: RegExp; path: RegExp; weight: number }[] = [
  { role: /test|qa|quality|verif/, path: /(^|\/)(tests?|__tests__|spec|e2e)\/|\.(test|spec)\.[^/]+$/, weight: 2 },
  { role: /architect|design/, path: /(^|\/)(docs?|adrs?|decisions)\/|\.md$/i, weight: 2 },
  { role: /doc|writer|editor/, path: /(^|\/)docs?\/|readme|\.md$/i, weight: 2 },
  {
    role: /devops|ops|ci|release|platform|infra/,
    path: /^\.github\/|dockerfile|\.ya?ml$|(^|\/)(ci|scripts|deploy)\//i,
    weight: 2,
  },
  { role: /security|secur/, path: /auth|secur|crypt|permission|secret/i, weight: 2 },
  {
    role: /implement|develop|engineer|coder|programmer|build/,
    path: /^(src|lib|app|packages)\/|(^|\/)tests?\/|\.(test|spec)\.[^/]+$/,
    weight: 1,
  },
  { role: /orchestrat|steward|lead|manager|coordinat|owner/, path: /^\.hestai\/|^readme|(^|\/)docs?\//i, weight: 1 },
];

const BASE: Record<ContextCandidate['kind'], number> = {
  human_context: 3,
  additional: 2,
  adr: 1.5,
  project_doc: 1,
  source: 0,
};

/**
 * Pure (CI-I3 deterministic fallback): scores candidates by role affinity, focus relevance, recency and
 * ADR constraints, and returns the best `limit`, highest first (ties by path). A source file qualifies
 * only through the focus, recency or a role-specific affinity.
 */
export function rankContext(input: {
  role: string;
  focus: string;
  candidates: readonly ContextCandidate[];
  limit: number;
}): SelectedContext[] {
  const focus = focusTokens(input.focus);
  const affinity = ROLE_AFFINITY.find((row) => row.role.test(input.role));
  const strongAffinity = affinity !== undefined && affinity.weight >= 2;
  const seen = new Set<string>();
  const ranked: SelectedContext[] = [];
  for (const c of input.candidates) {
    if (seen.has(c.path)) continue;
    seen.add(c.path);
    const onPath = matching(focus, c.path);
    // Fast path for the bulk of tracked files: a source file without any signal is never selected.
    if (
      c.kind === 'source' &&
      onPath.length === 0 &&
      !c.modified &&
      c.recentIndex === undefined &&
      !(strongAffinity && affinity!.path.test(c.path))
    )
      continue;
    const reasons: string[] = [];
    let score = BASE[c.kind];
    if (c.kind === 'human_context') reasons.push('human-authored context');
    if (c.kind === 'additional') reasons.push('configured context path');
    if (c.kind === 'adr') reasons.push('adr constraint');
    if (c.kind === 'project_doc') reasons.push('project documentation');
    let qualifies = c.kind !== 'source';
    if (onPath.length > 0) {
      score += 3 * Math.min(onPath.length, 3);
      reasons.push(`focus: ${onPath.join(', ')}`);
      qualifies = true;
    }
    if (c.adrText !== undefined) {
      const inText = matching(focus, c.adrText).filter((t) => !onPath.includes(t));
      if (inText.length > 0) {
        score += 1;
        reasons.push(`focus in decision: ${inText.join(', ')}`);
      }
    }
    if (c.modified) {
      score += 2;
      reasons.push('uncommitted change');
      qualifies = true;
    }
    if (c.recentIndex !== undefined && c.recentIndex < RECENT_WINDOW) {
      score += 1.5 * (1 - c.recentIndex / RECENT_WINDOW);
      reasons.push('recent commit');
      qualifies = true;
    }
    if (affinity?.path.test(c.path)) {
      score += affinity.weight;
      reasons.push('role affinity');
      if (affinity.weight >= 2) qualifies = true;
    }
    if (qualifies && score > 0)
      ranked.push({ path: c.path, kind: c.kind, score: Math.round(score * 100) / 100, reasons });
  }
  ranked.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return ranked.slice(0, input.limit);
}
