/** COMMIT rules: a concrete ARTIFACT and a non-empty GATE. Pure. */
import { ABSTRACT_ARTIFACTS, isPlaceholder } from '../constants.js';
import { entry, type VectorSection } from '../vector.js';
import type { Violation } from './types.js';

export interface CommitFacts {
  artifact: string;
  gate: string;
}

function commit(rule: string, message: string, fix: string, line?: number): Violation {
  return {
    rule,
    section: 'COMMIT',
    message: line === undefined ? message : `line ${line}: ${message}`,
    fix,
    ...(line === undefined ? {} : { line }),
  };
}

/** True when an artifact names the conversation (`my response`, `the answer`) or a placeholder. */
export function isAbstractArtifact(value: string): boolean {
  if (isPlaceholder(value)) return true;
  const words = value
    .toLowerCase()
    .replace(/[^a-z\s]/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '' && !['my', 'the', 'a', 'an', 'this', 'final', 'agent', 'full'].includes(w));
  return (
    words.length > 0 && words.length <= 2 && words.every((w) => (ABSTRACT_ARTIFACTS as readonly string[]).includes(w))
  );
}

/** Validates COMMIT; returns the facts when it passes. */
export function checkCommit(section: VectorSection | undefined): {
  violations: Violation[];
  facts: CommitFacts | null;
} {
  if (section === undefined) return { violations: [], facts: null };
  const out: Violation[] = [];
  const artifact = entry(section, 'ARTIFACT');
  const gate = entry(section, 'GATE');
  const artifactFix =
    'Name a concrete file or tool output that will exist when you are done, e.g. "ARTIFACT::src/session/clock-in.ts".';
  if (artifact === undefined || artifact.value === '') {
    out.push(
      commit(
        'COMMIT_ARTIFACT_MISSING',
        artifact === undefined ? 'ARTIFACT is missing' : 'ARTIFACT is empty',
        artifactFix,
        artifact?.line,
      ),
    );
  } else if (isAbstractArtifact(artifact.value)) {
    out.push(
      commit('COMMIT_ARTIFACT_ABSTRACT', `ARTIFACT "${artifact.value}" is not concrete`, artifactFix, artifact.line),
    );
  }
  const gateFix =
    'Name the check that proves the artifact, e.g. "GATE::npm test" or "GATE::npx vitest run test/unit/clock-in.test.ts".';
  if (gate === undefined || gate.value === '') {
    out.push(
      commit('COMMIT_GATE_MISSING', gate === undefined ? 'GATE is missing' : 'GATE is empty', gateFix, gate?.line),
    );
  } else if (isPlaceholder(gate.value)) {
    out.push(commit('COMMIT_GATE_MISSING', `GATE "${gate.value}" is a placeholder`, gateFix, gate.line));
  }
  for (const stray of section.stray) {
    out.push(
      commit(
        'COMMIT_FORMAT',
        `${JSON.stringify(stray.text.trim().slice(0, 60))} is not ARTIFACT::... or GATE::...`,
        'COMMIT holds two lines: ARTIFACT::path and GATE::check.',
        stray.line,
      ),
    );
  }
  const facts = out.length === 0 && artifact && gate ? { artifact: artifact.value, gate: gate.value } : null;
  return { violations: out, facts };
}
