import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  anchorDigest,
  anchorFile,
  anchorIntegrityHash,
  canonicalJson,
  hasValidAnchor,
  sealAnchor,
} from '../../src/records/anchor.js';
import { workspacePaths } from '../../src/paths.js';
import {
  isAcknowledged,
  listActiveSessions,
  readSession,
  sessionFile,
  writeSession,
  type SessionRecord,
} from '../../src/records/session.js';
import { writeJsonAtomic } from '../../src/state/store.js';
import { makeRepo } from '../helpers/git-repo.js';
import { sessionRecord, unsealedAnchor } from '../helpers/records.js';

const session = (id: string, root: string, overrides: Partial<SessionRecord> = {}) =>
  sessionRecord({ session_id: id, working_dir: root, ...overrides });
const anchor = (token: string) => unsealedAnchor(token);

describe('session records', () => {
  it('reports as corrupt a record whose role or timestamps could inject lines into the OCTAVE files written from it', () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    for (const bad of [
      { role: 'lead\nSTATE::DONE' },
      { started_at: '\n2026-01-01T00:00:00.000Z' },
      { last_activity: '2026-01-01' },
    ]) {
      const id = randomUUID();
      writeJsonAtomic(sessionFile(paths, id), { ...session(id, repo.dir), ...bad });
      expect(() => readSession(paths, id), JSON.stringify(bad)).toThrow(/is corrupt/);
    }
  });

  it('round-trips through the store and lists neighbours, reporting corrupt ones', () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const a = randomUUID();
    const b = randomUUID();
    writeSession(paths, session(a, repo.dir));
    expect(readSession(paths, a)).toEqual(session(a, repo.dir));
    fs.mkdirSync(`${paths.active}/${b}`, { recursive: true });
    fs.writeFileSync(sessionFile(paths, b), '{"version": 1, "session_id": ');
    const listed = listActiveSessions(paths);
    expect(listed.sessions.map((s) => s.session_id)).toEqual([a]);
    expect(listed.problems).toHaveLength(1);
    expect(listed.problems[0]!.session_id).toBe(b);
    expect(listed.problems[0]!.error).toContain('corrupt');
  });

  it('refuses a record of the wrong shape, naming the key', () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const id = randomUUID();
    writeJsonAtomic(sessionFile(paths, id), { ...session(id, repo.dir), state: 'DANCING' });
    expect(() => readSession(paths, id)).toThrow(/state: Invalid option: expected one of "CREATED"/);
  });

  it('counts an acknowledgment only for the current context generation', () => {
    const s = session(randomUUID(), '/x', {
      acknowledgments: [
        { at: '2026-11-22T11:00:00.000Z', context_generated_at: '2026-11-21T00:00:00.000Z', reason: 'old' },
      ],
    });
    const noon = new Date('2026-11-22T12:00:00.000Z');
    expect(isAcknowledged(s, noon, 24)).toBe(false);
    const current = { ...s, context_generated_at: '2026-11-21T00:00:00.000Z' };
    expect(isAcknowledged(current, noon, 24)).toBe(true);
    // One freshness period from when it was made, not forever; never before it was made.
    expect(isAcknowledged(current, new Date('2026-11-23T11:00:00.000Z'), 24)).toBe(true);
    expect(isAcknowledged(current, new Date('2026-11-23T11:00:01.000Z'), 24)).toBe(false);
    expect(isAcknowledged(current, new Date('2026-11-22T10:59:59.000Z'), 24)).toBe(false);
  });
});

describe('anchor records and hasValidAnchor', () => {
  it('hashes canonical content independent of key order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
    const token = randomUUID();
    const sealed = sealAnchor(anchor(token));
    const reordered = Object.fromEntries(Object.entries(sealed).reverse()) as typeof sealed;
    expect(anchorIntegrityHash(reordered)).toBe(sealed.integrity.hash);
    expect(anchorDigest(sealed)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('accepts a sealed anchor of an open session and says why otherwise', () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const token = randomUUID();
    expect(hasValidAnchor(paths, 'not-a-token')).toMatchObject({ valid: false, code: 'INVALID_TOKEN' });
    expect(hasValidAnchor(paths, token)).toMatchObject({ valid: false, code: 'NO_SESSION' });
    writeSession(paths, session(token, repo.dir));
    expect(hasValidAnchor(paths, token)).toMatchObject({ valid: false, code: 'NO_ANCHOR' });

    const sealed = sealAnchor(anchor(token));
    writeJsonAtomic(anchorFile(paths, token), sealed);
    expect(hasValidAnchor(paths, token)).toEqual({ valid: true, anchor: sealed });

    writeJsonAtomic(anchorFile(paths, token), { ...sealed, role: 'holistic-orchestrator' });
    expect(hasValidAnchor(paths, token)).toMatchObject({ valid: false, code: 'TAMPERED' });

    writeJsonAtomic(anchorFile(paths, token), sealAnchor({ ...anchor(token), validated: false as true }));
    expect(hasValidAnchor(paths, token)).toMatchObject({ valid: false, code: 'NOT_VALIDATED' });

    const other = randomUUID();
    writeJsonAtomic(anchorFile(paths, token), sealAnchor(anchor(other)));
    expect(hasValidAnchor(paths, token)).toMatchObject({ valid: false, code: 'TOKEN_MISMATCH' });

    fs.writeFileSync(anchorFile(paths, token), '{"version":1,');
    const corrupt = hasValidAnchor(paths, token);
    expect(corrupt).toMatchObject({ valid: false, code: 'CORRUPT' });
    expect(!corrupt.valid && corrupt.reason).toContain('anchor.json');

    writeJsonAtomic(anchorFile(paths, token), sealed);
    writeSession(paths, session(token, repo.dir, { state: 'STALE' }));
    expect(hasValidAnchor(paths, token)).toMatchObject({ valid: false, code: 'SESSION_CLOSED' });
  });
});
