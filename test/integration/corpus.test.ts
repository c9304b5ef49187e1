import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT, tempDir } from '../helpers/git-repo.js';
import { HISTORIES } from '../corpus/histories.js';

interface Entry {
  message: string;
  header: 'pass' | 'fail' | 'warn' | 'skip';
  clause: string;
  why: string;
}
interface Report {
  ok: boolean;
  commits: {
    sha: string;
    header: string;
    verdicts: { rule: string; status: string; message: string; clause?: string }[];
  }[];
}
const CORPUS = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'test/corpus/messages.json'), 'utf8')) as Entry[];

describe('the message corpus through real git and hestai verify', () => {
  it(`stores all ${CORPUS.length} messages byte for byte and verify gives each the expected header verdict and clause`, () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(150);
    for (const status of ['pass', 'fail', 'skip'])
      expect(CORPUS.filter((e) => e.header === status).length, status).toBeGreaterThan(10);
    const repo = makeRepo();
    repo.write('.hestai_workspace.yaml', 'verify:\n  trailers: off\n  anchors: off\n');
    repo.commit('chore: config');
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    // The messages are a branch's commits (fixup!/squash!/amend! are judged only once they reach the default
    // branch, where verify warns about them: test/unit/tdd/header-rule.test.ts).
    repo.git(['checkout', '-q', '-b', 'corpus']);
    const dir = tempDir('hestai-corpus-');
    const bySha = new Map<string, Entry>();
    CORPUS.forEach((entry, i) => {
      const file = path.join(dir, `m${i}`);
      fs.writeFileSync(file, entry.message);
      repo.git([
        'commit',
        '-q',
        '--no-verify',
        '--allow-empty',
        '--allow-empty-message',
        '--cleanup=verbatim',
        '-F',
        file,
      ]);
      bySha.set(repo.git(['rev-parse', 'HEAD']).stdout.trim(), entry);
    });
    const result = repo.hestai(['verify', '--from', base, '--format', 'json']);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.commits).toHaveLength(CORPUS.length);
    for (const c of report.commits) {
      const entry = bySha.get(c.sha)!;
      const header = c.verdicts.find((v) => v.rule === 'header')!;
      expect(header.status, `${JSON.stringify(entry.message)}: ${entry.why}: ${header.message}`).toBe(entry.header);
      expect(header.clause, JSON.stringify(entry.message)).toBeTruthy();
      if (entry.header === 'fail' || entry.header === 'pass')
        expect(header.clause, JSON.stringify(entry.message)).toBe(
          entry.clause.startsWith('CC 1.0.0 §15') ? 'CC 1.0.0 §1' : entry.clause,
        );
    }
  }, 120_000);
});

describe('history fixtures built by script', () => {
  for (const fixture of HISTORIES) {
    it(`${fixture.name}: every expected verdict, with the test commit each feat is paired with`, () => {
      const repo = makeRepo();
      repo.write('.hestai_workspace.yaml', 'verify:\n  trailers: off\n  anchors: off\n');
      repo.commit('chore: config');
      const { base, expected } = fixture.build(repo);
      const report = JSON.parse(repo.hestai(['verify', '--from', base, '--format', 'json']).stdout) as Report;
      for (const [header, want] of Object.entries(expected)) {
        const commit = report.commits.find((c) => c.header === header);
        expect(commit, `${fixture.name}: ${header} in the range`).toBeTruthy();
        const verdict = (rule: string) => commit!.verdicts.find((v) => v.rule === rule)!;
        if (want.header)
          expect(verdict('header').status, `${header} header (${want.clause}): ${verdict('header').message}`).toBe(
            want.header,
          );
        if (want.testFirst)
          expect(
            verdict('test-first').status,
            `${header} test-first (${want.clause}): ${verdict('test-first').message}`,
          ).toBe(want.testFirst);
        if (want.pairedWith) expect(verdict('test-first').message).toContain(`"${want.pairedWith}"`);
        for (const v of commit!.verdicts) expect(v.clause, `${header} ${v.rule}`).toBeTruthy();
      }
    }, 60_000);
  }
});
