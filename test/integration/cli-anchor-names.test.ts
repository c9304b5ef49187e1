import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';

// One name per concept (issue 14, item 6): --session, --tier and --focus are the names; --token,
// --strictness and --topic stay accepted as aliases.
describe('hestai anchor names', () => {
  it('takes --session/--tier and still accepts --token/--strictness', () => {
    const repo = makeRepo();
    expect(repo.hestai(['init', '--no-husky', '--commit']).status).toBe(0);
    const clock = repo.hestai(['clock-in', '--role', 'implementation-lead', '--json']);
    const id = (JSON.parse(clock.stdout) as { session_id: string }).session_id;
    const canonical = repo.hestai([
      'anchor',
      '--stage',
      'identity',
      '--role',
      'implementation-lead',
      '--session',
      id,
      '--tier',
      'deep',
      '--json',
    ]);
    expect(canonical.status, canonical.stderr).toBe(0);
    expect(JSON.parse(canonical.stdout)).toMatchObject({ success: true, token: id, strictness: 'deep' });
    const legacy = repo.hestai([
      'anchor',
      '--stage',
      'identity',
      '--role',
      'implementation-lead',
      '--token',
      id,
      '--strictness',
      'quick',
      '--json',
    ]);
    expect(legacy.status, legacy.stderr).toBe(0);
    expect(JSON.parse(legacy.stdout)).toMatchObject({ success: true, token: id, strictness: 'quick' });
  });
});
