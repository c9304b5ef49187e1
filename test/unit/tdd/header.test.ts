import { describe, expect, it } from 'vitest';
import { parseConventionalHeader } from '../../../src/tdd/header.js';

describe('parseConventionalHeader', () => {
  it('parses type, scope, breaking mark and subject', () => {
    expect(parseConventionalHeader('feat(cli): add --json')).toEqual({
      type: 'feat',
      rawType: 'feat',
      scope: 'cli',
      breaking: false,
      subject: 'add --json',
    });
    expect(parseConventionalHeader('fix: handle empty input')).toEqual({
      type: 'fix',
      rawType: 'fix',
      scope: null,
      breaking: false,
      subject: 'handle empty input',
    });
    expect(parseConventionalHeader('feat(api)!: drop v1')).toEqual({
      type: 'feat',
      rawType: 'feat',
      scope: 'api',
      breaking: true,
      subject: 'drop v1',
    });
    expect(parseConventionalHeader('refactor!: rename')).toEqual({
      type: 'refactor',
      rawType: 'refactor',
      scope: null,
      breaking: true,
      subject: 'rename',
    });
    expect(parseConventionalHeader('test(git-repo): a, b')).toEqual({
      type: 'test',
      rawType: 'test',
      scope: 'git-repo',
      breaking: false,
      subject: 'a, b',
    });
  });

  it('accepts scopes with commas, slashes and dots', () => {
    expect(parseConventionalHeader('feat(hooks/commit-msg,tdd): x')?.scope).toBe('hooks/commit-msg,tdd');
    expect(parseConventionalHeader('chore(deps.dev): bump')?.scope).toBe('deps.dev');
  });

  it('rejects headers that are not Conventional Commits', () => {
    for (const header of [
      '',
      'add a feature',
      'feat add a feature',
      'feat:add',
      'feat: ',
      'feat():  x',
      'feat(cli) : space before colon',
      'feat((x)): nested',
      ' feat: leading space',
      'feat(a)(b): two scopes',
      'Merge branch "x"',
    ]) {
      expect(parseConventionalHeader(header), header).toBeNull();
    }
  });

  it('trims trailing whitespace of the subject', () => {
    expect(parseConventionalHeader('docs: readme   ')?.subject).toBe('readme');
  });
});
