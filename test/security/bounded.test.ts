import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeCtxProbe, MAX_CTX_BYTES } from '../../src/anchor/ctx-probe.js';
import { validateVector } from '../../src/anchor/validate.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { seedSession } from '../helpers/session-fixture.js';
import { PROBE, VECTOR, replaceLine } from '../unit/anchor/fixtures.js';
import { hestai, noStack } from './helpers.js';

// Issue 12, item 4: bounded resources and clear errors. A CTX citation reads at most MAX_CTX_BYTES and
// never a FIFO or device; YAML is loaded with an alias limit; inputs echoed in errors are truncated; none
// of these is a stack trace, and each is exit 2 (usage/config) or 1 (validation).

const big = (dir: string, bytes: number) => {
  const file = path.join(dir, 'big.bin');
  fs.writeFileSync(file, '');
  fs.truncateSync(file, bytes); // sparse: no disk used
  return file;
};

const withCtx = (cited: string) =>
  replaceLine(VECTOR, 'L3::', `L3::[ARGUMENT_ARRAYS_ONLY]⇌CTX:${cited}[a huge file]→TRIGGER[cite it]`);

describe('bounded: CTX citations', () => {
  it('a CTX line range in a 3 GiB file is a validation error, not a RangeError', () => {
    const dir = tempDir();
    big(dir, 3 * 1024 ** 3);
    const real = makeCtxProbe(dir);
    const probe = (p: string) => (p === 'big.bin' ? real(p) : PROBE(p));
    const result = validateVector(withCtx('big.bin:1-2'), {
      role: 'implementation-lead',
      strictness: 'default',
      probe,
    });
    expect(result.ok).toBe(false);
    expect(result.errors.join('\n')).toMatch(/big\.bin.*larger than/);
  });

  it('a CTX range in a file just over the limit is refused without reading it whole', () => {
    const dir = tempDir();
    big(dir, MAX_CTX_BYTES + 1);
    expect(makeCtxProbe(dir)('big.bin')).toMatchObject({ kind: 'too_large' });
    big(dir, MAX_CTX_BYTES);
    expect(makeCtxProbe(dir)('big.bin')).toEqual({ kind: 'file', lines: 1 }); // zeros, no newline: one line
  });

  it('a CTX citation of a FIFO is refused at once and never opened', () => {
    const dir = tempDir();
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    const real = makeCtxProbe(dir);
    const probe = (p: string) => (p === 'pipe' ? real(p) : PROBE(p));
    const result = validateVector(withCtx('pipe'), { role: 'implementation-lead', strictness: 'default', probe });
    expect(result.ok).toBe(false);
    expect(result.errors.join('\n')).toMatch(/pipe.*not a regular file/);
  });
});

describe('bounded: YAML', () => {
  it('an alias bomb in .hestai_workspace.yaml is a config error (exit 2), not an internal error', () => {
    const repo = makeRepo();
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    repo.write('.hestai_workspace.yaml', `${lines.join('\n')}\n`);
    const result = hestai(repo, ['status']);
    noStack(result);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/\.hestai_workspace\.yaml/);
    expect(result.stderr).toMatch(/alias/i);
  });
});

describe('bounded: inputs echoed in errors are truncated', () => {
  const huge = 'x'.repeat(120_000); // near the kernel's limit for one argument (128 KiB)

  it('a 120 KB role', () => {
    const repo = makeRepo();
    const result = hestai(repo, ['clock-in', '--role', `A${huge}`]);
    noStack(result);
    expect(result.status).toBe(2);
    expect(result.stderr.length).toBeLessThan(4000);
    expect(result.stderr).toMatch(/characters/);
  });

  it('a 120 KB session id', () => {
    const repo = makeRepo();
    seedSession(repo.dir);
    const result = hestai(repo, ['clock-out', '--session', huge]);
    noStack(result);
    expect(result.status).toBe(2);
    expect(result.stderr.length).toBeLessThan(4000);
  });

  it('a 120 KB focus with a line break', () => {
    const repo = makeRepo();
    const result = hestai(repo, ['clock-in', '--role', 'implementation-lead', '--focus', `a\n${huge}`]);
    noStack(result);
    expect(result.status).toBe(2);
    expect(result.stderr.length).toBeLessThan(4000);
  });

  it('a 120 KB anchor token and a 120 KB HESTAI_SESSION in a hook', () => {
    const repo = makeRepo();
    const anchor = hestai(repo, ['anchor', '--stage', 'context', '--token', huge, '--payload-file', '-'], {}, 'x');
    noStack(anchor);
    expect(anchor.status).toBe(2);
    expect(anchor.stderr.length).toBeLessThan(4000);
    const status = hestai(repo, ['check', 'pre-commit'], { HESTAI_SESSION: huge });
    noStack(status);
    expect([1, 2]).toContain(status.status);
    expect(status.stderr.length).toBeLessThan(4000);
  });
});
