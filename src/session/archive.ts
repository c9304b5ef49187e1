import fs from 'node:fs';
import path from 'node:path';
import { hasValidAnchor, anchorDigest } from '../records/anchor.js';
import { activeDir, relativeToRoot, type WorkspacePaths } from '../paths.js';
import { writeOctave, parseOctave, getValue } from '../octave/index.js';
import { removeStatePath, storageError, writeFileAtomic } from '../state/store.js';
import { archiveFileName, buildArchiveDocument, type ArchiveFacts } from './archive-doc.js';
import type { SessionRecord } from '../records/session.js';

/** The anchor digest of a session, when it holds a valid anchor. */
export function sessionAnchorDigest(paths: WorkspacePaths, sessionId: string): string | null {
  const check = hasValidAnchor(paths, sessionId);
  return check.valid ? anchorDigest(check.anchor) : null;
}

/**
 * Writes the session's archive (OCTAVE) atomically, reads it back to verify it, and only then removes
 * the active directory. Returns the archive's workspace-relative path.
 */
export function archiveSession(paths: WorkspacePaths, session: SessionRecord, facts: ArchiveFacts): string {
  const file = path.join(paths.archive, archiveFileName(session, facts.ended_at));
  const text = writeOctave(buildArchiveDocument(session, facts));
  writeFileAtomic(file, text);
  let verified = false;
  try {
    const back = fs.readFileSync(file, 'utf8');
    verified = back === text && getValue(parseOctave(back, { file }), 'SESSION_ID') === session.session_id;
  } catch {
    verified = false;
  }
  if (!verified)
    throw storageError(file, Object.assign(new Error('the archive did not read back as written'), { code: 'EIO' }));
  removeStatePath(activeDir(paths, session.session_id));
  return relativeToRoot(paths, file);
}
