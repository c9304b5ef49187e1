import { describe, expect, it } from 'vitest';
import { clockIn } from '../../src/session/clock-in.js';
import { acknowledgeStale } from '../../src/session/ack.js';
import { readSession } from '../../src/records/session.js';
import { workspacePaths } from '../../src/paths.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { fixedClock, pathWithoutGh, rejection } from '../helpers/session-fixtures.js';

const T0 = '2026-01-10T12:00:00.000Z';
const deps = (repo: TempRepo, hours: number) => ({
  clock: fixedClock(new Date(Date.parse(T0) + hours * 3_600_000).toISOString()),
  env: { ...repo.env, PATH: pathWithoutGh() },
});

describe('acknowledgeStale: the reason is bounded at 1,000 characters', () => {
  it('records a reason of exactly 1,000 characters and refuses 1,001 with exit 2, writing nothing', async () => {
    const repo = makeRepo();
    const { session_id } = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'login' }, deps(repo, 0));
    const tooLong = await rejection(
      acknowledgeStale({ working_dir: repo.dir, reason: 'x'.repeat(1001) }, deps(repo, 30)),
    );
    expect(tooLong).toMatchObject({ exitCode: 2, message: 'the reason is 1001 characters long (at most 1000)' });
    expect(readSession(workspacePaths(repo.dir), session_id)!.acknowledgments ?? []).toEqual([]);

    const res = await acknowledgeStale({ working_dir: repo.dir, reason: 'y'.repeat(1000) }, deps(repo, 30));
    expect(res).toMatchObject({ session_id, was_stale: true });
    expect(readSession(workspacePaths(repo.dir), session_id)!.acknowledgments).toEqual([
      expect.objectContaining({ reason: 'y'.repeat(1000) }),
    ]);
  });
});
