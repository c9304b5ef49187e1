import type { Check, Gate, Protocol } from './types.js';
import { LEVELS } from './types.js';

const strength = (level: Gate['level']) => LEVELS.length - LEVELS.indexOf(level);
const sameCheck = (a: Check, b: Check) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Pure: how `head` weakens `base` (DESIGN "Policy comes from the base"): a phase or gate removed, a level
 * lowered, a blocking gate made non-blocking, a gate taken out of the pre-commit hook, or the check of a
 * MUST or blocking gate changed. Gates added or strengthened are not weakenings. One line per finding.
 */
export function protocolWeakenings(base: Protocol, head: Protocol | null): string[] {
  if (head === null) return ['the protocol file was removed or is invalid on the branch; the base protocol counts'];
  const found: string[] = [];
  for (const phase of base.phases) {
    const headPhase = head.phases.find((p) => p.id === phase.id);
    if (!headPhase) {
      if (phase.gates.length > 0) found.push(`phase ${phase.id} was removed (with ${phase.gates.length} gate(s))`);
      continue;
    }
    for (const gate of phase.gates) {
      const key = `${phase.id}/${gate.id}`;
      const h = headPhase.gates.find((g) => g.id === gate.id);
      if (!h) {
        found.push(`${gate.level} gate ${key} was removed`);
        continue;
      }
      if (strength(h.level) < strength(gate.level))
        found.push(`gate ${key} was lowered from ${gate.level} to ${h.level}`);
      if (gate.blocking && !h.blocking) found.push(`gate ${key} no longer blocks`);
      if (gate.pre_commit && !h.pre_commit) found.push(`gate ${key} was taken out of the pre-commit hook`);
      if ((gate.level === 'MUST' || gate.blocking) && !sameCheck(gate.check, h.check))
        found.push(`the check of ${gate.level} gate ${key} changed (${gate.check.type} → ${h.check.type})`);
    }
  }
  return found;
}
