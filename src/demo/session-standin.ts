import { randomUUID } from 'node:crypto';
import { anchorFile, sealAnchor } from '../anchor/record.js';
import { workspacePaths } from '../paths.js';
import { readSession, writeSession, type SessionRecord } from '../session/record.js';
import { writeJsonAtomic } from '../state/store.js';

/**
 * Writes an active session and its validated anchor in exactly the on-disk format `hestai clock-in` and
 * the three `hestai anchor` stages write. TODO(lead): replace with the real CLI stages once they land.
 */
export function clockInAndAnchor(root: string, role: string, at: Date): string {
  const paths = workspacePaths(root);
  const token = randomUUID();
  const iso = at.toISOString();
  const session: SessionRecord = {
    version: 1,
    session_id: token,
    role,
    focus: 'greeting feature',
    focus_source: 'explicit',
    branch: 'main',
    working_dir: root,
    model: null,
    started_at: iso,
    context_generated_at: iso,
    last_activity: iso,
    state: 'ACTIVE',
    starting_commit: null,
    ownership_log: [],
    acknowledgments: [],
  };
  writeSession(paths, session);
  const anchor = sealAnchor({
    version: 1,
    token,
    validated: true,
    role,
    mode: 'full',
    tier: 'default',
    source: 'anchor',
    validated_at: iso,
    arm: { phase: 'B1', branch: 'main', ahead: 0, behind: 0, files_count: 0, top_files: [], focus: session.focus, context_hash: 'demo' },
    canonical_anchor: '===RAPH_VECTOR::v4.0===\n## BIND (Identity Lock)\nROLE::' + role + '\n===END_RAPH_VECTOR===',
  });
  writeJsonAtomic(anchorFile(paths, token), anchor);
  return token;
}

/** Records an acknowledgment of the current context generation, as `hestai ack --reason` does. TODO(lead): use the CLI. */
export function acknowledge(root: string, token: string, reason: string, at: Date): void {
  const paths = workspacePaths(root);
  const session = readSession(paths, token)!;
  const record: SessionRecord = { ...session, acknowledgments: [...session.acknowledgments, { at: at.toISOString(), context_generated_at: session.context_generated_at, reason }] };
  writeSession(paths, record);
}
