import { describe, expect, it } from 'vitest';
import { blockedError, usageError } from '../../src/errors.js';
import { gateDecision } from '../../src/mcp/gate.js';
import { errorResult, okResult } from '../../src/mcp/result.js';
import { violationKind } from '../../src/mcp/violation-kind.js';

describe('MCP results', () => {
  it('returns structured content with a readable text', () => {
    const result = okResult({ unlocked: true }, 'session abc: unlocked');
    expect(result).toEqual({
      content: [{ type: 'text', text: 'session abc: unlocked' }],
      structuredContent: { unlocked: true },
    });
    expect(result.isError).toBeUndefined();
  });

  it('maps a HestaiError to an isError result with the same message, details and remedy as the CLI', () => {
    const error = usageError('invalid workspace config /r/.hestai_workspace.yaml (1 problem)', {
      code: 'CONFIG_INVALID',
      file: '/r/.hestai_workspace.yaml',
      details: ['/r/.hestai_workspace.yaml:3:1: tdd.polcy: unknown key (did you mean "policy"?)'],
      remedy: 'Fix the keys listed above.',
    });
    const result = errorResult(error);
    expect(result.isError).toBe(true);
    // No structuredContent: it could not match the tool's output schema (issue 14, item 3).
    expect(result.structuredContent).toBeUndefined();
    expect(result.content[0]!.text).toBe(
      'hestai: invalid workspace config /r/.hestai_workspace.yaml (1 problem)\n' +
        '  - /r/.hestai_workspace.yaml:3:1: tdd.polcy: unknown key (did you mean "policy"?)\n' +
        'hint: Fix the keys listed above.\n' +
        'code: CONFIG_INVALID',
    );
  });

  it('maps an unexpected exception to an isError result with its message and logs the stack', () => {
    const logged: string[] = [];
    const result = errorResult(new TypeError('cannot read properties of undefined'), (line) => logged.push(line));
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content[0]!.text).toMatch(/\ncode: INTERNAL$/);
    expect(result.content[0]!.text).toMatch(/^hestai: internal error: cannot read properties of undefined/);
    expect(logged.join('\n')).toContain('TypeError');
  });

  it('names the code of a blocked error', () => {
    expect(errorResult(blockedError('nope')).content[0]!.text).toBe('hestai: nope\ncode: BLOCKED');
  });
});

describe('gateDecision (seed 001: privileged tools stay locked until anchor.json is valid)', () => {
  const id = '6f1c7f9e-8c1d-4c2e-9a51-2b0d6c1e7a10';

  it('unlocks only when the session verdict allows', () => {
    const decision = gateDecision(id, { ok: true, ageHours: 1 });
    expect(decision).toMatchObject({ unlocked: true, code: 'UNLOCKED', remedy: null });
  });

  it('words an expired anchor, a stale context and a protocol not started with their own codes and remedies', () => {
    const expired = gateDecision(id, {
      ok: false,
      code: 'NO_ANCHOR',
      anchor: { valid: false, code: 'EXPIRED', reason: 'it was validated 73 h ago' },
    });
    expect(expired).toMatchObject({ unlocked: false, code: 'EXPIRED' });
    expect(expired.remedy).toMatch(/older than anchor.valid_hours/);
    const stale = gateDecision(id, { ok: false, code: 'STALE', ageHours: 25, limitHours: 24 });
    expect(stale).toMatchObject({ unlocked: false, code: 'STALE' });
    expect(stale.remedy).toContain(`hestai refresh --session ${id}`);
    const protocol = gateDecision(id, {
      ok: false,
      code: 'PROTOCOL',
      protocol: { ok: false, code: 'NOT_STARTED', reason: 'not started', unmet: [], remedy: 'x' },
    });
    expect(protocol).toMatchObject({ unlocked: false, code: 'NOT_STARTED', reason: 'not started' });
    expect(protocol.remedy).toMatch(/session_start/);
  });

  it.each([
    ['NO_SESSION', /clock_in/],
    ['NO_ANCHOR', /anchor.*identity.*context.*proof/],
    ['TAMPERED', /anchor reset/],
    ['CORRUPT', /anchor reset|clock_in/],
    ['SESSION_CLOSED', /clock_in/],
    ['INVALID_TOKEN', /session_id/],
  ] as const)('stays locked for %s and says what to do', (code, remedy) => {
    const decision = gateDecision(id, {
      ok: false,
      code: 'NO_ANCHOR',
      anchor: { valid: false, code, reason: `because ${code}` },
    });
    expect(decision.unlocked).toBe(false);
    expect(decision.code).toBe(code);
    expect(decision.reason).toBe(`session ${id} has no valid anchor: because ${code}`);
    expect(decision.remedy).toMatch(remedy);
    expect(decision.remedy).toMatch(/untracked/);
  });
});

describe('violationKind: which audit events hestai://audit reports', () => {
  it.each([
    ['bypass', 'bypass'],
    ['commit_bypass', 'bypass'],
    ['stale_acknowledged', 'acknowledgment'],
    ['ack', 'acknowledgment'],
    ['took_over', 'takeover'],
    ['taken_over', 'takeover'],
    ['session_takeover', 'takeover'],
    ['anchor_reset', 'reset'],
    ['tdd_violation', 'violation'],
    ['forced_advance', 'violation'],
  ])('%s is a %s', (event, kind) => {
    expect(violationKind(event)).toBe(kind);
  });

  it.each(['clock_in', 'clock_out', 'anchor_validated', 'track', 'stack_refresh'])('%s is routine', (event) => {
    expect(violationKind(event)).toBeNull();
  });
});
