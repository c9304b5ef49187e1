import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openEvidence } from '../../src/evidence/store.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';

/**
 * Proof records deleted by a later anchors commit are looked for by their own paths in the history of
 * records/ (issue 39 item 1's cost): one path at a time, several at once, and more than the store names to
 * one walk (then it walks records/ whole). Each is found and its deletion reported.
 */
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const contents = Array.from({ length: 70 }, (_, i) => `{"n":${i}}`);

/** hestai/anchors: one commit adding every record and a keeper, the next deleting every record. */
function anchors(repo: TempRepo): void {
  const add = contents.map((c) => `M 100644 inline records/${sha(c)}.json\ndata ${c.length}\n${c}\n`).join('');
  const del = contents.map((c) => `D records/${sha(c)}.json\n`).join('');
  const keep = '{"keep":true}';
  const stream =
    `commit refs/heads/hestai/anchors\ncommitter Ann <ann@example.invalid> 1700000000 +0000\ndata 7\npublish\n${add}` +
    `M 100644 inline records/${sha(keep)}.json\ndata ${keep.length}\n${keep}\n\n` +
    `commit refs/heads/hestai/anchors\ncommitter Mal <mal@example.invalid> 1700000100 +0000\ndata 4\ndrop\n${del}\n`;
  repo.git(['fast-import', '--quiet'], { input: stream });
}

const foundInHistory = (problem: string) => /not a valid proof record/.test(problem);

describe('proof records deleted from hestai/anchors', () => {
  it('are found by their own paths, one lookup after another and many at once, each deletion warned about', async () => {
    const repo = makeRepo();
    anchors(repo);
    const one = openEvidence(repo.dir);
    try {
      for (const c of contents.slice(0, 2)) {
        const l = (await one.proofRecords(new Set([sha(c)]))).get(sha(c));
        expect(l && 'problem' in l && foundInHistory(l.problem)).toBe(true);
      }
      expect(one.warnings().filter((w) => /deleted records\//.test(w.message))).toHaveLength(2);
      const missing = (await one.proofRecords(new Set(['0'.repeat(64)]))).get('0'.repeat(64));
      expect(missing && 'problem' in missing ? missing.problem : '').toMatch(/no proof record/);
    } finally {
      one.close();
    }
    const many = openEvidence(repo.dir);
    try {
      const digests = new Set(contents.map(sha));
      const found = await many.proofRecords(digests);
      expect([...found.values()].filter((l) => 'problem' in l && foundInHistory(l.problem))).toHaveLength(70);
      expect(many.warnings().filter((w) => /by Mal .* deleted records\//.test(w.message))).toHaveLength(70);
    } finally {
      many.close();
    }
  });
});
