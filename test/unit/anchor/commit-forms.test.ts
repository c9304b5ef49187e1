import { describe, expect, it } from 'vitest';
import { commitProbePaths, isAbstractArtifact, parseArtifact, parseGate } from '../../../src/anchor/rules/commit.js';

// The COMMIT rule's readers of ARTIFACT and GATE, form by form (the rule itself is tested through
// validateVector in commit-rule.test.ts).

describe('isAbstractArtifact: the conversation itself, whatever filler words surround it', () => {
  it.each([
    'my response',
    'the answer',
    'a result',
    'an output',
    'this reply',
    'final answer',
    'agent output',
    'full response',
    'myResponse',
    'the_final_answer',
    'response output',
  ])('%s is abstract', (value) => {
    expect(isAbstractArtifact(value)).toBe(true);
  });

  it.each(['my parser', 'response parser', 'the answer to issue 12 in the docs', 'answer.ts', 'the', 'my the'])(
    '%s is not',
    (value) => {
      expect(isAbstractArtifact(value)).toBe(false);
    },
  );

  it('placeholders are abstract', () => {
    expect(isAbstractArtifact('TODO')).toBe(true);
    expect(isAbstractArtifact('{artifact}')).toBe(true);
  });
});

describe('parseArtifact', () => {
  it.each([
    ['src/a.ts', { form: 'path', path: 'src/a.ts' }],
    ['  src/a.ts  ', { form: 'path', path: 'src/a.ts' }],
    ['.env.example', { form: 'path', path: '.env.example' }],
    ['~/notes', { form: 'path', path: '~/notes' }],
    ['notes.md', { form: 'path', path: 'notes.md' }],
    ['test/a.test.ts > suite > case', { form: 'test', path: 'test/a.test.ts', name: 'suite > case' }],
    ['test/a.test.ts  >  case  ', { form: 'test', path: 'test/a.test.ts', name: 'case' }],
    ['tests/test_x.py::test_y', { form: 'test', path: 'tests/test_x.py', name: 'test_y' }],
    [
      'tests/test_x.py::TestX::test_y[case-1]',
      { form: 'test', path: 'tests/test_x.py', name: 'TestX::test_y[case-1]' },
    ],
    ['src/v.ts#parseVector', { form: 'symbol', path: 'src/v.ts', name: 'parseVector' }],
    ['src/v.ts#Vector.parse', { form: 'symbol', path: 'src/v.ts', name: 'Vector.parse' }],
    ['src/v.ts#parse()', { form: 'symbol', path: 'src/v.ts', name: 'parse()' }],
    ['parseVector', { form: 'symbol', path: null, name: 'parseVector' }],
    ['HTTPServer', { form: 'symbol', path: null, name: 'HTTPServer' }],
    ['parse_vector()', { form: 'symbol', path: null, name: 'parse_vector()' }],
    ['vector::parse', { form: 'symbol', path: null, name: 'vector::parse' }],
    ['Makefile', { form: 'word', path: 'Makefile' }],
    ['@scope+x', { form: 'word', path: '@scope+x' }],
  ])('%j', (value, form) => {
    expect(parseArtifact(value)).toEqual(form);
  });

  it.each([
    '',
    '   ',
    'TODO',
    'my response',
    'test/a.test.ts > TODO',
    'a test > case',
    'two words',
    'src/v.ts#not a symbol',
    'src/v.ts#1abc',
    'tests/x.py::not valid!',
    'what?',
  ])('%j names nothing', (value) => {
    expect(parseArtifact(value)).toEqual({ form: 'none' });
  });

  it('a "#" or "::" at the start is not a file separator', () => {
    expect(parseArtifact('#parse')).toEqual({ form: 'none' });
    expect(parseArtifact('::parse')).toEqual({ form: 'none' });
  });
});

describe('parseGate', () => {
  it.each([
    ['npm test', { form: 'runner', program: 'npm' }],
    ['`npm test`', { form: 'runner', program: 'npm' }],
    ['$ npm test', { form: 'runner', program: 'npm' }],
    ['` $ make check `', { form: 'runner', program: 'make' }],
    ['CI=1 NODE_ENV=test npm test', { form: 'runner', program: 'npm' }],
    ['EMPTY= pytest -q', { form: 'runner', program: 'pytest' }],
    ['/usr/bin/make test', { form: 'runner', program: '/usr/bin/make' }],
    ['./scripts/check.sh --all', { form: 'script', path: './scripts/check.sh' }],
    ['check.sh', { form: 'script', path: 'check.sh' }],
    ['check:ci/build', { form: 'check', name: 'ci/build' }],
    ['CHECK:review@team', { form: 'check', name: 'review@team' }],
  ])('%j', (value, form) => {
    expect(parseGate(value)).toEqual(form);
  });

  it.each([
    'looks good',
    '',
    'CI=1',
    'TODO',
    'check:',
    'check: ci',
    'check:a b',
    '`npm test',
    'npm`',
    '1x=1 npm test',
    'A=1 =2 npm',
  ])('%j is not a gate', (value) => {
    expect(parseGate(value)).toEqual({ form: 'none' });
  });
});

describe('commitProbePaths: every path the rule looks up', () => {
  it('a new file and its directory, relative, without ./ or a trailing slash', () => {
    expect(commitProbePaths('./src/new/x.ts', 'npm test')).toEqual(['src/new/x.ts', 'src/new']);
    // The paths git names in the recorded HEAD's tree (`<head>:src//x.ts` names nothing there).
    expect(commitProbePaths('.//src/new/x.ts', 'npm test')).toEqual(['src/new/x.ts', 'src/new']);
    expect(commitProbePaths('src//new/./x.ts', './/scripts//check.sh')).toEqual([
      'src/new/x.ts',
      'src/new',
      'scripts/check.sh',
    ]);
    expect(commitProbePaths('docs/', 'npm test')).toEqual(['docs']);
    expect(commitProbePaths('test/a.test.ts > case', 'npm test')).toEqual(['test/a.test.ts', 'test']);
  });

  it('a bare word is looked up alone; a symbol without a file, an absolute path or ".." not at all', () => {
    expect(commitProbePaths('Makefile', 'npm test')).toEqual(['Makefile']);
    expect(commitProbePaths('parseVector', 'npm test')).toEqual([]);
    expect(commitProbePaths('/etc/passwd', 'npm test')).toEqual([]);
    expect(commitProbePaths('src/../x.ts', 'npm test')).toEqual([]);
    expect(commitProbePaths('./', 'npm test')).toEqual([]);
  });

  it('a script gate is looked up too', () => {
    expect(commitProbePaths('src/a.ts', './scripts/check.sh')).toEqual(['src/a.ts', 'src', 'scripts/check.sh']);
    expect(commitProbePaths('src/a.ts', '/opt/check.sh')).toEqual(['src/a.ts', 'src']);
  });
});
