import { describe, expect, it } from 'vitest';
import { classifyHunks, inlineTestRegions } from '../../../src/tdd/inline-tests.js';
import { commitHunks, parseHunks } from '../../../src/git/hunks.js';
import { makeRepo } from '../../helpers/git-repo.js';
import { DEFAULTS } from '../../../src/config/defaults.js';

const rust = new RegExp(DEFAULTS.tdd.inline_tests[0]!.start);
const SOURCE = [
  'pub fn parse(s: &str) -> u32 {', // 1
  '    s.len() as u32 // { not a brace', // 2
  '}', // 3
  '', // 4
  '#[cfg(test)]', // 5
  'mod tests {', // 6
  '    use super::*;', // 7
  '    #[test]', // 8
  '    fn parses() {', // 9
  '        assert_eq!(parse("}"), 1);', // 10
  '    }', // 11
  '}', // 12
  '', // 13
  '#[tokio::test]', // 14
  'async fn later() {', // 15
  '}', // 16
].join('\n');

describe('inline tests (Rust by default)', () => {
  it('finds #[cfg(test)] modules and #[test] functions as line ranges, braces in strings and comments ignored', () => {
    expect(inlineTestRegions(SOURCE, rust)).toEqual([
      [5, 12],
      [14, 16],
    ]);
  });

  it('classifies a change inside a region as a test change, outside as code, both as mixed', () => {
    const regions = inlineTestRegions(SOURCE, rust);
    expect(classifyHunks([[10, 1]], regions)).toBe('test');
    expect(classifyHunks([[2, 1]], regions)).toBe('code');
    expect(
      classifyHunks(
        [
          [2, 1],
          [10, 1],
        ],
        regions,
      ),
    ).toBe('mixed');
    expect(classifyHunks([[11, 0]], regions)).toBe('test');
  });

  it('reads git show -U0 hunks per commit and file', () => {
    const out = [
      '\x01abc',
      'diff --git a/src/lib.rs b/src/lib.rs',
      '--- a/src/lib.rs',
      '+++ b/src/lib.rs',
      '@@ -9,0 +10 @@ fn x',
      '+    assert!(true);',
      '@@ -20,2 +21,3 @@',
      '\x01def',
      'diff --git a/src/gone.rs b/src/gone.rs',
      '+++ /dev/null',
      '@@ -1,3 +0,0 @@',
    ].join('\n');
    const hunks = parseHunks(out);
    expect(hunks.get('abc')?.get('src/lib.rs')).toEqual([
      [10, 1],
      [21, 3],
    ]);
    expect(hunks.get('def')?.size).toBe(0);
  });
});

describe('commitHunks over a real repository', () => {
  it('keys a path with a space as git names it (no trailing tab from the +++ line)', () => {
    const repo = makeRepo();
    repo.write('src/x y.rs', 'fn a() {}\n');
    repo.commit('feat: x y');
    const sha = repo.commit('test: inline', { 'src/x y.rs': 'fn a() {}\n#[cfg(test)]\nmod t {}\n' });
    const { hunks, content } = commitHunks(repo.dir, [sha], ['**/*.rs']);
    expect([...(hunks.get(sha)?.keys() ?? [])]).toEqual(['src/x y.rs']);
    expect(hunks.get(sha)?.get('src/x y.rs')).toEqual([[2, 2]]);
    expect(content.get(`${sha}:src/x y.rs`)).toContain('#[cfg(test)]');
  });
});
