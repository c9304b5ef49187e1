/**
 * Tests that languages keep inside source files (docs/enforcement.md, "Tests inside source files"): a
 * rule per language names the files (`files`, a glob) and the line that opens a test region (`start`, a
 * regular expression); the region is that line through the end of the first `{...}` block opened at or
 * after it. Rust's `#[cfg(test)] mod tests { ... }` and `#[test] fn ... { ... }` are the default rule.
 * A changed line inside a region is a test change; one outside it, a code change. Pure.
 */
import { globToRegExp } from './glob.js';

export interface InlineTestRule {
  files: string;
  start: string;
}

export interface CompiledInlineRule {
  files: RegExp;
  start: RegExp;
}

export function compileInlineRules(rules: readonly InlineTestRule[]): CompiledInlineRule[] {
  return rules.map((r) => ({ files: globToRegExp(r.files), start: new RegExp(r.start) }));
}

/** The rule for a path, or null. */
export function inlineRuleFor(rules: readonly CompiledInlineRule[], path: string): CompiledInlineRule | null {
  return rules.find((r) => r.files.test(path)) ?? null;
}

/** Pure: the test regions of a source text, as 1-based inclusive line ranges. */
export function inlineTestRegions(text: string, start: RegExp): Array<[number, number]> {
  const lines = text.split('\n');
  const regions: Array<[number, number]> = [];
  for (let i = 0; i < lines.length; i++) {
    if (!start.test(lines[i]!)) continue;
    let depth = 0;
    let opened = false;
    let end = -1;
    for (let j = i; j < lines.length && end === -1; j++) {
      const line = lines[j]!.replace(/\/\/.*$/, '')
        .replace(/"(?:[^"\\]|\\.)*"/g, '""')
        .replace(/'(?:[^'\\]|\\.)'/g, "''");
      for (const ch of line) {
        if (ch === '{') {
          depth++;
          opened = true;
        } else if (ch === '}' && opened) {
          depth--;
          if (depth === 0) {
            end = j;
            break;
          }
        }
      }
      if (!opened && j > i && /;\s*$/.test(line)) break; // `#[cfg(test)] use x;`: no block
    }
    if (end === -1) end = opened ? lines.length - 1 : i;
    regions.push([i + 1, end + 1]);
    i = end;
  }
  return regions;
}

/**
 * Pure: what the hunks of one file change (`[newStart, newCount]` from `@@ -a,b +c,d @@`; a pure deletion
 * has count 0 and sits after line c): `test` (all inside regions), `code` (none), or `mixed`.
 */
export function classifyHunks(
  hunks: ReadonlyArray<readonly [number, number]>,
  regions: ReadonlyArray<readonly [number, number]>,
): 'test' | 'code' | 'mixed' | 'none' {
  let test = false;
  let code = false;
  const inside = (line: number) => regions.some(([a, b]) => line >= a && line <= b);
  for (const [startLine, count] of hunks) {
    const lines = count === 0 ? [Math.max(startLine, 1)] : Array.from({ length: count }, (_, k) => startLine + k);
    for (const l of lines) {
      if (inside(l)) test = true;
      else code = true;
    }
  }
  return test && code ? 'mixed' : test ? 'test' : code ? 'code' : 'none';
}
