import { describe, expect, it } from 'vitest';
import { headerProblem, parseConventionalHeader } from '../../../src/tdd/header.js';

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

describe('parseConventionalHeader: the edges of the grammar', () => {
  it('a type starts with a letter and holds letters, digits and hyphens', () => {
    expect(parseConventionalHeader('build2-ci: x')).toMatchObject({ type: 'build2-ci', rawType: 'build2-ci' });
    expect(parseConventionalHeader('FEAT: x')).toMatchObject({ type: 'feat', rawType: 'FEAT' });
    for (const header of ['2feat: x', '-feat: x', 'fe_at: x', 'fe at: x', 'feat.x: y']) {
      expect(parseConventionalHeader(header), header).toBeNull();
    }
  });

  it('a scope may hold spaces inside, is trimmed, and must hold something visible', () => {
    expect(parseConventionalHeader('feat( cli ): x')?.scope).toBe('cli');
    expect(parseConventionalHeader('feat(a b): x')?.scope).toBe('a b');
    expect(parseConventionalHeader('feat(x)!: y')).toMatchObject({ scope: 'x', breaking: true });
    for (const header of ['feat(): x', 'feat(   ): x', 'feat(\t): x', 'feat(a\rb): x', 'feat(a)b: x']) {
      expect(parseConventionalHeader(header), header).toBeNull();
    }
  });

  it('the whole string must be one header line: text before the type or a second line is not a header', () => {
    expect(parseConventionalHeader('feat: a\nb')).toBeNull();
    expect(parseConventionalHeader('xx feat: a')).toBeNull();
    expect(parseConventionalHeader('feat!!: a')).toBeNull();
  });

  it('keeps the subject as written apart from trailing whitespace', () => {
    expect(parseConventionalHeader('fix: a  b\t')?.subject).toBe('a  b');
    expect(parseConventionalHeader('fix: !')?.subject).toBe('!');
  });
});

describe('headerProblem: what is wrong with a header that is not a Conventional Commit, and the clause', () => {
  it.each([
    ['', 'the header (first line) is empty', 'CC 1.0.0 §1'],
    [
      '\uFEFFfeat: x',
      'the header starts with a byte order mark (U+FEFF), which git stores; parsers then see no type',
      'CC 1.0.0 §1',
    ],
    [' feat: x', 'the header starts with whitespace, which git stores; parsers then see no type', 'CC 1.0.0 §1'],
    ['\tfeat: x', 'the header starts with whitespace, which git stores; parsers then see no type', 'CC 1.0.0 §1'],
    ['feat(): x', 'the scope is empty', 'CC 1.0.0 §4'],
    ['feat(  )!: x', 'the scope is empty', 'CC 1.0.0 §4'],
    ['Fix-2(): x', 'the scope is empty', 'CC 1.0.0 §4'],
    ['feat:', 'the description after ": " is empty', 'CC 1.0.0 §5'],
    ['feat(cli)!:   ', 'the description after ": " is empty', 'CC 1.0.0 §5'],
    ['feat: \t', 'the description after ": " is empty', 'CC 1.0.0 §5'],
    ['feat:add', 'the colon is not followed by one space', 'CC 1.0.0 §1'],
    ['feat(cli)!:add', 'the colon is not followed by one space', 'CC 1.0.0 §1'],
    ['feat:\tadd', 'the colon is not followed by one space', 'CC 1.0.0 §1'],
    ['feat:  add', 'the description must follow ": " immediately', 'CC 1.0.0 §5'],
    ['feat(x)!: \tadd', 'the description must follow ": " immediately', 'CC 1.0.0 §5'],
    ['feat(cli):  add', 'the description must follow ": " immediately', 'CC 1.0.0 §5'],
    ['add a feature', 'it has no "type: " prefix', 'CC 1.0.0 §1'],
    ['feat(cli) : x', 'it has no "type: " prefix', 'CC 1.0.0 §1'],
    ['see feat(): x', 'it has no "type: " prefix', 'CC 1.0.0 §1'],
    ['see feat:', 'it has no "type: " prefix', 'CC 1.0.0 §1'],
    ['see feat:x', 'it has no "type: " prefix', 'CC 1.0.0 §1'],
    ['see feat:  x', 'it has no "type: " prefix', 'CC 1.0.0 §1'],
    ['1fix(): x', 'it has no "type: " prefix', 'CC 1.0.0 §1'],
    ['fix(a)(b):x', 'it has no "type: " prefix', 'CC 1.0.0 §1'],
  ])('%j: %s (%s)', (header, problem, clause) => {
    expect(parseConventionalHeader(header)).toBeNull();
    expect(headerProblem(header)).toEqual({ problem, clause });
  });
});

describe('headers with CR or U+2028', () => {
  it('a trailing CR (CRLF kept verbatim) ends the line; U+2028 inside the description is text', () => {
    expect(parseConventionalHeader('feat(cli): x\r')).toMatchObject({ type: 'feat', scope: 'cli', subject: 'x' });
    expect(parseConventionalHeader('docs: a\u2028b')).toMatchObject({ type: 'docs', subject: 'a\u2028b' });
  });
});
