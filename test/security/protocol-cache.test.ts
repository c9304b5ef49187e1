import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { protocolRepo } from '../helpers/protocol-repo.js';
import { protocolCacheFile } from '../../src/protocol/load.js';
import { hestai, noStack } from './helpers.js';

// Issue 15 (protocol cache): the validated protocol cache can never weaken a gate. It holds the exact text
// of .hestai/protocol.yaml it was validated from (a cache for any other text is a miss), lives outside the worktree (a repository, or an agent that can
// write the worktree, cannot plant it), and is validated on read: a cache that disagrees or is malformed is
// ignored and rewritten, never a pass.

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

  it('lives in the user cache directory, holding the exact text of protocol.yaml', () => {
    const { repo, run, text } = enforcedRun();
    expect(run(['session', 'show']).status).toBe(0);
    const file = protocolCacheFile(text, repo.env)!;
    expect(file.startsWith(repo.home)).toBe(true);
    const cached = JSON.parse(fs.readFileSync(file, 'utf8')) as { text: string; protocol: typeof WEAK };
    expect(cached.text).toBe(text);
    expect(fs.existsSync(path.join(repo.dir, '.hestai/cache/protocol.json'))).toBe(false);
  });

  it('a malformed or disagreeing cache in the user cache directory is ignored and rewritten, never a pass', () => {
    const { repo, text, commit } = enforcedRun();
    const file = protocolCacheFile(text, repo.env)!;
    const good = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    const gates = (phase: Record<string, unknown>) => ({ version: 1, phases: [phase] });
    for (const bad of [
      'not json',
      'null',
      // written for another text, or for this text one byte apart, or with no text
      JSON.stringify({ ...good, text: 'version: 1\nphases: []\n', protocol: WEAK }),
      JSON.stringify({ ...good, text: `${text}\n`, protocol: WEAK }),
      JSON.stringify({ ...good, text: undefined, protocol: WEAK }),
      // the digest the cache used to be keyed by
      JSON.stringify({
        sha256: createHash('sha256').update(`hestai-protocol-cache:2\n${text}`).digest('hex'),
        protocol: WEAK,
      }),
      // this text, but not the shape of a protocol
      JSON.stringify({ ...good, protocol: { version: 1, phases: 'none' } }),
      JSON.stringify({
        ...good,
        protocol: gates({ id: 'BINDING', stage: 'start', gates: [{ id: 'x', step: 's', level: 'MUST' }] }),
      }),
      JSON.stringify({
        ...good,
        protocol: gates({
          id: 'BINDING',
          stage: 'later',
          gates: [{ id: 'x', step: 's', level: 'MUST', blocking: true, check: { type: 'anchor_valid' } }],
        }),
      }),
      JSON.stringify({
        ...good,
        protocol: gates({
          id: 'BINDING',
          stage: 'start',
          gates: [{ id: 'x', step: 's', level: 'MUST', blocking: true, check: { type: 'always_pass' } }],
        }),
      }),
    ]) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, bad);
      const result = commit();
      noStack(result);
      expect(result.status, bad).toBe(1);
      expect(result.stderr, bad).toContain('BINDING/read_context');
      const rewritten = JSON.parse(fs.readFileSync(file, 'utf8')) as {
        text: string;
        protocol: { phases: Array<{ id: string; gates: Array<{ id: string }> }> };
      };
      expect(rewritten.text).toBe(text);
      expect(rewritten.protocol.phases[0]!.gates.map((g) => g.id)).toEqual(['clock_in', 'read_context', 'anchor']);
    }
  });
});
