import { describe, expect, it } from 'vitest';
import { evaluateGate } from '../../../src/protocol/evaluate.js';
import { evidenceWordingProblem, type EvidenceRecord } from '../../../src/protocol/evidence.js';
import { emptyFacts } from '../../../src/protocol/facts-types.js';
import type { Gate } from '../../../src/protocol/types.js';

const STEP = 'Read .agents/HANDOFF.md';
const gate: Gate = {
  id: 'handoff',
  step: STEP,
  level: 'MUST',
  blocking: true,
  pre_commit: true,
  check: {
    type: 'evidence',
    accepts: ['tool_output', 'manual', 'file_path', 'commit_sha', 'content_hash'],
    path: 'HANDOFF.md',
  },
};
const ev = (value: string, type: EvidenceRecord['type'] = 'manual'): EvidenceRecord => ({
  phase: 'P',
  step: 'handoff',
  type,
  value,
  recorded_at: '2026-01-01T00:00:00.000Z',
});
const facts = () => emptyFacts('s', '2026-01-01T00:00:00.000Z', null);

describe('evidence quality (lessons from the field)', () => {
  it.each([
    'TODO',
    'todo: fill in later',
    'pending',
    'Pending.',
    'TBD',
    'N/A',
    'n/a',
    'NA',
    'none',
    '-',
    '...',
    'WIP',
    'not done',
    'to be determined',
  ])('"%s" does not satisfy a MUST gate', (value) => {
    expect(evidenceWordingProblem(value, STEP)).not.toBeNull();
    expect(evaluateGate('P', gate, facts(), [ev(value)]).status).toBe('FAIL');
  });

  it.each(['Read .agents/HANDOFF.md', 'read HANDOFF.md', 'HANDOFF.md read', 'Read agents handoff md'])(
    '"%s" only repeats the step and does not satisfy it',
    (value) => {
      const problem = evidenceWordingProblem(value, STEP);
      expect(problem).toContain('only repeats the step');
      expect(evaluateGate('P', gate, facts(), [ev(value, 'tool_output')]).status).toBe('FAIL');
    },
  );

  it.each(['done', 'x', 'ok', 'OK!', 'yes', 'fixed', 'Done.', 'checked', 'looks good', 'all fine'])(
    '"%s" says nothing specific: below the documented minimum (two words, ten letters or digits)',
    (value) => {
      const problem = evidenceWordingProblem(value, STEP);
      expect(problem).toContain('too short');
      for (const type of ['manual', 'tool_output'] as const)
        expect(evaluateGate('P', gate, facts(), [ev(value, type)]).status).toBe('FAIL');
    },
  );

  it('accepts short evidence that still names what was observed', () => {
    expect(evidenceWordingProblem('On branch feat/x, clean', STEP)).toBeNull();
    expect(evidenceWordingProblem('epic 183 open', STEP)).toBeNull();
  });

  it('accepts evidence that says what was observed', () => {
    const value = 'HANDOFF.md: epic #183 in progress, PR 42 awaiting review';
    expect(evidenceWordingProblem(value, STEP)).toBeNull();
    expect(evaluateGate('P', gate, facts(), [ev(value)])).toMatchObject({ status: 'PASS', evidence: value });
  });

  it('a later placeholder does not erase earlier good evidence, and the newest good record is shown', () => {
    const result = evaluateGate('P', gate, facts(), [ev('observed epic 183 open'), ev('TODO')]);
    expect(result).toMatchObject({ status: 'PASS', evidence: 'observed epic 183 open' });
  });

  it('no evidence is PENDING, evidence for another gate does not count', () => {
    expect(evaluateGate('P', gate, facts(), []).status).toBe('PENDING');
    expect(evaluateGate('P', gate, facts(), [{ ...ev('observed 183'), step: 'other' }]).status).toBe('PENDING');
  });

  it('checks typed evidence against the facts: file_path exists, commit_sha names a commit, content_hash matches', () => {
    const f = facts();
    f.evidence_files['docs/log.md'] = true;
    f.evidence_files['missing.md'] = false;
    f.evidence_commits['abc1234'] = 'abc1234'.padEnd(40, '0');
    f.evidence_commits['deadbee'] = null;
    const hash = 'a'.repeat(64);
    f.hashes['HANDOFF.md'] = hash;
    const paths: Gate = { ...gate, check: { type: 'evidence', accepts: ['file_path'], path: 'docs/*.md' } };
    expect(evaluateGate('P', paths, f, [ev('docs/log.md', 'file_path')]).status).toBe('PASS');
    expect(evaluateGate('P', paths, f, [ev('missing.md', 'file_path')]).message).toContain('does not match docs/*.md');
    expect(
      evaluateGate('P', { ...paths, check: { type: 'evidence', accepts: ['file_path'] } }, f, [
        ev('missing.md', 'file_path'),
      ]).message,
    ).toContain('does not exist');
    expect(evaluateGate('P', paths, f, [ev('../../etc/passwd', 'file_path')]).message).toContain('not a path inside');
    expect(evaluateGate('P', gate, f, [ev('abc1234', 'commit_sha')]).status).toBe('PASS');
    expect(evaluateGate('P', gate, f, [ev('deadbee', 'commit_sha')]).message).toContain('names no commit');
    expect(evaluateGate('P', gate, f, [ev(`sha256:${hash}`, 'content_hash')]).status).toBe('PASS');
    expect(evaluateGate('P', gate, f, [ev('b'.repeat(64), 'content_hash')]).message).toContain('does not match');
  });

  it('refuses evidence of a type the gate does not accept', () => {
    const narrow: Gate = { ...gate, check: { type: 'evidence', accepts: ['content_hash'], path: 'HANDOFF.md' } };
    expect(evaluateGate('P', narrow, facts(), [ev('I read it carefully: epic 183')]).message).toContain(
      'does not satisfy this gate',
    );
  });
});

describe('git_state: recorded git output is compared with git itself', () => {
  const HEAD = 'abc1234def5678901234567890abcdef12345678';
  const gitGate: Gate = {
    id: 'git_state',
    step: 'Document the git state (branch, status, last commit)',
    level: 'SHOULD',
    blocking: false,
    pre_commit: true,
    check: { type: 'git_state' },
  };
  const withHead = (branch: string | null) => ({ ...facts(), head: { branch, sha: HEAD } });
  const out = (value: string): EvidenceRecord => ({ ...ev(value, 'tool_output'), step: 'git_state' });

  it('passes when the output names the current branch and HEAD', () => {
    const r = evaluateGate('P', gitGate, withHead('feat/x'), [out('## feat/x\nabc1234 feat: the thing')]);
    expect(r).toMatchObject({ status: 'PASS' });
  });

  it.each([
    ['any tool output', 'git status: all good here'],
    ['another branch', '## main\nabc1234 feat: the thing'],
    ['another commit', '## feat/x\n9999999 feat: the thing'],
  ])('fails for %s', (_, value) => {
    const r = evaluateGate('P', gitGate, withHead('feat/x'), [out(value)]);
    expect(r.status).toBe('FAIL');
    expect(r.message).toContain('feat/x');
    expect(r.message).toContain('abc1234');
  });

  it('is PENDING without output, and unknown git is a FAIL, never a pass', () => {
    expect(evaluateGate('P', gitGate, withHead('feat/x'), []).status).toBe('PENDING');
    expect(evaluateGate('P', gitGate, facts(), [out('## feat/x\nabc1234 x')]).status).toBe('FAIL');
  });
});
