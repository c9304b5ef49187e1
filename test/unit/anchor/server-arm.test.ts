import { describe, expect, it } from 'vitest';
import { armFrom, phaseFrom } from '../../../src/anchor/server-arm.js';
import { countLines } from '../../../src/anchor/ctx-probe.js';

const SHA = 'a'.repeat(40);

describe('server ARM', () => {
  it('reads PHASE from PROJECT-CONTEXT (quotes and comments allowed), UNKNOWN when absent', () => {
    expect(phaseFrom('===P===\nMETA:\n  TYPE::X\nPHASE::B1\n===END===')).toBe('B1');
    expect(phaseFrom('PHASE::"B2 build" // current\n')).toBe('B2 build');
    expect(phaseFrom('NAME::x\n')).toBe('UNKNOWN');
    expect(phaseFrom(null)).toBe('UNKNOWN');
  });

  it("counts changes without the tool's own runtime state, tracked changes first, and hashes the whole context", () => {
    const status = {
      head: SHA,
      branch: null,
      upstream: null,
      ahead: null,
      behind: null,
      entries: [
        { code: '??', path: 'a-new.ts' },
        { code: '??', path: '.hestai/sessions/active/x/session.json' },
        { code: '??', path: '.hestai/audit/audit.jsonl' },
        { code: '!!', path: 'dist/x.js' },
        { code: '.M', path: 'z-changed.ts' },
      ],
    };
    const arm = armFrom(status, 'PHASE::B1', '  multi\nline focus ');
    expect(arm).toMatchObject({
      phase: 'B1',
      branch: 'DETACHED@aaaaaaa',
      ahead: 0,
      behind: 0,
      files_count: 2,
      top_files: ['z-changed.ts', 'a-new.ts'],
      focus: 'multi line focus',
    });
    expect(arm.context_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(armFrom(status, 'PHASE::B1', 'multi line focus').context_hash).toBe(arm.context_hash);
    expect(armFrom(status, 'PHASE::B2', 'multi line focus').context_hash).not.toBe(arm.context_hash);
  });

  it('counts lines like an editor does', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(countLines(enc(''))).toBe(0);
    expect(countLines(enc('a'))).toBe(1);
    expect(countLines(enc('a\n'))).toBe(1);
    expect(countLines(enc('a\nb'))).toBe(2);
    expect(countLines(enc('a\n\n'))).toBe(2);
  });
});
