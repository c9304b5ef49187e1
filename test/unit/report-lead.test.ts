import { describe, expect, it } from 'vitest';
import type { CommitMeta } from '../../src/git/commit-meta.js';
import { buildReport } from '../../src/report/build.js';
import type { ProtocolRun } from '../../src/report/model.js';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { Verdict } from '../../src/tdd/verdict.js';
import type { AnchorEvidence } from '../../src/verify/anchor-rule.js';
import type { VerifyReport } from '../../src/verify/verify.js';

const pass = (rule: string, message = 'ok'): Verdict => ({ rule, status: 'pass', message });

// Issue 41, item 6: the report a lead reads. Real renderers over verify-shaped data (the e2e report tests
// run the whole command; these pin what the page says).

const sha = (n: number) => n.toString(16).padStart(40, '0');

interface Row {
  header: string;
  verdicts: Verdict[];
  files?: string[];
  date?: string;
  trailers?: string;
}

function data(rows: Row[], ok = true, evidence: AnchorEvidence | null = null, protocol: ProtocolRun[] | null = null) {
  const meta = new Map<string, CommitMeta>();
  const commits: VerifyReport['commits'] = rows.map((r, i) => {
    const s = sha(i + 1);
    const date = r.date ?? new Date(Date.UTC(2026, 11, 7, 10, i)).toISOString();
    meta.set(s, {
      sha: s,
      parents: [sha(i)],
      author: 'A U Thor',
      authorDate: date,
      committerDate: date,
      message: `${r.header}\n${r.trailers ? `\n${r.trailers}\n` : ''}`,
    });
    return { sha: s, header: r.header, files: r.files ?? [], verdicts: r.verdicts };
  });
  const verify: VerifyReport = {
    ok,
    range: { from: sha(0), to: sha(rows.length) },
    commits,
    policy_changes: [],
    errors: 0,
    warnings: 0,
  };
  return buildReport({ verify, meta, evidence, protocol, blobBase: null });
}

