import { describe, expect, it } from 'vitest';
import { appendTrailers, lastTrailer, parseTrailers } from '../../../src/tdd/trailers.js';
import { scissorsLine } from '../../../src/tdd/message.js';

const ours = [
  { key: 'HestAI-Session', value: '6f1c2a8e-1b2c-4d3e-8f90-0a1b2c3d4e5f' },
  { key: 'HestAI-Anchor', value: 'sha256:0123456789abcdef' },
];

describe('parseTrailers', () => {
  it('reads the last paragraph when every line is a trailer', () => {
    const message = 'feat: x\n\nbody text\n\nSigned-off-by: A <a@b>\nTDD-Exempt: generated code\n  continued';
    expect(parseTrailers(message)).toEqual([
      { key: 'Signed-off-by', value: 'A <a@b>' },
      { key: 'TDD-Exempt', value: 'generated code continued' },
    ]);
  });

  it('finds none when the last paragraph is prose or the only paragraph', () => {
    expect(parseTrailers('feat: x\n\nSee: this is prose\nand more prose')).toEqual([]);
    expect(parseTrailers('Fixes: something')).toEqual([]);
    expect(parseTrailers('feat: x')).toEqual([]);
    expect(parseTrailers('')).toEqual([]);
  });

  it('rejects keys with spaces', () => {
    expect(parseTrailers('feat: x\n\nNot A Key: value')).toEqual([]);
  });

  it('lastTrailer is case-insensitive and returns the last value', () => {
    const trailers = parseTrailers('feat: x\n\nhestai-bypass: one\nHestAI-Bypass: two');
    expect(lastTrailer(trailers, 'HestAI-Bypass')).toBe('two');
    expect(lastTrailer(trailers, 'TDD-Exempt')).toBeNull();
  });
});

describe('appendTrailers', () => {
  it('adds a trailer paragraph after the body', () => {
    expect(appendTrailers('feat: x\n\nbody\n', ours)).toBe(
      'feat: x\n\nbody\n\nHestAI-Session: 6f1c2a8e-1b2c-4d3e-8f90-0a1b2c3d4e5f\nHestAI-Anchor: sha256:0123456789abcdef\n',
    );
    expect(appendTrailers('feat: x', ours.slice(0, 1))).toBe(
      'feat: x\n\nHestAI-Session: 6f1c2a8e-1b2c-4d3e-8f90-0a1b2c3d4e5f\n',
    );
  });

  it('joins an existing trailer block and replaces trailers with the same key', () => {
    const message = 'feat: x\n\nSigned-off-by: A <a@b>\nHestAI-Session: old\n';
    expect(appendTrailers(message, ours)).toBe(
      'feat: x\n\nSigned-off-by: A <a@b>\nHestAI-Session: 6f1c2a8e-1b2c-4d3e-8f90-0a1b2c3d4e5f\nHestAI-Anchor: sha256:0123456789abcdef\n',
    );
  });

  it('puts trailers before the trailing comment block and keeps the comments', () => {
    const raw = 'feat: x\n\n# Please enter the commit message\n# On branch main\n';
    expect(appendTrailers(raw, ours.slice(1))).toBe(
      'feat: x\n\nHestAI-Anchor: sha256:0123456789abcdef\n\n# Please enter the commit message\n# On branch main\n',
    );
  });

  it('puts trailers above a scissors line (git commit -v)', () => {
    const raw = `feat: x\n\n${scissorsLine('#')}\n# Do not modify the line above.\ndiff --git a/f b/f\n`;
    const out = appendTrailers(raw, ours.slice(1));
    expect(out.startsWith('feat: x\n\nHestAI-Anchor: sha256:0123456789abcdef\n\n# ------------------------ >8')).toBe(
      true,
    );
    expect(out.endsWith('diff --git a/f b/f\n')).toBe(true);
  });

  it('honours a custom comment character', () => {
    const raw = 'feat: x\n; comment\n';
    expect(appendTrailers(raw, ours.slice(1), { commentChar: ';' })).toBe(
      'feat: x\n\nHestAI-Anchor: sha256:0123456789abcdef\n\n; comment\n',
    );
  });

  it('leaves a message with no content alone (git will abort the empty commit)', () => {
    expect(appendTrailers('# only a comment\n', ours)).toBe('# only a comment\n');
    expect(appendTrailers('\n\n', ours)).toBe('\n\n');
  });

  it('is idempotent', () => {
    const once = appendTrailers('feat: x\n\nbody\n', ours);
    expect(appendTrailers(once, ours)).toBe(once);
  });

  it('round-trips through parseTrailers', () => {
    const out = appendTrailers('fix(a): y\n\nlong body\n\nmore body\n', [
      ...ours,
      { key: 'HestAI-Bypass', value: 'hotfix for prod' },
    ]);
    expect(parseTrailers(out.trimEnd())).toEqual([...ours, { key: 'HestAI-Bypass', value: 'hotfix for prod' }]);
  });
});

