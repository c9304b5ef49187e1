import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../../src/protocol/evaluate.js';
import { evaluateGate } from '../../../src/protocol/evaluate.js';
import { emptyFacts } from '../../../src/protocol/facts-types.js';
import { applyAdvance, blockedReason, decideAdvance, phasesToPass } from '../../../src/protocol/machine.js';
import type { ProtocolState } from '../../../src/protocol/store.js';
import type { Protocol } from '../../../src/protocol/types.js';

const protocol: Protocol = {
  version: 1,
  phases: [
    {
      id: 'A',
      title: 'A',
      stage: 'start',
      gates: [
        {
          id: 'must',
          step: 'must step',
          level: 'MUST',
          blocking: true,
          pre_commit: true,
          check: { type: 'anchor_valid' },
        },
        {
          id: 'should',
          step: 'should step',
          level: 'SHOULD',
          blocking: false,
          pre_commit: true,
          check: { type: 'git_clean' },
        },
      ],
    },
    {
      id: 'B',
      title: 'B',
      stage: 'work',
      gates: [
        { id: 'b', step: 'b step', level: 'MUST', blocking: true, pre_commit: true, check: { type: 'context_fresh' } },
      ],
    },
    { id: 'C', title: 'C', stage: 'end', gates: [] },
  ],
};

const state = (over: Partial<ProtocolState> = {}): ProtocolState => ({
  version: 1,
  session_id: '11111111-1111-4111-8111-111111111111',
  objective: 'o',
  branch: 'feat',
  starting_commit: null,
  started_at: '2026-01-01T00:00:00.000Z',
  protocol_sha256: 'x',
  protocol_text: 'x',
  events: [{ type: 'start', at: '2026-01-01T00:00:00.000Z', phase: 'A' }],
  current_phase: 'A',
  phases_completed: [],
  results: {},
  evidence: [],
  forced_advances: 0,
  violations: [],
  ...over,
});

const result = (
  phase: string,
  gate: string,
  status: GateResult['status'],
  blocking = true,
  level: GateResult['requirement_level'] = 'MUST',
): GateResult => ({
  phase,
  gate,
  step: `${gate} step`,
  requirement_level: level,
  status,
  evidence: null,
  blocking,
  message: `${gate} is ${status}`,
});

const advance = (
  results: GateResult[],
  over: { force?: boolean; forceLimit?: number; st?: ProtocolState; target?: string } = {},
) => {
  const st = over.st ?? state();
  const plan = phasesToPass(protocol, st.current_phase, over.target);
  if (!plan.ok) throw new Error(plan.reason);
  return decideAdvance({
    state: st,
    phases: plan.phases,
    target: plan.target,
    results,
    force: over.force ?? false,
    forceLimit: over.forceLimit ?? 3,
    now: 'T',
    recovery: (r) => `fix ${r.gate}`,
  });
};

describe('advance_phase decisions', () => {
  it('refuses past an unmet blocking gate and names it', () => {
    const d = advance([result('A', 'must', 'FAIL'), result('A', 'should', 'PASS', false, 'SHOULD')]);
    expect(d).toMatchObject({ success: false, current_phase: 'A', blocked_by: ['A/must'], violations: [] });
  });

  it('advances with a warning when only a non-blocking gate fails', () => {
    const d = advance([result('A', 'must', 'PASS'), result('A', 'should', 'FAIL', false, 'SHOULD')]);
    expect(d).toMatchObject({ success: true, current_phase: 'B', blocked_by: [] });
    expect(d.warnings).toEqual([expect.stringContaining('A/should (SHOULD) unmet')]);
  });

  it('a PENDING blocking gate blocks too (no evidence is not a pass)', () => {
    expect(advance([result('A', 'must', 'PENDING')]).success).toBe(false);
  });

  it('refuses a target_phase that would skip a blocking gate', () => {
    const d = advance([result('A', 'must', 'PASS'), result('B', 'b', 'FAIL')], { target: 'C' });
    expect(d).toMatchObject({ success: false, blocked_by: ['B/b'] });
    expect(phasesToPass(protocol, 'A', 'C')).toMatchObject({ ok: true, target: 'C' });
    expect(phasesToPass(protocol, 'B', 'A')).toMatchObject({ ok: false });
    expect(phasesToPass(protocol, 'A', 'NOPE')).toMatchObject({ ok: false });
  });

  it('force advances, returns one violation per skipped requirement, and counts against the limit', () => {
    const d = advance([result('A', 'must', 'FAIL'), result('B', 'b', 'PENDING')], { force: true, target: 'C' });
    expect(d.success).toBe(true);
    expect(d.violations.map((v) => [v.phase, v.severity, v.recovery])).toEqual([
      ['A', 'CRITICAL', 'fix must'],
      ['B', 'CRITICAL', 'fix b'],
    ]);
    const plan = phasesToPass(protocol, 'A', 'C');
    const next = applyAdvance(state(), d, plan.ok ? plan.phases : []);
    expect(next).toMatchObject({ current_phase: 'C', phases_completed: ['A', 'B'], forced_advances: 1 });
    expect(next.violations).toHaveLength(2);
  });

  it('enforces the force limit', () => {
    const d = advance([result('A', 'must', 'FAIL')], { force: true, forceLimit: 1, st: state({ forced_advances: 1 }) });
    expect(d.success).toBe(false);
    expect(d.refused).toContain('force limit');
    expect(advance([result('A', 'must', 'FAIL')], { force: true, forceLimit: 0 }).success).toBe(false);
  });

  it('get_blocked_reason suggests tool calls for MCP and commands for the CLI; empty when nothing blocks', () => {
    const facts = emptyFacts('11111111-1111-4111-8111-111111111111', 'T', null);
    facts.anchor = { valid: false, reason: 'no anchor' };
    const results = [evaluateGate('A', protocol.phases[0]!.gates[0]!, facts, [])];
    const mcp = blockedReason(protocol, state(), results, 'mcp', { role: 'dev' });
    expect(mcp).toMatchObject({
      is_blocked: true,
      blocked_phases: [{ phase: 'A', gate: 'must', requirement_level: 'MUST', reason: 'no anchor' }],
    });
    expect(mcp.suggested_actions[0]).toMatch(/^anchor\(\{"stage":"identity"/);
    const cli = blockedReason(protocol, state(), results, 'cli', { role: 'dev' });
    expect(cli.suggested_actions[0]).toMatch(/^hestai anchor --stage identity --role dev/);
    facts.anchor = { valid: true, reason: 'ok' };
    const none = blockedReason(
      protocol,
      state(),
      [evaluateGate('A', protocol.phases[0]!.gates[0]!, facts, [])],
      'mcp',
      {},
    );
    expect(none).toMatchObject({ is_blocked: false, blocked_phases: [], suggested_actions: [] });
  });
});
