import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { CommitMeta } from '../../src/git/commit-meta.js';
import type { AnchorEvidence, RecordEvidence } from '../../src/verify/anchor-rule.js';
import type { VerifyReport } from '../../src/verify/verify.js';

// Issue 31, item 3: a 10,000-commit range with 1,000 anchored sessions gives a page under 3 MB; every
// commit is still on it (in full when it has findings, else one line), and the counts are verify's.

const hex = (n: number, len = 40) => n.toString(16).padStart(len, '0');
const uuid = (k: number) => `${hex(k, 8)}-0000-4000-8000-${hex(k, 12)}`;

function bigRange(
  commits: number,
  sessions: number,
  failing: number,
): { verify: VerifyReport; meta: Map<string, CommitMeta>; evidence: AnchorEvidence } {
  const meta = new Map<string, CommitMeta>();
  const records = new Map<string, RecordEvidence>();
  const start = Date.UTC(2026, 0, 1);
  const list: VerifyReport['commits'] = [];
  let errors = 0;
  for (let i = 0; i < commits; i++) {
    const sha = hex(i + 1);
    const k = i % sessions;
    const digest = hex(k + 1, 64);
    const fail = i < failing;
    if (fail) errors++;
    list.push({
      sha,
      header: `feat(scope-${i % 8}): change number ${i} of the big history`,
      files: [`src/mod-${k}.ts`],
      verdicts: [
        { rule: 'header', status: 'pass', message: 'type feat', clause: 'CC 1.0.0 §1' },
        fail
          ? {
              rule: 'test-first',
              status: 'fail',
              message: `feat commit has no preceding test commit (${i})`,
              clause: 'docs/design.md §6 (tdd.policy)',
            }
          : {
              rule: 'test-first',
              status: 'pass',
              message: `paired with test commit ${hex(i).slice(0, 7)} "test: t"`,
              clause: 'docs/design.md §6 (tdd.policy)',
            },
        {
          rule: 'trailers',
          status: 'pass',
          message: `session ${uuid(k)}, anchor sha256:${digest}`,
          clause: 'docs/design.md §7 (verify.trailers)',
        },
        {
          rule: 'anchor',
          status: 'pass',
          message: `anchor sha256:${digest.slice(0, 12)}… of session ${uuid(k)} (implementation-lead, default) re-validated at ${hex(k).slice(0, 7)}`,
          clause: 'verify.anchors',
        },
      ],
    });
    const at = new Date(start + i * 60_000).toISOString();
    meta.set(sha, {
      sha,
      parents: [hex(i)],
      author: `Agent ${k % 7}`,
      authorDate: at,
      committerDate: at,
      message: `${list[i]!.header}\n\nHestAI-Session: ${uuid(k)}\nHestAI-Anchor: sha256:${digest}\n`,
    });
    if (!records.has(digest))
      records.set(digest, {
        digest,
        problem: null,
        headMissing: false,
        ruleErrors: [],
        record: {
          kind: 'hestai.anchor-proof',
          version: 1,
          session_id: uuid(k),
          role: 'implementation-lead',
          tier: 'default',
          mode: 'full',
          source: 'anchor',
          canonical_anchor: `## TENSION\nL1::[MODULE_${k}_STAYS_SMALL]⇌CTX:src/mod-${k}.ts:1-3[three exports today]→TRIGGER[keep module ${k} at three exports]\nL2::[README_DESCRIBES_IT]⇌CTX:README.md[the readme names the fixture]→TRIGGER[document module ${k}]\nARTIFACT::src/mod-${k}.ts\nGATE::npm test`,
          head: hex(k),
          anchored_at: new Date(start + k * 60_000 - 30_000).toISOString(),
          context_generated_at: new Date(start + k * 60_000 - 60_000).toISOString(),
          acknowledgments: [],
          resets: [],
        },
      });
  }
  const verify: VerifyReport = {
    ok: errors === 0,
    range: { from: hex(0), to: hex(commits) },
    commits: list,
    policy_changes: [],
    errors,
    warnings: 0,
  };
  return { verify, meta, evidence: { refs: ['refs/heads/hestai/anchors'], records, events: new Map() } };
}

describe('the report at scale', () => {
  it('10,000 commits in 1,000 sessions: under 3 MB, every commit on the page, counts unchanged', () => {
    const { verify, meta, evidence } = bigRange(10_000, 1_000, 300);
    const data = buildReport({ verify, meta, evidence, protocol: null, blobBase: 'https://github.com/o/r/blob/' });
    const html = renderHtml(data);
    expect(Buffer.byteLength(html)).toBeLessThan(3 * 1024 * 1024);
    const ids = new Set([...html.matchAll(/id="c-([0-9a-f]{40})"/g)].map((m) => m[1]));
    expect(verify.commits.filter((c) => !ids.has(c.sha))).toEqual([]);
    // Every failing commit in full, with its verdicts.
    expect(html.split('<section class="commit"').length - 1).toBeGreaterThanOrEqual(300);
    expect(html).toContain('<dd>300</dd>');
    expect(Buffer.byteLength(renderMarkdown(data))).toBeLessThan(64 * 1024);
  });
});
