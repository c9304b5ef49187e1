import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clockIn } from '../../src/session/clock-in.js';
import { trustWorkspace } from '../../src/trust/index.js';
import { workspacePaths } from '../../src/paths.js';
import { readSession } from '../../src/records/session.js';
import { parseOctave, toObject } from '../../src/octave/index.js';
import { readJsonl } from '../../src/state/store.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { chatServer, completion, fixedClock, pathWithoutGh } from '../helpers/session-fixtures.js';

const NOW = '2026-01-10T12:00:00.000Z';
const deps = (repo: TempRepo) => ({ clock: fixedClock(NOW), env: { ...repo.env, PATH: pathWithoutGh() } });
const readFast = (repo: TempRepo, name: string) =>
  toObject(parseOctave(fs.readFileSync(path.join(repo.dir, '.hestai/context/state', name), 'utf8')));

const SELECTION = JSON.stringify({ selected: ['README.md'], checklist: [] });
const FAST_REPLY = [
  '===CURRENT_FOCUS===',
  'SESSION_ID::forged',
  'SUMMARY::"Add logout next to login; the session store is shared"',
  'NEXT_STEPS::["write the logout test","implement logout"]',
  'RISKS::["the session store has no lock"]',
  '===END===',
  '===BLOCKERS===',
  'ACTIVE::[]',
  'POTENTIAL::["CI has no logout fixture"]',
  '===END===',
].join('\n');

/** A provider that answers the selection prompt and the FAST-layer prompt differently. */
async function provider(fast: () => { status: number; body: string } | 'hang') {
  return chatServer((body) => {
    const system = (body['messages'] as { content: string }[])[0]!.content;
    return system.includes('FAST layer') ? fast() : completion(SELECTION);
  });
}

function aiWorkspace(repo: TempRepo, url: string, trusted = true): void {
  repo.write('.hestai_workspace.yaml', `ai:\n  base_url: ${url}\n  model_override: m\n  timeout_ms: 2000\n`);
  if (trusted) trustWorkspace(workspacePaths(repo.dir), repo.env, new Date(NOW));
}

describe('FAST-layer synthesis through the AI provider (seed 000 STEP_6)', () => {
  it('sends the FAST templates, validates the OCTAVE reply, keeps the authoritative fields, records ai', async () => {
    const repo = makeRepo();
    repo.write('.hestai/context/state/blockers.oct.md', '===BLOCKERS===\nACTIVE::["CI red"]\n===END===\n');
    const server = await provider(() => completion(FAST_REPLY));
    aiWorkspace(repo, server.url);
    const res = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'logout' }, deps(repo));
    const fastRequest = server.requests.find((r) =>
      (r.body['messages'] as { content: string }[])[0]!.content.includes('FAST layer'),
    )!;
    const user = (fastRequest.body['messages'] as { content: string }[])[1]!.content;
    expect(user).toContain('===CURRENT_FOCUS===');
    expect(user).toContain('===BLOCKERS===');
    expect(res.fast_layer.synthesis).toEqual({
      method: 'ai',
      reason: null,
      prompt: { name: 'clock_in_fast_layer', version: '1', source: 'package' },
    });
    expect(readFast(repo, 'current-focus.oct.md')).toMatchObject({
      SESSION_ID: res.session_id,
      FOCUS: 'logout',
      SYNTHESIS: 'ai',
      SUMMARY: 'Add logout next to login; the session store is shared',
      NEXT_STEPS: ['write the logout test', 'implement logout'],
      RISKS: ['the session store has no lock'],
    });
    expect(readFast(repo, 'blockers.oct.md')).toMatchObject({
      ACTIVE: ['CI red'],
      POTENTIAL: ['CI has no logout fixture'],
    });
    expect(readSession(workspacePaths(repo.dir), res.session_id)!.prompts).toContainEqual({
      name: 'clock_in_fast_layer',
      version: '1',
      source: 'package',
    });
    expect(readJsonl(workspacePaths(repo.dir).auditLog)).toContainEqual(
      expect.objectContaining({ event: 'clock_in', session_id: res.session_id, fast_synthesis: 'ai' }),
    );
  });

  it.each([
    ['a reply that is not OCTAVE', () => completion('Here is your focus: be careful.'), 'not valid OCTAVE'],
    ['a reply without the CURRENT_FOCUS document', () => completion('===OTHER===\nA::b\n===END===\n'), 'CURRENT_FOCUS'],
    ['an HTTP error', () => ({ status: 500, body: '{}' }), 'HTTP 500'],
  ])('falls back to the deterministic documents on %s, and says so', async (_name, reply, reason) => {
    const repo = makeRepo();
    const server = await provider(reply);
    aiWorkspace(repo, server.url);
    const res = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'logout' }, deps(repo));
    expect(res.fast_layer.synthesis).toMatchObject({
      method: 'deterministic',
      reason: expect.stringContaining(reason),
    });
    const focus = readFast(repo, 'current-focus.oct.md');
    expect(focus).toMatchObject({ SESSION_ID: res.session_id, SYNTHESIS: 'deterministic' });
    expect(focus['SUMMARY']).toBeUndefined();
    expect(readJsonl(workspacePaths(repo.dir).auditLog)).toContainEqual(
      expect.objectContaining({ event: 'clock_in', fast_synthesis: 'deterministic' }),
    );
  });

  it('sends nothing for an untrusted workspace and synthesises deterministically', async () => {
    const repo = makeRepo();
    const server = await provider(() => completion(FAST_REPLY));
    aiWorkspace(repo, server.url, false);
    const res = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'logout' }, deps(repo));
    expect(server.requests).toEqual([]);
    expect(res.fast_layer.synthesis).toMatchObject({ method: 'deterministic', reason: 'no AI provider configured' });
  });
});
