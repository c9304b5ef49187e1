import { anchorFile, sealAnchor } from '../anchor/record.js';
import { workspacePaths } from '../paths.js';
import { readSession } from '../session/record.js';
import { writeJsonAtomic } from '../state/store.js';

/**
 * Writes the validated, sealed anchor of a clocked-in session in exactly the on-disk format the three
 * `hestai anchor` stages write. TODO(lead): replace with the real `hestai anchor` stages once they land.
 */
export function anchorStandIn(root: string, token: string): void {
  const paths = workspacePaths(root);
  const session = readSession(paths, token)!;
  const anchor = sealAnchor({
    version: 1,
    token,
    validated: true,
    role: session.role,
    mode: 'full',
    tier: 'default',
    source: 'anchor',
    validated_at: new Date().toISOString(),
    arm: { phase: 'B1', branch: session.branch ?? 'main', ahead: 0, behind: 0, files_count: 0, top_files: [], focus: session.focus, context_hash: 'demo' },
    canonical_anchor: `===RAPH_VECTOR::v4.0===\n## BIND (Identity Lock)\nROLE::${session.role}\n===END_RAPH_VECTOR===`,
  });
  writeJsonAtomic(anchorFile(paths, token), anchor);
}
