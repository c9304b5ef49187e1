import { describe, expect, it } from 'vitest';
import { cleanMessage, messageHeader, scissorsLine } from '../../../src/tdd/message.js';

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
