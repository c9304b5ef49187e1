import { describe, expect, it } from 'vitest';
import { baseFromEvent } from '../../../src/verify/ci-event.js';

const SHA = 'a'.repeat(40);

describe('baseFromEvent', () => {
  it('pull_request and pull_request_target: the base sha', () => {
    expect(baseFromEvent('pull_request', { pull_request: { base: { sha: SHA } } })).toEqual({
      rev: SHA,
      source: 'pull_request base.sha',
    });
    expect(baseFromEvent('pull_request_target', { pull_request: { base: { sha: SHA } } })).toMatchObject({ rev: SHA });
    expect(baseFromEvent('pull_request', {})).toEqual({ error: 'the pull_request event has no pull_request.base.sha' });
  });

  it('push: before, or for a new branch the default branch as fetched', () => {
    expect(baseFromEvent('push', { before: SHA })).toEqual({ rev: SHA, source: 'push before' });
    expect(baseFromEvent('push', { before: '0'.repeat(40), repository: { default_branch: 'trunk' } })).toEqual({
      rev: 'refs/remotes/origin/trunk',
      source: 'push of a new branch: origin/trunk',
    });
    expect(baseFromEvent('push', { before: '0'.repeat(40) })).toHaveProperty('error');
    expect(baseFromEvent('push', { before: 'HEAD' })).toHaveProperty('error');
  });

  it('merge_group: the base sha; other events name no base', () => {
    expect(baseFromEvent('merge_group', { merge_group: { base_sha: SHA } })).toMatchObject({ rev: SHA });
    expect(baseFromEvent('workflow_dispatch', {})).toBeNull();
    expect(baseFromEvent('schedule', null)).toBeNull();
  });
});
