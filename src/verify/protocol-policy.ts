import { fileAtRevision } from '../git/changes.js';
import type { Verdict } from '../tdd/verdict.js';
import { protocolWeakenings } from '../protocol/compare.js';
import type { Protocol } from '../protocol/types.js';

export const PROTOCOL_FILE = '.hestai/protocol.yaml';

/**
 * The session protocol's policy check of `hestai verify`: the protocol at the base of the range is the one
 * that counts, so a branch that weakens `.hestai/protocol.yaml` (a gate removed or lowered, a blocking gate
 * made optional, a MUST check changed) fails. Null when the base has no protocol or the range has no base.
 */
export async function protocolPolicyVerdict(root: string, from: string | null, to: string): Promise<Verdict | null> {
  if (from === null) return null;
  const baseText = fileAtRevision(root, from, PROTOCOL_FILE);
  if (baseText === null) return null;
  const headText = fileAtRevision(root, to, PROTOCOL_FILE);
  if (headText === baseText) return null;
  const { validateProtocolText } = await import('../protocol/validate.js');
  const base = validateProtocolText(baseText).protocol;
  if (base === null) return null; // an invalid base protocol enforces nothing to weaken
  const head: Protocol | null = headText === null ? null : validateProtocolText(headText).protocol;
  const weakenings = protocolWeakenings(base, head);
  if (weakenings.length === 0)
    return {
      rule: 'protocol-policy',
      status: 'pass',
      message: `${PROTOCOL_FILE} changed without weakening the base's protocol`,
      clause: 'DESIGN.md "Policy comes from the base"',
    };
  return {
    rule: 'protocol-policy',
    status: 'fail',
    message: `this branch weakens ${PROTOCOL_FILE} (the base's protocol counts): ${weakenings.join('; ')}`,
    clause: 'DESIGN.md "Policy comes from the base"',
  };
}
