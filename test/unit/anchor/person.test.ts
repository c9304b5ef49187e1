import { describe, expect, it } from 'vitest';
import {
  blankComments,
  draftPayload,
  isEmptyPayload,
  rebasePath,
  rebasePayload,
  splitPayload,
  withErrors,
} from '../../../src/anchor/person.js';
import type { CtxProbe } from '../../../src/anchor/rules/types.js';
import { validateVector } from '../../../src/anchor/validate.js';

// Issue 41, item 1: the one payload a person edits. Pure rules: comments, the split into stage payloads,
// paths taken from the shell's directory, the draft.

const FILES: Record<string, number> = { 'greet.js': 3, 'test/old.test.js': 5, README: 2 };
const probe: CtxProbe = (p) =>
  p in FILES ? { kind: 'file', lines: FILES[p]! } : p === 'test' ? { kind: 'dir' } : { kind: 'missing' };

describe('rebasePath / rebasePayload', () => {
  it('takes a path from the shell directory to the root; absolute and escaping paths stay for the rules to refuse', () => {
    expect(rebasePath('old.test.js', 'test')).toBe('test/old.test.js');
    expect(rebasePath('../greet.js', 'test')).toBe('greet.js');
    expect(rebasePath('./x/', 'test')).toBe('test/x/');
    expect(rebasePath('.', 'test')).toBe('test');
    expect(rebasePath('../../etc/passwd', 'test')).toBe('../../etc/passwd');
    expect(rebasePath('/etc/passwd', 'test')).toBe('/etc/passwd');
    expect(rebasePath('greet.js', '')).toBe('greet.js');
  });

  it('rewrites CTX paths (keeping line citations) and the ARTIFACT path of every form, nothing else', () => {
    const text = [
      'ROLE::implementation-lead',
      'L1::[A_RULE]<->CTX:old.test.js:1-2[s]->TRIGGER[t]',
      'L2::[B_RULE]⇌CTX:../greet.js#L1-L2[s]→TRIGGER[t]',
      'L3::[C_RULE]<->CTX:old.test.js:L3[s]->TRIGGER[t]',
      'ARTIFACT::greet.test.js > greets > by name',
      'GATE::./run.sh',
    ].join('\n');
    const out = rebasePayload(text, 'test').split('\n');
    expect(out[1]).toBe('L1::[A_RULE]<->CTX:test/old.test.js:1-2[s]->TRIGGER[t]');
    expect(out[2]).toBe('L2::[B_RULE]⇌CTX:greet.js#L1-L2[s]→TRIGGER[t]');
    expect(out[3]).toBe('L3::[C_RULE]<->CTX:test/old.test.js:L3[s]->TRIGGER[t]');
    expect(out[4]).toBe('ARTIFACT::test/greet.test.js > greets > by name');
    expect(out[5]).toBe('GATE::./run.sh');
    expect(rebasePayload('ARTIFACT::parseVector', 'test')).toBe('ARTIFACT::parseVector');
    expect(rebasePayload('ARTIFACT::x.py::test_y', 'test')).toBe('ARTIFACT::test/x.py::test_y');
  });
});

describe('comments, emptiness and the split', () => {
  const edited = ['# a comment', '## BIND', 'ROLE::r', '#', '## TENSION', 'L1::x', '## COMMIT', 'GATE::npm test'].join(
    '\n',
  );

  it('blanks comment lines, never section headers, so line numbers stay the file’s', () => {
    expect(blankComments(edited).split('\n')).toEqual([
      '',
      '## BIND',
      'ROLE::r',
      '',
      '## TENSION',
      'L1::x',
      '## COMMIT',
      'GATE::npm test',
    ]);
  });

  it('splits BIND from TENSION and COMMIT, padding the proof so errors name the edited line', () => {
    const { bind, proof } = splitPayload(edited);
    expect(bind.split('\n')).toEqual(['', '## BIND', 'ROLE::r', '']);
    expect(proof.split('\n').indexOf('L1::x')).toBe(5);
  });

  it('a file of comments and headers alone is empty (the person aborted)', () => {
    expect(isEmptyPayload('# x\n## BIND\n\n## TENSION\n')).toBe(true);
    expect(isEmptyPayload(edited)).toBe(false);
  });

  it('errors go at the end as comments, replacing those of an earlier round', () => {
    const once = withErrors('ROLE::r\n', ['A: one']);
    const twice = withErrors(once, ['B: two']);
    expect(twice).not.toContain('A: one');
    expect(twice.startsWith('ROLE::r\n# hestai anchor --check found')).toBe(true);
    expect(blankComments(twice).trim()).toBe('ROLE::r');
  });
});

