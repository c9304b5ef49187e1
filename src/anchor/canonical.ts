/** Renders the canonical RAPH vector v4.0 and its section templates. Pure. */
import { SECTION_TITLES, VECTOR_CLOSE, VECTOR_OPEN, type SectionName } from './constants.js';
import type { ArmSnapshot } from '../records/anchor.js';
import { renderBranch } from './rules/arm.js';
import type { BindFacts } from './rules/bind.js';
import type { CommitFacts } from './rules/commit.js';
import { renderTension, type TensionFacts } from './rules/tension.js';

export function header(name: SectionName): string {
  return `## ${name} (${SECTION_TITLES[name]})`;
}

/** The server-authoritative ARM as a `## ARM` section. */
export function renderArm(arm: ArmSnapshot): string {
  return [
    header('ARM'),
    `PHASE::${arm.phase}`,
    `BRANCH::${renderBranch(arm)}`,
    `FILES::${arm.files_count}[${arm.top_files.join(',')}]`,
    `FOCUS::${arm.focus}`,
    `CONTEXT_HASH::sha256:${arm.context_hash.slice(0, 16)}`,
  ].join('\n');
}

export function renderBind(b: BindFacts): string {
  return [header('BIND'), `ROLE::${b.role}`, `COGNITION::${b.cognition}`, `AUTHORITY::${b.authority}`].join('\n');
}

export function renderTensions(tensions: readonly TensionFacts[]): string {
  return [header('TENSION'), ...tensions.map(renderTension)].join('\n');
}

export function renderCommit(c: CommitFacts): string {
  return [header('COMMIT'), `ARTIFACT::${c.artifact}`, `GATE::${c.gate}`].join('\n');
}

/** The canonical anchor: validated BIND, the server's ARM, validated TENSION and COMMIT, Unicode operators. */
export function renderCanonicalAnchor(
  bind: BindFacts,
  arm: ArmSnapshot,
  tensions: readonly TensionFacts[],
  commit: CommitFacts,
): string {
  return [
    VECTOR_OPEN,
    renderBind(bind),
    renderArm(arm),
    renderTensions(tensions),
    renderCommit(commit),
    VECTOR_CLOSE,
  ].join('\n');
}

export const COGNITION_PLACEHOLDER = '{ETHOS|LOGOS|PATHOS}::{ARCHETYPE[⊕ARCHETYPE]}';
export const TENSION_PLACEHOLDER = (n: number): string =>
  `L${n}::[{specific constraint}]⇌CTX:{path}:{A-B}[{what that code shows}]→TRIGGER[{what you will do}]`;

/** The BIND template the identity stage returns (and the base of corrected BIND templates). */
export function bindTemplate(role: string, keep: Partial<Pick<BindFacts, 'cognition' | 'authority'>> = {}): string {
  return [
    header('BIND'),
    `ROLE::${role}`,
    `COGNITION::${keep.cognition ?? COGNITION_PLACEHOLDER}`,
    `AUTHORITY::${keep.authority ?? 'RESPONSIBLE[{scope you own}]'}`,
  ].join('\n');
}

/** The TENSION template: kept lines first, placeholders up to `min`. */
export function tensionTemplate(min: number, keep: readonly string[] = []): string {
  const lines = [...keep];
  for (let n = lines.length + 1; lines.length < min; n++) lines.push(TENSION_PLACEHOLDER(n));
  return [header('TENSION'), ...lines].join('\n');
}

export function commitTemplate(keep: Partial<CommitFacts> = {}): string {
  return [
    header('COMMIT'),
    `ARTIFACT::${keep.artifact ?? '{a path, a test or a symbol, e.g. src/feature.ts}'}`,
    `GATE::${keep.gate ?? '{a command or a named check, e.g. npm test or check:ci/build}'}`,
  ].join('\n');
}

/** The proof-stage payload template (TENSION and COMMIT). */
export function proofTemplate(min: number): string {
  return `${tensionTemplate(min)}\n${commitTemplate()}`;
}

/** The whole-vector template with the server's ARM filled in. */
export function vectorTemplate(role: string, min: number, arm: ArmSnapshot | null): string {
  const armText =
    arm === null
      ? [
          header('ARM'),
          'PHASE::{phase}',
          'BRANCH::{name}[{ahead}↑{behind}↓]',
          'FILES::{count}[{top files}]',
          'FOCUS::{focus}',
        ].join('\n')
      : renderArm(arm);
  return [VECTOR_OPEN, bindTemplate(role), armText, tensionTemplate(min), commitTemplate(), VECTOR_CLOSE].join('\n');
}
