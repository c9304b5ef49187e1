import type { ArmSnapshot } from '../../../src/records/anchor.js';
import type { CtxProbe, CtxTarget } from '../../../src/anchor/rules/types.js';

/**
 * A CTX probe over a fixed table, standing in for the working directory in pure rule tests (the real
 * probe over a real directory, symlinks included, is tested in the integration tests).
 */
export function tableProbe(table: Record<string, CtxTarget>): CtxProbe {
  return (p) => table[p] ?? { kind: 'missing' };
}

export const PROBE = tableProbe({
  'src/clock-in.ts': { kind: 'file', lines: 40 },
  'README.md': { kind: 'file', lines: 5 },
  'src/git/exec.ts': { kind: 'file', lines: 73 },
  src: { kind: 'dir' },
  'escape.ts': { kind: 'outside', target: '/etc/passwd' },
});

export const SERVER_ARM: ArmSnapshot = {
  phase: 'B1',
  branch: 'feat/clock-in',
  ahead: 2,
  behind: 0,
  files_count: 3,
  top_files: ['src/a.ts', 'src/b.ts', 'test/a.test.ts'],
  focus: 'implement clock_in',
  context_hash: 'ab'.repeat(32),
};

export const BIND = [
  '## BIND (Identity Lock)',
  'ROLE::implementation-lead',
  'COGNITION::LOGOS::ATHENA+HEPHAESTUS',
  'AUTHORITY::RESPONSIBLE[clock_in implementation]',
].join('\n');

export const ARM = [
  '## ARM (Context Proof - SERVER INJECTED)',
  'PHASE::B1',
  'BRANCH::feat/clock-in[2↑0↓]',
  'FILES::3[src/a.ts,src/b.ts,test/a.test.ts]',
  'FOCUS::implement clock_in',
].join('\n');

export const TENSION = [
  '## TENSION (Cognitive Proof - AGENT GENERATED)',
  'L1::[TDD_MANDATE]<->CTX:src/clock-in.ts:10-20[no failing test yet]->TRIGGER[write the failing test first]',
  'L2::[MINIMAL_INTERVENTION]⇌CTX:README.md:1-3[documents the CLI]→TRIGGER[keep the contract stable]',
  'L3::[ARGUMENT_ARRAYS_ONLY]⇌CTX:src/git/exec.ts:45[spawnSync with an argument list]→TRIGGER[add git calls there]',
].join('\n');

export const COMMIT = ['## COMMIT (Falsifiable Contract)', 'ARTIFACT::src/clock-in.ts', 'GATE::npm test'].join('\n');

export const VECTOR = ['===RAPH_VECTOR::v4.0===', BIND, ARM, TENSION, COMMIT, '===END_RAPH_VECTOR==='].join('\n');

/** The vector with one line replaced (matched by its start) or removed (`null`). */
export function replaceLine(text: string, startsWith: string, replacement: string | null): string {
  const lines = text.split('\n');
  const index = lines.findIndex((l) => l.startsWith(startsWith));
  if (index < 0) throw new Error(`no line starts with ${startsWith}`);
  if (replacement === null) lines.splice(index, 1);
  else lines[index] = replacement;
  return lines.join('\n');
}