describe('draftPayload', () => {
  const draft = (base: string) =>
    draftPayload({
      role: 'implementation-lead',
      session_id: 'S',
      constitution_path: '.hestai-sys/agents/implementation-lead.oct.md',
      cognition: { type: 'LOGOS', archetypes: ['HEPHAESTUS', 'ATHENA'] },
      focus: 'greet',
      min: 2,
      citations: [
        { path: 'greet.js', from: 1, to: 3 },
        { path: 'test/old.test.js', from: 2, to: 2 },
        { path: 'README', from: 1, to: 2 },
      ],
      gate: 'npm test',
      base,
    });

  it('drafts ROLE, the constitution’s COGNITION, AUTHORITY from the focus, CTX lines in ASCII and GATE', () => {
    const text = draft('');
    expect(text).toMatch(/^ROLE::implementation-lead$/m);
    expect(text).toMatch(/^COGNITION::LOGOS::HEPHAESTUS\+ATHENA$/m);
    expect(text).toMatch(/^AUTHORITY::RESPONSIBLE\[greet\]$/m);
    expect(text).toMatch(/^L1::\[\{[^}]+\}\]<->CTX:greet\.js:1-3\[\{[^}]+\}\]->TRIGGER\[\{[^}]+\}\]$/m);
    expect(text).toMatch(/^L2::.*CTX:test\/old\.test\.js:2\[/m);
    expect(text).toMatch(/^#\s+CTX:README:1-2$/m);
    expect(text).toMatch(/^GATE::npm test$/m);
    expect(text).not.toMatch(/[⇌→⊕]/);
  });

  it('written from test/, its paths are the shell’s; filled in and rebased, it passes the rules', () => {
    const text = draft('test');
    expect(text).toMatch(/CTX:\.\.\/greet\.js:1-3/);
    expect(text).toMatch(/CTX:old\.test\.js:2/);
    const filled = rebasePayload(
      text
        .replaceAll('{the rule you keep here}', 'GREET_STAYS_PURE')
        .replaceAll('{what these lines show}', 'the code')
        .replaceAll('{what you will do}', 'test it first')
        .replace('{a path, a test or a symbol}', 'greet.test.js'),
      'test',
    );
    const { bind, proof } = splitPayload(filled);
    const options = { role: 'implementation-lead', strictness: 'default' as const, probe };
    const cognition = { type: 'LOGOS', archetypes: ['HEPHAESTUS', 'ATHENA'] };
    expect(validateVector(bind, { ...options, part: 'bind', cognition }).errors).toEqual([]);
    const v = validateVector(proof, { ...options, part: 'proof' });
    expect(v.errors).toEqual([]);
    expect(v.commit?.artifact).toBe('test/greet.test.js');
  });

  it('as drafted (placeholders left), it fails the rules: nothing passes unread', () => {
    const { bind, proof } = splitPayload(draft(''));
    const options = { role: 'implementation-lead', strictness: 'default' as const, probe };
    expect(validateVector(bind, { ...options, part: 'bind' }).ok).toBe(true);
    expect(validateVector(proof, { ...options, part: 'proof' }).errors.join('\n')).toMatch(
      /TENSION_GENERIC_CONSTRAINT[\s\S]*COMMIT_ARTIFACT/,
    );
  });
});
