// Docs the size of their peers (issue 38 item 5): README.md and bench/README.md at most 12 KB each, docs/ at
// most 120 KB in total, and an average sentence of at most 28 words in each of them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const KB = 1000;
const LIMITS = { readme: 12 * KB, docs: 120 * KB, bench: 12 * KB, wordsPerSentence: 28 };

/**
 * The sentences of a Markdown page, as a reader meets them in its prose. The definition:
 * - fenced code blocks, table rows (lines starting with `|`), HTML comments and headings are not prose: dropped;
 * - an inline code span counts as one word, a link as its text;
 * - the prose falls into blocks (paragraphs, list items, block quotes); a block ends a sentence;
 * - inside a block, a sentence ends at `.`, `!` or `?` followed by a space or a line end;
 * - a word is a whitespace-separated token holding a letter or a digit; a sentence without words is not one.
 */
export function sentences(markdown: string): string[][] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fenced = false;
  const flush = () => {
    if (current.length > 0) blocks.push(current.join(' '));
    current = [];
  };
  const text = markdown.replace(/<!--[\s\S]*?-->/g, '');
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      flush();
      continue;
    }
    if (fenced || /^\s*\|/.test(line) || /^\s*#{1,6}\s/.test(line) || line.trim() === '') {
      flush();
      continue;
    }
    if (/^\s*([-*+]|\d+[.)])\s/.test(line) || /^\s*>/.test(line)) flush();
    current.push(line.replace(/^\s*([-*+]|\d+[.)]|>)\s*/, ''));
  }
  flush();
  return blocks.flatMap((block) =>
    block
      .replace(/`[^`]*`/g, 'code')
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .split(/[.!?]+(?=\s|$)/)
      .map((sentence) => sentence.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)))
      .filter((words) => words.length > 0),
  );
}

/** Words per sentence on average (0 for a page without prose). */
export function averageSentence(markdown: string): number {
  const all = sentences(markdown);
  return all.length === 0 ? 0 : all.reduce((sum, s) => sum + s.length, 0) / all.length;
}

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const bytes = (file: string) => fs.statSync(path.join(ROOT, file)).size;
const docsPages = fs
  .readdirSync(path.join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);

describe('the sentence measure', () => {
  it('drops code, tables and headings, counts inline code as one word and ends a sentence at . ! ? or a block', () => {
    const page = [
      '# A heading is not a sentence',
      '',
      'Run `npx hestai verify --from main` in CI. It exits 1!',
      'Is that all?',
      '',
      '```sh',
      'npx hestai init. Not prose.',
      '```',
      '',
      '| a | b. c |',
      '| --- | --- |',
      '',
      '- one item without a stop',
      '- see [the guide](docs/cli.md), then e.g. v1.2 stays one word.',
    ].join('\n');
    expect(sentences(page)).toEqual([
      ['Run', 'code', 'in', 'CI'],
      ['It', 'exits', '1'],
      ['Is', 'that', 'all'],
      ['one', 'item', 'without', 'a', 'stop'],
      ['see', 'the', 'guide,', 'then', 'e.g'],
      ['v1.2', 'stays', 'one', 'word'],
    ]);
    expect(averageSentence(page)).toBe(24 / 6);
    expect(averageSentence('```\ncode only\n```\n')).toBe(0);
  });
});

describe('docs the size of their peers', () => {
  it(`README.md is at most ${LIMITS.readme} bytes`, () => {
    expect(bytes('README.md')).toBeLessThanOrEqual(LIMITS.readme);
  });

  it(`bench/README.md is at most ${LIMITS.bench} bytes`, () => {
    expect(bytes('bench/README.md')).toBeLessThanOrEqual(LIMITS.bench);
  });

  it(`docs/ is at most ${LIMITS.docs} bytes in total`, () => {
    const sizes = Object.fromEntries(docsPages.map((f) => [f, bytes(f)]));
    const total = Object.values(sizes).reduce((a, b) => a + b, 0);
    expect(total, JSON.stringify(sizes)).toBeLessThanOrEqual(LIMITS.docs);
  });

  it.each(['README.md', ...docsPages, 'bench/README.md'])(
    `%s: the average sentence has at most ${LIMITS.wordsPerSentence} words`,
    (file) => {
      expect(averageSentence(read(file))).toBeLessThanOrEqual(LIMITS.wordsPerSentence);
    },
  );
});
