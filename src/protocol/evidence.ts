import { hasControl } from '../util/text.js';
import type { EvidenceType } from './types.js';

/** One piece of evidence recorded for a gate (`record_evidence`). */
export interface EvidenceRecord {
  phase: string;
  /** The gate id (the seed's `step`). */
  step: string;
  type: EvidenceType;
  value: string;
  recorded_at: string;
}

/** Words that say "not done": evidence made of them (or opening with them) proves nothing. */
const PLACEHOLDER_WORDS =
  /^(?:todo|tbd|tba|tbc|pending|n\/?a|na|none|nil|null|wip|later|fixme|xxx|skip|skipped|placeholder|not\s+(?:yet\s+)?(?:done|applicable|available|started)|to\s+do|to\s+be\s+(?:done|determined|added|confirmed)|coming\s+soon)$/i;
const PLACEHOLDER_OPENING = /^(?:todo|tbd|fixme|xxx|pending|n\/a|wip)\b/i;

/**
 * The documented minimum of `manual` and `tool_output` evidence (docs/protocol.md): at least two words and
 * ten letters or digits, so "done", "x", "ok", "yes" or "fixed" say nothing specific and prove nothing.
 */
export const EVIDENCE_MIN = { words: 2, alnum: 10 } as const;

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);

/**
 * Pure: why a piece of evidence cannot satisfy a gate, or null when its wording is acceptable.
 * Lessons from the field: evidence saying TODO / pending / TBD / N/A (or only punctuation) proves nothing,
 * and neither does evidence that only repeats the step's own words ("Read HANDOFF.md" for the step
 * "Read .agents/HANDOFF.md"): it must add something the step did not already say.
 */
export function evidenceWordingProblem(value: string, step: string): string | null {
  const text = value.trim().replace(/[.!:;,\s]+$/, '');
  if (text === '' || !/[A-Za-z0-9]/.test(text)) return 'the evidence is empty';
  if (PLACEHOLDER_WORDS.test(text) || PLACEHOLDER_OPENING.test(text)) {
    return `the evidence "${truncate(text)}" is a placeholder (TODO, pending, TBD, N/A ...), not evidence`;
  }
  const own = words(text);
  if (own.length < EVIDENCE_MIN.words || text.replace(/[^A-Za-z0-9]/g, '').length < EVIDENCE_MIN.alnum)
    return `the evidence "${truncate(text)}" is too short to say what was observed (at least ${EVIDENCE_MIN.words} words and ${EVIDENCE_MIN.alnum} letters or digits: the output, path, sha or what you saw)`;
  const stepWords = new Set(words(step));
  if (own.length > 0 && own.every((w) => stepWords.has(w))) {
    return `the evidence "${truncate(text)}" only repeats the step ("${truncate(step)}"); say what was observed (output, path, sha, hash)`;
  }
  return null;
}

const SHA = /^[0-9a-f]{7,64}$/i;
const HASH = /^(?:sha256:)?([0-9a-f]{64})$/i;

/** Pure: the normalised commit sha of `commit_sha` evidence, or null when it is not one. */
export function commitShaOf(value: string): string | null {
  const v = value.trim();
  return SHA.test(v) ? v.toLowerCase() : null;
}

/** Pure: the hex digest of `content_hash` evidence (`<hex>` or `sha256:<hex>`), or null. */
export function contentHashOf(value: string): string | null {
  const m = HASH.exec(value.trim());
  return m ? m[1]!.toLowerCase() : null;
}

/** Pure: a `file_path` value as a workspace-relative path with forward slashes, or null when it escapes. */
export function evidencePathOf(value: string): string | null {
  const v = value.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  if (v === '' || v.startsWith('/') || /^[A-Za-z]:\//.test(v) || v.split('/').includes('..') || hasControl(v))
    return null;
  return v;
}

function truncate(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
