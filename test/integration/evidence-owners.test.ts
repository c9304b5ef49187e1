import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openEvidence } from '../../src/evidence/store.js';
import { writeAnchorStore, anchorStoreHead } from '../../src/git/anchors.js';
import { makeRepo, tempDir, type TempRepo } from '../helpers/git-repo.js';

// Issue 39 item 3: who published a file on hestai/anchors is the allowed key that signed the commit adding it,
// checked by git against the allowed signers the caller gives (the base's .hestai/allowed_signers).

function key(dir: string, name: string): string {
  const file = path.join(dir, name);
  const made = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', file], { encoding: 'utf8' });
  expect(made.status, made.stderr).toBe(0);
  return file;
}

const record = (session: string) =>
  JSON.stringify({
    acknowledgments: [],
    anchored_at: '2026-12-07T10:00:00.000Z',
    canonical_anchor: 'x',
    context_generated_at: '2026-12-07T10:00:00.000Z',
    head: null,
    kind: 'hestai.anchor-proof',
    mode: 'full',
    resets: [],
    role: 'implementation-lead',
    session_id: session,
    source: 'anchor',
    tier: 'default',
    version: 1,
  });

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** One anchors commit adding `files`, signed with `signingKey` (null: unsigned), with hestai's subject. */
function publish(repo: TempRepo, signingKey: string | null, files: Record<string, string>, subject: string): void {
  repo.git(['config', 'gpg.format', 'ssh']);
  if (signingKey) repo.git(['config', 'user.signingkey', `${signingKey}.pub`]);
  else repo.git(['config', '--unset', 'user.signingkey'], { allowFail: true });
  writeAnchorStore(
    repo.dir,
    Object.entries(files).map(([p, content]) => ({ path: p, content })),
    subject,
    { tip: anchorStoreHead(repo.dir).tip, at: new Date() },
  );
}

/** Alice's key (listed) and Mallory's (not), made by ssh-keygen for each test (temporary directories go after each). */
function keys() {
  const dir = tempDir('hestai-keys-');
  const alice = key(dir, 'alice');
  const mallory = key(dir, 'mallory');
  return { alice, mallory, allowed: `alice@example.invalid ${fs.readFileSync(`${alice}.pub`, 'utf8')}` };
}

describe('openEvidence with signers: who published each file', () => {
  it('a record added in a commit signed by an allowed key is owned by it; unsigned, unlisted and contested ones are not, each with its reason', async () => {
    const { alice, mallory, allowed } = keys();
    const repo = makeRepo();
    const [a, b, c, d] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const ra = record(a);
    publish(repo, alice, { [`records/${sha(ra)}.json`]: ra }, `hestai: anchor ${a} (implementation-lead, default)`);
    const rb = record(b);
    publish(repo, null, { [`records/${sha(rb)}.json`]: rb }, `hestai: anchor ${b} (implementation-lead, default)`);
    const rc = record(c);
    publish(repo, mallory, { [`records/${sha(rc)}.json`]: rc }, `hestai: anchor ${c} (implementation-lead, default)`);
    // A subject that names no session: only the history of records/ finds who added it.
    const rd = record(d);
    publish(repo, alice, { [`records/${sha(rd)}.json`]: rd }, 'hestai: something');
    const store = openEvidence(repo.dir, { signers: { allowed } });
    try {
      const found = await store.proofRecords(new Set([sha(ra), sha(rb), sha(rc), sha(rd)]));
      const owner = (text: string) => {
        const l = found.get(sha(text));
        return l && 'record' in l ? l.ownership : undefined;
      };
      expect(owner(ra)?.owner?.signer).toBe('alice@example.invalid');
      expect(owner(ra)?.owner?.key).toMatch(/^SHA256:/);
      expect(owner(rd)?.owner?.signer).toBe('alice@example.invalid');
      const unsigned = owner(rb);
      expect(unsigned?.owner).toBeNull();
      expect(unsigned && 'problem' in unsigned ? unsigned.problem : '').toMatch(/not signed/);
      const unlisted = owner(rc);
      expect(unlisted && 'problem' in unlisted ? unlisted.problem : '').toMatch(/does not list/);
    } finally {
      store.close();
    }
    // The same bytes added again by mallory, listed too: two allowed keys, no owner.
    const both = `${allowed}mallory@example.invalid ${fs.readFileSync(`${mallory}.pub`, 'utf8')}`;
    const tip = repo.git(['rev-parse', 'refs/heads/hestai/anchors']).stdout.trim();
    const env = { GIT_INDEX_FILE: path.join(repo.dir, '.git', 'contest-index') };
    repo.git(['read-tree', tip], { env });
    repo.git(['rm', '-q', '--cached', `records/${sha(ra)}.json`], { env });
    const removed = repo
      .git(['commit-tree', repo.git(['write-tree'], { env }).stdout.trim(), '-p', tip, '-m', `drop ${a}`])
      .stdout.trim();
    repo.git(['update-ref', 'refs/heads/hestai/anchors', removed]);
    publish(repo, mallory, { [`records/${sha(ra)}.json`]: ra }, `hestai: anchor ${a} again`);
    const contested = openEvidence(repo.dir, { signers: { allowed: both } });
    try {
      const l = (await contested.proofRecords(new Set([sha(ra)]))).get(sha(ra));
      const o = l && 'record' in l ? l.ownership : undefined;
      expect(o?.owner).toBeNull();
      expect(o && 'problem' in o ? o.problem : '').toMatch(/2 different allowed keys/);
    } finally {
      contested.close();
    }
  });

  it('coverage records and protocol runs come with who published them; signatures() answers for any commit', async () => {
    const { alice, allowed } = keys();
    const repo = makeRepo();
    const s = randomUUID();
    const coverage = JSON.stringify({
      kind: 'hestai.coverage',
      version: 1,
      session_id: s,
      branch: 'refs/heads/feat/x',
      tip: 'a'.repeat(40),
      patch_id: null,
      commits: [{ id: 'a'.repeat(40), patch_id: null }],
      pushed_at: '2026-12-07T10:00:00.000Z',
    });
    publish(repo, alice, { [`coverage/${s}/${sha(coverage)}.json`]: coverage }, 'hestai: coverage');
    const store = openEvidence(repo.dir, { signers: { allowed } });
    try {
      const [entry] = (await store.coverage(new Set([s]))).get(s) ?? [];
      expect(entry?.value.commits[0]?.id).toBe('a'.repeat(40));
      expect(entry?.ownership.owner?.signer).toBe('alice@example.invalid');
      const tip = repo.git(['rev-parse', 'refs/heads/hestai/anchors']).stdout.trim();
      expect((await store.signatures([tip])).get(tip)?.allowed).toBe(true);
    } finally {
      store.close();
    }
  });
});
