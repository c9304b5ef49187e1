import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { protocolRepo } from '../helpers/protocol-repo.js';
import { formerCacheDir, textKey } from '../helpers/former-cache.js';
import { hestai, noStack } from './helpers.js';

// Issue 15, issue 27: no cache can weaken a gate. A protocol cache planted in the worktree is never read, and
// the validated protocol is cached nowhere outside the process (an agent can write the user cache directory).

/** A protocol whose only start phase has no gate: what an attacker wants the hook to believe. */
const WEAK = { version: 1, phases: [{ id: 'BINDING', stage: 'start', gates: [] }] };

function enforcedRun() {
  const { repo, env } = protocolRepo({ focus: 'cache', objective: 'cache attack' });
  const run = (args: string[]) => hestai(repo, args, env);
  const text = fs.readFileSync(path.join(repo.dir, '.hestai/protocol.yaml'), 'utf8');
  const commit = () => {
    repo.write(`notes/${Date.now()}-${Math.random()}.md`, 'x\n');
    repo.git(['add', 'notes']);
    return repo.git(['commit', '-q', '-m', 'chore: work'], { allowFail: true, env });
  };
  return { repo, run, text, commit };
}

describe('protocol cache: never weakens a gate', () => {
  it('a .hestai/cache/protocol.json in the worktree keyed to the protocol text cannot remove a blocking gate', () => {
    const { repo, text, commit } = enforcedRun();
    // The key the worktree cache used (format 1): anyone who can read the protocol can compute it.
    const key = createHash('sha256').update(`hestai-protocol-cache:1\n${text}`).digest('hex');
    repo.write('.hestai/cache/protocol.json', JSON.stringify({ sha256: key, protocol: WEAK }));
    const result = commit();
    noStack(result);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('BINDING/read_context');
  });

  it('caches nothing in the user cache directory; a weak protocol planted where earlier builds read one never removes a gate', () => {
    const { repo, run, text, commit } = enforcedRun();
    expect(run(['session', 'show']).status).toBe(0);
    const dir = path.join(formerCacheDir(repo.env), 'protocol');
    expect(fs.existsSync(dir)).toBe(false);
    fs.mkdirSync(dir, { recursive: true });
    for (const planted of [text, `${text}\n`]) {
      fs.writeFileSync(
        path.join(dir, `3-${textKey(text)}.json`),
        JSON.stringify({ format: 3, text: planted, protocol: WEAK }),
      );
      const result = commit();
      noStack(result);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('BINDING/read_context');
    }
  });
});
