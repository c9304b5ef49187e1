import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { judgeSession } from '../../src/hooks/session-verdict.js';
import { hasValidAnchor } from '../../src/records/anchor.js';
import { sessionState } from '../../src/mcp/resources.js';
import { workspacePaths } from '../../src/paths.js';
import { makeRepo } from '../helpers/git-repo.js';
import { seedAnchor, seedSession } from '../helpers/session-fixture.js';

// One freshness rule (records/freshness.ts): every surface that reports a context as stale agrees with the
// hook that blocks on it, to the second.
const NOW = new Date('2026-11-23T12:00:00.000Z');
const at = (msBefore: number) => new Date(NOW.getTime() - msBefore).toISOString();
const HOUR = 3_600_000;

describe('context freshness is one rule', () => {
  it.each([
    ['24 h + 10 s', 24 * HOUR + 10_000, true],
    ['24 h exactly', 24 * HOUR, false],
    ['23 h 59 min', 24 * HOUR - 60_000, false],
  ])('at %s the MCP state and the commit hook give the same verdict', async (_label, age, stale) => {
    const repo = makeRepo();
    const session = seedSession(repo.dir, { context_generated_at: at(age), last_activity: at(age) });
    seedAnchor(repo.dir, session.session_id);
    const paths = workspacePaths(repo.dir);
    const { config } = await loadConfig(repo.dir);
    const verdict = judgeSession(paths, session, hasValidAnchor(paths, session.session_id), config, NOW);
    expect(verdict.ok === false && verdict.code === 'STALE').toBe(stale);
    const state = await sessionState(paths, { clock: () => NOW, env: { HESTAI_SESSION: session.session_id } });
    expect((state['context'] as { stale: boolean }).stale).toBe(stale);
  });
});
