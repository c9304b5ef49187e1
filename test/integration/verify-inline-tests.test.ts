import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';

interface Report {
  commits: { header: string; verdicts: { rule: string; status: string; message: string }[] }[];
}
const testFirst = (report: Report, header: string) =>
  report.commits.find((c) => c.header === header)?.verdicts.find((v) => v.rule === 'test-first');

const LIB = (test: string, body: string) =>
  `pub fn parse(s: &str) -> u32 {\n    ${body}\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn parses() {\n        ${test}\n    }\n}\n`;

describe('Rust inline test modules count as tests (tdd.inline_tests)', () => {
  it('a test commit that changes only a #[cfg(test)] module pairs with the feat after it; a code-only change is no test', () => {
    const repo = makeRepo();
    repo.commit('chore: config', {
      '.hestai_workspace.yaml': 'verify:\n  trailers: off\n  anchors: off\n',
      'src/parser.rs': LIB('assert_eq!(parse("a"), 1);', 's.len() as u32'),
    });
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.commit('test(parser): counts characters', {
      'src/parser.rs': LIB('assert_eq!(parse("é"), 1);', 's.len() as u32'),
    });
    repo.commit('feat(parser): counts characters', {
      'src/parser.rs': LIB('assert_eq!(parse("é"), 1);', 's.chars().count() as u32'),
    });
    repo.commit('test(parser): not a test', {
      'src/parser.rs': LIB('assert_eq!(parse("é"), 1);', 's.chars().count() as u32 + 0'),
    });
    const result = repo.hestai(['verify', '--format', 'json']);
    const report = JSON.parse(result.stdout) as Report;
    expect(testFirst(report, 'test(parser): counts characters')?.status).toBe('pass');
    expect(testFirst(report, 'feat(parser): counts characters')?.status).toBe('pass');
    expect(testFirst(report, 'test(parser): not a test')?.status).toBe('warn');
    expect(result.status).toBe(0);
  });

  it('tdd.policy same-commit: a feat changing a function and its inline test in one file passes', () => {
    const repo = makeRepo();
    repo.commit('chore: config', {
      '.hestai_workspace.yaml': 'tdd:\n  policy: same-commit\nverify:\n  trailers: off\n  anchors: off\n',
      'src/parser.rs': LIB('assert_eq!(parse("a"), 1);', 's.len() as u32'),
    });
    const from = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    repo.commit('feat(parser): counts characters (#3)', {
      'src/parser.rs': LIB('assert_eq!(parse("é"), 1);', 's.chars().count() as u32'),
    });
    repo.commit('feat(parser): no test (#4)', {
      'src/parser.rs': LIB('assert_eq!(parse("é"), 1);', 's.chars().count() as u32 + 0'),
    });
    const report = JSON.parse(repo.hestai(['verify', '--format', 'json', '--from', from]).stdout) as Report;
    expect(testFirst(report, 'feat(parser): counts characters (#3)')?.status).toBe('pass');
    expect(testFirst(report, 'feat(parser): no test (#4)')?.status).toBe('fail');
  });
});
