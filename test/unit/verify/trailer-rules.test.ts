import { describe, expect, it } from 'vitest';
import { commitFacts } from '../../../src/tdd/commit.js';
import { bypassLine, checkBypass, checkTrailers } from '../../../src/verify/trailer-rules.js';

const SESSION = '0b6c9d52-3f1e-4a7b-9c2d-8e5f6a7b8c9d';
const DIGEST = `sha256:${'0123456789abcdef'.repeat(4)}`;

const facts = (message: string, parents: string[] = ['p']) =>
  commitFacts({ sha: 'a'.repeat(40), message, files: [], parents }, () => false);
const withTrailers = (...lines: string[]) => facts(`feat: x\n\nbody\n\n${lines.join('\n')}`);

describe('checkTrailers', () => {
  it('passes a commit with a UUID v4 session and a full sha256 anchor digest, naming both', () => {
    const v = checkTrailers(withTrailers(`HestAI-Session: ${SESSION}`, `HestAI-Anchor: ${DIGEST}`), 'error');
    expect(v).toEqual({
      rule: 'trailers',
      status: 'pass',
      message: `session ${SESSION}, anchor ${DIGEST}`,
      clause: 'docs/design.md §7 (verify.trailers)',
    });
  });

  it('skips real merges', () => {
    expect(checkTrailers(facts("Merge branch 'x'", ['p', 'q']), 'error')).toEqual({
      rule: 'trailers',
      status: 'skip',
      message: 'merge commit: trailers not required',
      clause: 'docs/design.md §7 (verify.trailers)',
    });
  });

  it('names every missing trailer; the policy decides fail or warn', () => {
    const bare = facts('feat: x');
    const error = checkTrailers(bare, 'error');
    expect(error.status).toBe('fail');
    expect(error.message).toBe(
      'no HestAI-Session trailer; no HestAI-Anchor trailer: the commit was not made through the hestai hooks by an anchored session (verify.trailers: error)',
    );
    const warn = checkTrailers(bare, 'warn');
    expect(warn.status).toBe('warn');
    expect(warn.message).toMatch(/\(verify\.trailers: warn\)$/);
  });

  it('reports only the trailer that is missing', () => {
    expect(checkTrailers(withTrailers(`HestAI-Session: ${SESSION}`), 'error').message).toMatch(
      /^no HestAI-Anchor trailer: /,
    );
    expect(checkTrailers(withTrailers(`HestAI-Anchor: ${DIGEST}`), 'error').message).toMatch(
      /^no HestAI-Session trailer: /,
    );
  });

  it.each([
    ['not a uuid', 'not-a-uuid'],
    ['a UUID v1', '0b6c9d52-3f1e-1a7b-9c2d-8e5f6a7b8c9d'],
    ['upper-case hex', '0B6C9D52-3F1E-4A7B-9C2D-8E5F6A7B8C9D'],
    ['a uuid with a suffix', `${SESSION}x`],
  ])('refuses a HestAI-Session that is %s', (_, session) => {
    const v = checkTrailers(withTrailers(`HestAI-Session: ${session}`, `HestAI-Anchor: ${DIGEST}`), 'error');
    expect(v.status).toBe('fail');
    expect(v.message).toMatch(new RegExp(`^HestAI-Session "${session}" is not a session id \\(UUID v4\\): `));
  });

  it.each([
    ['a short digest', `sha256:${'a'.repeat(15)}`],
    ['63 hex characters', `sha256:${'a'.repeat(63)}`],
    ['65 hex characters', `sha256:${'a'.repeat(65)}`],
    ['no algorithm prefix', 'a'.repeat(64)],
    ['another algorithm', `sha1:${'a'.repeat(64)}`],
    ['upper-case hex', `sha256:${'A'.repeat(64)}`],
    ['text before the prefix', `xsha256:${'a'.repeat(64)}`],
  ])('refuses a HestAI-Anchor with %s', (_, anchor) => {
    const v = checkTrailers(withTrailers(`HestAI-Session: ${SESSION}`, `HestAI-Anchor: ${anchor}`), 'warn');
    expect(v.status).toBe('warn');
    expect(v.message).toMatch(/^HestAI-Anchor "[^"]+" is not sha256:<64 hex>: /);
  });

  it('judges the last of repeated trailers', () => {
    const v = checkTrailers(
      withTrailers(`HestAI-Session: ${SESSION}`, 'HestAI-Anchor: sha256:bad', `HestAI-Anchor: ${DIGEST}`),
      'error',
    );
    expect(v.status).toBe('pass');
  });
});

describe('checkBypass', () => {
  it('is null without a bypass trailer or line', () => {
    expect(checkBypass(facts('feat: x'), 'error')).toBeNull();
    expect(checkBypass(facts('feat: x'), 'error', 'feat: x\n\nno bypass here')).toBeNull();
  });

  it('lists a HestAI-Bypass trailer with its reason, as a warning or an error per verify.bypass', () => {
    const commit = withTrailers('HestAI-Bypass: prod is down');
    expect(checkBypass(commit, 'warn')).toMatchObject({
      rule: 'bypass',
      status: 'warn',
      message: 'the hooks were bypassed: "prod is down" (verify.bypass: warn)',
    });
    expect(checkBypass(commit, 'error')?.status).toBe('fail');
  });

  it('finds a bypass line in the raw message when the trailer block does not show it', () => {
    const message = 'feat: x\n\nHestAI-Bypass: hotfix\n\nmore text after it';
    expect(checkBypass(facts(message), 'error')).toBeNull();
    expect(checkBypass(facts(message), 'error', message)?.message).toBe(
      'the hooks were bypassed: "hotfix" (verify.bypass: error)',
    );
  });
});

describe('bypassLine', () => {
  it('takes the trimmed reason of the first HestAI-Bypass line anywhere, at the start of a line, any case', () => {
    expect(bypassLine('feat: x\n\nHestAI-Bypass:   ci is broken  \n')).toBe('ci is broken');
    expect(bypassLine('feat: x\n\nhestai-bypass:\tlower')).toBe('lower');
    expect(bypassLine('feat: x\n\nHestAI-Bypass:hotfix now')).toBe('hotfix now');
    expect(bypassLine('feat: x\n\n  HestAI-Bypass: indented')).toBeNull();
    expect(bypassLine('feat: x\n\nsee HestAI-Bypass: quoted')).toBeNull();
  });

  it('an empty reason still counts, as "(no reason)"', () => {
    expect(bypassLine('feat: x\n\nHestAI-Bypass:')).toBe('(no reason)');
    expect(bypassLine('feat: x\n\nHestAI-Bypass:   ')).toBe('(no reason)');
  });
});
