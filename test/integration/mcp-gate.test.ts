import { describe, expect, it } from 'vitest';
import { isHestaiError } from '../../src/errors.js';
import { requireUnlocked } from '../../src/mcp/gate.js';
import { workspacePaths } from '../../src/paths.js';
import { makeRepo } from '../helpers/git-repo.js';
import { seedAnchor, seedSession } from '../helpers/session-fixture.js';

describe('requireUnlocked: the check every privileged tool runs first', () => {
  it('refuses with TOOL_LOCKED, the tool, the session, the reason and a remedy until the session is anchored', () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const session = seedSession(repo.dir);
    let caught: unknown;
    try {
      requireUnlocked(paths, session.session_id, 'clock_out');
    } catch (error) {
      caught = error;
    }
    expect(isHestaiError(caught)).toBe(true);
    const error = caught as import('../../src/errors.js').HestaiError;
    expect(error.code).toBe('TOOL_LOCKED');
    expect(error.exitCode).toBe(1);
    expect(error.message).toContain('clock_out');
    expect(error.message).toContain(session.session_id);
    expect(error.details.join('\n')).toContain('no anchor');
    expect(error.remedy).toMatch(/anchor/);
    seedAnchor(repo.dir, session.session_id);
    expect(requireUnlocked(paths, session.session_id, 'clock_out').token).toBe(session.session_id);
  });

  it('stays locked for a closed session even with a valid anchor', () => {
    const repo = makeRepo();
    const session = seedSession(repo.dir, { state: 'COMPLETED' });
    seedAnchor(repo.dir, session.session_id);
    expect(() => requireUnlocked(workspacePaths(repo.dir), session.session_id, 'clock_out')).toThrow(/locked/);
  });
});
