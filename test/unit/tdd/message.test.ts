import { describe, expect, it } from 'vitest';
import {
  autoCommentChar,
  cleanMessage,
  isCommentLine,
  messageHeader,
  scissorsLine,
  stripsComments,
} from '../../../src/tdd/message.js';
import { appendTrailers } from '../../../src/tdd/trailers.js';

const template = [
  'feat(cli): add verify',
  '',
  'Body line.',
  '# Please enter the commit message for your changes. Lines starting',
  "# with '#' will be ignored, and an empty message aborts the commit.",
  '#',
  '# On branch main',
  '',
].join('\n');

describe('cleanMessage', () => {
  it("strips comment lines and surrounding blank lines (git's default cleanup)", () => {
    expect(cleanMessage(template)).toBe('feat(cli): add verify\n\nBody line.');
  });

  it('honours core.commentChar', () => {
    const text = '; a comment\nfix: x\n# not a comment with ;\n; trailing';
    expect(cleanMessage(text, { commentChar: ';' })).toBe('fix: x\n# not a comment with ;');
  });

  it('cuts at the scissors line, keeping what is above it', () => {
    const text = `feat: x\n\nbody\n${scissorsLine('#')}\ndiff --git a/x b/x\n+feat: fake header\n`;
    expect(cleanMessage(text, { cleanup: 'scissors' })).toBe('feat: x\n\nbody');
    expect(cleanMessage(text)).toBe('feat: x\n\nbody');
  });

  it('keeps comment lines under cleanup verbatim and whitespace', () => {
    expect(cleanMessage('#123 fix: x\n', { cleanup: 'whitespace' })).toBe('#123 fix: x');
    expect(cleanMessage('# c\nfix: x\n', { cleanup: 'verbatim' })).toBe('# c\nfix: x');
  });

  it('collapses runs of blank lines and trailing whitespace', () => {
    expect(cleanMessage('\n\nfeat: x   \n\n\n\nbody\t\n\n')).toBe('feat: x\n\nbody');
  });

  it('handles CRLF line endings', () => {
    expect(cleanMessage('feat: x\r\n\r\nbody\r\n# c\r\n')).toBe('feat: x\n\nbody');
  });

  it('returns an empty string for a message of only comments', () => {
    expect(cleanMessage('# only\n#\n\n')).toBe('');
  });
});

describe('messageHeader', () => {
  it('is the first line of the cleaned message', () => {
    expect(messageHeader('feat: a\n\nb')).toBe('feat: a');
    expect(messageHeader('')).toBe('');
  });
});

describe('which lines git keeps', () => {
  it('comment lines go only under cleanup strip (an editor, or commit.cleanup strip)', () => {
    expect(stripsComments({})).toBe(true);
    expect(stripsComments({ cleanup: 'strip', editor: false })).toBe(true);
    expect(stripsComments({ editor: false })).toBe(false);
    expect(stripsComments({ cleanup: 'whitespace' })).toBe(false);
    expect(isCommentLine('# x', {})).toBe(true);
    expect(isCommentLine('# x', { editor: false })).toBe(false);
    expect(isCommentLine('; x', { commentChar: ';' })).toBe(true);
    expect(isCommentLine('x #', {})).toBe(false);
  });

  it('without an editor a "#" line is content, so new trailers go below it', () => {
    expect(appendTrailers('feat: x\n\n#42 is fixed\n', [{ key: 'A', value: 'b' }], { editor: false })).toBe(
      'feat: x\n\n#42 is fixed\n\nA: b\n',
    );
  });

  it('a scissors line at the very start cuts everything', () => {
    expect(cleanMessage(`${scissorsLine('#')}\nfeat: x\n`)).toBe('');
  });

  it('cleanup whitespace keeps every line that is not blank, whatever it starts with', () => {
    expect(cleanMessage('fix: x\n\nnull values are kept\n# and comments\n', { editor: false })).toBe(
      'fix: x\n\nnull values are kept\n# and comments',
    );
  });

  it('cleanup verbatim keeps every byte but the final newlines', () => {
    expect(cleanMessage('feat: x  \n\n\n# c \n\n\n', { cleanup: 'verbatim' })).toBe('feat: x  \n\n\n# c ');
    expect(cleanMessage('feat: x  ', { cleanup: 'verbatim' })).toBe('feat: x  ');
  });
});

describe('core.commentChar auto', () => {
  it('without an editor: the first candidate no line starts with, after LF or CR; "#" when all are taken', () => {
    expect(autoCommentChar('', false)).toBe('#');
    expect(autoCommentChar('fix: x # y ; z', false)).toBe('#');
    expect(autoCommentChar('fix: x\r# y', false)).toBe(';');
    expect(autoCommentChar('#\n;\n@\n!\n$\n%\n^\n&\n|\n:', false)).toBe('#');
  });

  it('with an editor: "#" when it is free; else the last line\'s character if git could have chosen it', () => {
    expect(autoCommentChar('fix: x', true)).toBe('#');
    expect(autoCommentChar('#1\n;2\n@3\n\n; Please enter the commit message\n;\n', true)).toBe(';');
    expect(autoCommentChar('#1\n;2\n@3\n\n; Please enter the commit message\n\n  \n', true)).toBe(';');
  });

  it('with an editor: the last candidate git could have chosen when the last line starts otherwise', () => {
    expect(autoCommentChar('# a\n! b', true)).toBe('#');
    expect(autoCommentChar('#1\n;2\n@3\n\nfoo', true)).toBe('@');
  });
});
