import { getValue, tryParseOctave, type OctaveValue } from '../../octave/index.js';
import { CONTROL } from '../../util/text.js';

/** What the provider may add to the FAST layer; every other key of its reply is ignored. */
export interface FastExtras {
  focus: { SUMMARY?: string; NEXT_STEPS?: string[]; RISKS?: string[] };
  blockers: { POTENTIAL?: string[] };
}

export type FastReplyParse = { ok: true; extras: FastExtras } | { ok: false; reason: string };

const MAX_TEXT = 300;
const MAX_ITEMS = 10;

function text(value: OctaveValue | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const t = value.replace(/\s+/g, ' ').trim();
  return t === '' || CONTROL.test(t) ? undefined : t.slice(0, MAX_TEXT);
}

function list(value: OctaveValue | undefined): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items = value.map((v) => text(v)).filter((v): v is string => v !== undefined);
  return items.length === 0 ? undefined : [...new Set(items)].slice(0, MAX_ITEMS);
}

/** Pure: the `===NAME===` … `===END===` documents of a reply (a fenced block is accepted). */
function envelopes(reply: string): Map<string, string> {
  const body = reply.replace(/```[a-z]*\n?/gi, '');
  const found = new Map<string, string>();
  const re = /^===([A-Z][A-Z0-9_]*)===[ \t]*$[\s\S]*?^===END===[ \t]*$/gm;
  for (const m of body.matchAll(re)) if (m[1] !== 'END' && !found.has(m[1]!)) found.set(m[1]!, m[0]);
  return found;
}

/**
 * Pure: validates the provider's FAST-layer reply. It must hold a `CURRENT_FOCUS` document (and may hold
 * a `BLOCKERS` one), each valid OCTAVE; only SUMMARY, NEXT_STEPS and RISKS (current focus) and POTENTIAL
 * (blockers) are taken, as one-line text (300 characters, 10 items at most). The authoritative fields
 * (session, role, focus, branch, times, ACTIVE blockers) always come from the deterministic documents.
 */
export function parseFastReply(reply: string): FastReplyParse {
  const docs = envelopes(reply);
  if (docs.size === 0)
    return { ok: false, reason: 'the reply is not valid OCTAVE (no ===NAME=== … ===END=== document)' };
  const focusText = docs.get('CURRENT_FOCUS');
  if (focusText === undefined) return { ok: false, reason: 'the reply has no ===CURRENT_FOCUS=== document' };
  const focus = tryParseOctave(focusText);
  if (!focus.ok)
    return {
      ok: false,
      reason: `the CURRENT_FOCUS document is not valid OCTAVE (line ${focus.errors[0]?.line}: ${focus.errors[0]?.message})`,
    };
  const extras: FastExtras = { focus: {}, blockers: {} };
  const summary = text(getValue(focus.doc, 'SUMMARY'));
  const steps = list(getValue(focus.doc, 'NEXT_STEPS'));
  const risks = list(getValue(focus.doc, 'RISKS'));
  if (summary) extras.focus.SUMMARY = summary;
  if (steps) extras.focus.NEXT_STEPS = steps;
  if (risks) extras.focus.RISKS = risks;
  const blockersText = docs.get('BLOCKERS');
  if (blockersText !== undefined) {
    const blockers = tryParseOctave(blockersText);
    if (!blockers.ok)
      return {
        ok: false,
        reason: `the BLOCKERS document is not valid OCTAVE (line ${blockers.errors[0]?.line}: ${blockers.errors[0]?.message})`,
      };
    const potential = list(getValue(blockers.doc, 'POTENTIAL'));
    if (potential) extras.blockers.POTENTIAL = potential;
  }
  if (Object.keys(extras.focus).length === 0)
    return { ok: false, reason: 'the CURRENT_FOCUS document has none of SUMMARY, NEXT_STEPS, RISKS' };
  return { ok: true, extras };
}