describe('parseTrailers: the trailer block as git reads it', () => {
  it('a separator of optional spaces or tabs after the colon; values trimmed', () => {
    expect(parseTrailers('feat: x\n\nA:b c\nB:\t d  ')).toEqual([
      { key: 'A', value: 'b c' },
      { key: 'B', value: 'd' },
    ]);
  });

  it('continuation lines join the previous trailer; a block cannot start with one', () => {
    expect(parseTrailers('feat: x\n\nA:\n  long\n\tvalue\nB: c')).toEqual([
      { key: 'A', value: 'long value' },
      { key: 'B', value: 'c' },
    ]);
    expect(parseTrailers('feat: x\n\n  indented: a\nB: c')).toEqual([]);
  });

  it('paragraphs are split at blank or whitespace-only lines; trailing blank lines do not matter', () => {
    expect(parseTrailers('feat: x\n \t\nA: b')).toEqual([{ key: 'A', value: 'b' }]);
    expect(parseTrailers('feat: x\n\nA: b\n\n\n')).toEqual([{ key: 'A', value: 'b' }]);
  });

  it('paragraphs of comment lines after the block (cleanup verbatim) are not the block', () => {
    expect(parseTrailers('feat: x\n\nA: b\n\n# comment\n#\n\n# more')).toEqual([{ key: 'A', value: 'b' }]);
    expect(parseTrailers('# only\n\n# comments')).toEqual([]);
  });
});

describe('appendTrailers: into the block git will see', () => {
  const t = [{ key: 'T', value: 'v' }];

  it('a header paragraph is never the trailer block, even when its second line looks like a trailer', () => {
    expect(appendTrailers('feat: x\nA: b\n', t)).toBe('feat: x\nA: b\n\nT: v\n');
  });

  it('comment lines inside the block are kept above it, and the block is joined', () => {
    expect(appendTrailers('feat: x\n\nA: b\n# note\nC: d\n', t)).toBe('feat: x\n\n# note\nA: b\nC: d\nT: v\n');
  });

  it('the existing trailers are rewritten without trailing whitespace, continuations joined', () => {
    expect(appendTrailers('feat: x\n\nA: b  \nC: long\n  value\n', t)).toBe('feat: x\n\nA: b\nC: long value\nT: v\n');
  });

  it("one blank line between the new paragraph and git's comments, never two", () => {
    expect(appendTrailers('feat: x\n\nbody\n\n# c\n', t)).toBe('feat: x\n\nbody\n\nT: v\n\n# c\n');
    expect(appendTrailers('feat: x\n\nbody\n# c\n', t)).toBe('feat: x\n\nbody\n\nT: v\n\n# c\n');
  });
});

describe('appendTrailers: a trailer added beside others of its key (Assisted-by)', () => {
  const assisted = { key: 'Assisted-by', value: 'claude-code:opus', add: true as const };

  it("keeps a person's other Assisted-by lines and adds ours once", () => {
    expect(appendTrailers('feat: x\n\nAssisted-by: coccinelle\n', [assisted])).toBe(
      'feat: x\n\nAssisted-by: coccinelle\nAssisted-by: claude-code:opus\n',
    );
  });

  it('adds nothing when the block already has the same line, whatever the case of its key', () => {
    expect(appendTrailers('feat: x\n\nassisted-by: claude-code:opus\n', [...ours, assisted])).toBe(
      `feat: x\n\nassisted-by: claude-code:opus\nHestAI-Session: ${ours[0]!.value}\nHestAI-Anchor: ${ours[1]!.value}\n`,
    );
  });
});