describe('the report a lead reads', () => {
  it('bidi controls in a header are shown as visible escapes in HTML and markdown, never as raw controls', () => {
    const controls = [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200e',
      '\u200f',
    ];
    const header = `feat(a): pay ${controls.join('x')} evil`;
    const d = data(
      [{ header, verdicts: [{ rule: 'test-first', status: 'fail', message: `no test for ${header}` }] }],
      false,
    );
    const html = renderHtml(d);
    const md = renderMarkdown(d);
    for (const c of controls) {
      const code = `u${c.charCodeAt(0).toString(16).toUpperCase()}`;
      expect(html).not.toContain(c);
      expect(md).not.toContain(c);
      expect(html).toContain(`\\${code}`);
      expect(md).toContain(code);
    }
    expect(html).toContain('feat(a): pay \\u202Ax\\u202Bx');
  });

  it('the adoption commit and other commits verify marks exempt are shown as exempt, not counted against "commits anchored"', () => {
    const adoption =
      'the adoption commit: it adds .hestai/config.yaml, so no session could be anchored before it: anchor not required';
    const d = data([
      {
        header: 'chore: adopt hestai',
        verdicts: [pass('header'), { rule: 'anchor', status: 'skip', message: adoption }],
      },
      { header: 'test(a): t', verdicts: [pass('header'), pass('anchor')] },
      { header: 'feat(a): f', verdicts: [pass('header'), pass('anchor')] },
      { header: 'fix(a): g', verdicts: [pass('header'), pass('anchor')] },
    ]);
    expect(d.summary.anchored).toEqual({ count: 3, of: 3, exempt: 1 });
    const html = renderHtml(d);
    expect(html).toContain('100% (3 of 3), 1 exempt');
    expect(html).not.toContain('75%');
    expect(html).toMatch(/id="c-0{39}1"[^]*?anchor exempt: the adoption commit/);
    expect(renderMarkdown(d)).toContain('| commits anchored | 100% (3 of 3), 1 exempt |');
  });

  it('one committer date in year 9999 does not collapse the other commits onto one point of the timeline', () => {
    const d = data([
      { header: 'test(a): t', verdicts: [pass('header')] },
      { header: 'feat(a): f', verdicts: [pass('header')] },
      { header: 'fix(a): g', verdicts: [pass('header')] },
      { header: 'fix(a): far', verdicts: [pass('header')], date: '9999-01-01T00:00:00Z' },
    ]);
    const html = renderHtml(d);
    const xs = [...html.matchAll(/<circle class="commit [^"]*" cx="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(xs).toHaveLength(4);
    expect(xs[1]! - xs[0]!).toBeGreaterThan(50);
    expect(xs[2]! - xs[1]!).toBeGreaterThan(50);
    expect(html).toContain('1 date(s) outside the axis, drawn at its edge');
    expect(html).not.toContain('9999-01-01 00:00 UTC');
    // The note sits below the lanes, clear of the axis labels and tick lines at the top.
    const note = /<text class="axis note" x="[\d.]+" y="([\d.]+)"/.exec(html);
    const lanes = [...html.matchAll(/<line class="lane-line" x1="[\d.]+" y1="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(Number(note?.[1])).toBeGreaterThan(Math.max(...lanes) + 14);
  });

  it('a +25 h acknowledgment does not squeeze clock-in, anchor and three commits into one dot: the axis breaks at the gap', () => {
    const session = '5e551011-0000-4000-8000-000000000001';
    const digest = 'ab'.repeat(32);
    const at = (h: number, m: number) => new Date(Date.UTC(2026, 11, 7, h, m)).toISOString();
    const trailers = `HestAI-Session: ${session}\nHestAI-Anchor: sha256:${digest}`;
    const evidence: AnchorEvidence = {
      refs: ['refs/heads/hestai/anchors'],
      events: new Map(),
      records: new Map([
        [
          digest,
          {
            digest,
            problem: null,
            headMissing: false,
            ruleErrors: [],
            record: {
              kind: 'hestai.anchor-proof',
              version: 1,
              session_id: session,
              role: 'implementation-lead',
              tier: 'default',
              mode: 'full',
              source: 'anchor',
              canonical_anchor: 'ARTIFACT::src/a.ts\nGATE::npm test',
              head: sha(0),
              anchored_at: at(34, 5),
              context_generated_at: at(9, 0),
              acknowledgments: [{ at: at(34, 0), context_generated_at: at(9, 0), reason: 'read it again' }],
              resets: [],
            },
          },
        ],
      ]),
    };
    const d = data(
      [10, 20, 30].map((m, i) => ({
        header: ['test(a): t', 'feat(a): f', 'fix(a): g'][i]!,
        verdicts: [pass('header')],
        date: at(34, m),
        trailers,
      })),
      true,
      evidence,
    );
    const html = renderHtml(d);
    const xs = [...html.matchAll(/<circle class="commit [^"]*" cx="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(xs).toHaveLength(3);
    expect(xs[1]! - xs[0]!).toBeGreaterThan(40);
    expect(xs[2]! - xs[1]!).toBeGreaterThan(40);
    const clockIn = Number(/<path class="ev clock-in" d="M([\d.]+)/.exec(html)?.[1]) + 6;
    const anchor = Number(/<g class="ev anchor"><title>[^<]*<\/title><line x1="([\d.]+)"/.exec(html)?.[1]);
    expect(anchor - clockIn).toBeGreaterThan(20);
    expect(xs[0]! - anchor).toBeGreaterThan(20);
    // The break is drawn and says how long the gap is.
    expect(html).toMatch(/<g class="break">[^]*?25 h/);
    // No two axis labels overlap (11 px text: about 6.2 px a character).
    const labels = [...html.matchAll(/<text class="axis" x="([\d.]+)" y="12" text-anchor="(\w+)">([^<]*)</g)].map(
      (m) => {
        const w = m[3]!.length * 6.2;
        const x = Number(m[1]);
        return m[2] === 'start' ? [x, x + w] : m[2] === 'end' ? [x - w, x] : [x - w / 2, x + w / 2];
      },
    );
    expect(labels.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < labels.length; i++) expect(labels[i]![0]).toBeGreaterThan(labels[i - 1]![1]!);
  });

  it('each commit shows the files it changed, escaped, with a count beyond the first twenty', () => {
    const many = Array.from({ length: 25 }, (_, i) => `src/m${i}.ts`);
    const d = data([
      { header: 'feat(a): f', verdicts: [pass('header')], files: ['src/a.ts', 'test/<a>.test.ts'] },
      { header: 'chore: many', verdicts: [pass('header')], files: many },
    ]);
    const html = renderHtml(d);
    expect(html).toMatch(/id="c-0{39}1"[^]*?files: <code>src\/a\.ts<\/code> <code>test\/&lt;a&gt;\.test\.ts<\/code>/);
    expect(html).toContain('<code>src/m19.ts</code> and 5 more');
    expect(html).not.toContain('<code>src/m20.ts</code>');
  });

  it("each commit says whether its anchor's GATE command was run by its session's protocol run, and how it ended", () => {
    const session = (k: number) => `5e551011-0000-4000-8000-00000000000${k}`;
    const digest = (k: number) => `${k}`.repeat(64);
    const records = new Map(
      ['npm test', 'make check', 'npm test', 'check:ci/build'].map((gate, i) => {
        const k = i + 1;
        const at = new Date(Date.UTC(2026, 11, 7, 9, i)).toISOString();
        return [
          digest(k),
          {
            digest: digest(k),
            problem: null,
            headMissing: false,
            ruleErrors: [],
            record: {
              kind: 'hestai.anchor-proof' as const,
              version: 1 as const,
              session_id: session(k),
              role: 'implementation-lead',
              tier: 'default' as const,
              mode: 'full' as const,
              source: 'anchor' as const,
              canonical_anchor: `ARTIFACT::src/a.ts\nGATE::${gate}`,
              head: sha(0),
              anchored_at: at,
              context_generated_at: at,
              acknowledgments: [],
              resets: [],
            },
          },
        ];
      }),
    );
    const evidence: AnchorEvidence = { refs: ['refs/heads/hestai/anchors'], events: new Map(), records };
    const run = (k: number, result: 'passed' | 'failed'): ProtocolRun => ({
      session_id: session(k),
      outcome: 'COMPLETE',
      violations: 0,
      forced: 0,
      commits: [],
      commands: [{ gate: 'WORK/tests', run: 'npm test', result }],
    });
    const d = data(
      [1, 2, 3, 4].map((k) => ({
        header: `docs: note ${k}`,
        verdicts: [pass('header')],
        trailers: `HestAI-Session: ${session(k)}\nHestAI-Anchor: sha256:${digest(k)}`,
      })),
      true,
      evidence,
      [run(1, 'passed'), run(2, 'passed'), run(4, 'failed')],
    );
    const html = renderHtml(d);
    const facts = (n: number) => new RegExp(`id="c-0{39}${n}"[^]*?<p class="facts">([^]*?)</p>`).exec(html)?.[1] ?? '';
    expect(facts(1)).toContain('GATE <code>npm test</code>: run by the protocol (WORK/tests, passed)');
    expect(facts(2)).toContain('GATE <code>make check</code>: not run by the protocol');
    expect(facts(3)).toContain('GATE <code>npm test</code>: no protocol run published for the session');
    expect(facts(4)).toContain('GATE <code>check:ci/build</code>: a named check, not a command the protocol runs');
    expect(d.commits.map((c) => c.gate?.ran)).toEqual(['passed', 'not run', 'no protocol run', 'named check']);
  });
});
