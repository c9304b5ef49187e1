import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { anchor } from '../../../src/anchor/handshake.js';
import { odysseanAnchor } from '../../../src/anchor/one-shot.js';
import { writeSession } from '../../../src/records/session.js';
import { archiveSession } from '../../../src/session/archive.js';
import { anchorRepo, BIND, clock, NOW, PROOF, session, vector } from './setup.js';

// Issue 18: AUTHORITY::DELEGATED[parent] must name a real session (live or archived) of this worktree,
// checked against the real .hestai/sessions/ of a real repository, in the staged and the one-shot entry.

const ROLE = 'implementation-lead';
const delegatedBind = (parent: string) =>
  BIND.replace('AUTHORITY::RESPONSIBLE[clock_in implementation]', `AUTHORITY::DELEGATED[${parent}]`);

describe('a delegated binding names its parent session', () => {
  it('accepts a live or an archived parent of this worktree, refuses an unknown one and the session itself', async () => {
    const { repo, paths, token } = anchorRepo();
    const live = randomUUID();
    writeSession(paths, session(live, repo.dir, 'holistic-orchestrator', 'orchestrate'));
    const archived = randomUUID();
    archiveSession(paths, session(archived, repo.dir, 'holistic-orchestrator', 'earlier work'), {
      ended_at: NOW,
      summary: 'done',
      commits: [],
      anchor_digest: null,
      final_state: 'COMPLETED',
    });
    // A session of another worktree (another repository) is not one of this worktree's.
    const other = anchorRepo();

    const context = async (parent: string) => {
      expect((await anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token }, { clock })).success).toBe(
        true,
      );
      return anchor({ stage: 'context', working_dir: repo.dir, token, payload: delegatedBind(parent) }, { clock });
    };
    const unknown = await context(other.token);
    expect(unknown.success).toBe(false);
    expect(unknown.errors).toEqual([
      `BIND_AUTHORITY_DELEGATED: line 4: AUTHORITY DELEGATED[${other.token}] names no session of this worktree (neither live in .hestai/sessions/active/ nor archived)`,
    ]);
    const self = await context(token);
    expect(self.errors[0]).toContain('names this session itself');
    expect((await context(archived)).success).toBe(true);
    const proof = await anchor({ stage: 'proof', working_dir: repo.dir, token, payload: PROOF }, { clock });
    expect(proof.success).toBe(true);
    expect(proof.anchor).toContain(`AUTHORITY::DELEGATED[${archived}]`);

    const second = anchorRepo();
    const liveThere = randomUUID();
    writeSession(second.paths, session(liveThere, second.repo.dir, 'holistic-orchestrator', 'orchestrate'));
    const oneShot = (parent: string) =>
      odysseanAnchor(
        {
          working_dir: second.repo.dir,
          session_id: second.token,
          role: ROLE,
          vector_candidate: vector().replace(
            'AUTHORITY::RESPONSIBLE[clock_in implementation]',
            `AUTHORITY::DELEGATED[${parent}]`,
          ),
        },
        { clock },
      );
    expect((await oneShot(live)).errors).toEqual([
      `BIND_AUTHORITY_DELEGATED: line 5: AUTHORITY DELEGATED[${live}] names no session of this worktree (neither live in .hestai/sessions/active/ nor archived)`,
    ]);
    const ok = await oneShot(liveThere);
    expect(ok.errors).toEqual([]);
    expect(ok.validated).toBe(true);
  });
});
