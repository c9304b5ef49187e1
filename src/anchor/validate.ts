/**
 * Pure validation of a RAPH vector v4.0, or of a stage payload, against every rule of docs/design.md §5.
 * No fs or git: CTX citations are resolved through the injected probe. The handshake and the one-shot
 * entry add retries, state and the anchor file around this.
 */
import { isPlaceholder, MIN_TENSIONS, type SectionName } from './constants.js';
import {
  bindTemplate,
  commitTemplate,
  renderArm,
  renderCanonicalAnchor,
  tensionTemplate,
  vectorTemplate,
} from './canonical.js';
import { formatGuidance, type RetryState } from './guidance.js';
import type { ArmSnapshot } from '../records/anchor.js';
import { checkArm } from './rules/arm.js';
import { checkBind, type BindFacts } from './rules/bind.js';
import { checkCommit, type CommitFacts } from './rules/commit.js';
import { checkStructure, PART_SECTIONS, type VectorPart } from './rules/structure.js';
import { checkTension, renderTension, type TensionFacts } from './rules/tension.js';
import { errorLine, type RuleOptions, type Violation } from './rules/types.js';
import { entry, parseVector, type ParsedVector } from './vector.js';

export interface ValidateOptions extends RuleOptions {
  /** What is submitted: the whole vector (default), the BIND payload or the proof payload. */
  part?: VectorPart;
  /** The server-authoritative ARM: compared with the agent's ARM in a whole vector, and used in templates. */
  serverArm?: ArmSnapshot | null;
}

export interface VectorValidation {
  ok: boolean;
  violations: Violation[];
  /** One line per violation: `RULE_ID: message`. */
  errors: string[];
  /** Mismatches that do not fail validation (e.g. ahead/behind counts of the agent's ARM). */
  warnings: string[];
  bind: BindFacts | null;
  tensions: TensionFacts[] | null;
  commit: CommitFacts | null;
  /** Corrected templates for the sections that failed. */
  templates: { section: string; text: string }[];
}

function sectionOf(parsed: ParsedVector, name: SectionName) {
  return parsed.sections.find((s) => s.name === name);
}

/**
 * Seed 003 Amendment 01: a whole vector without `## ARM` is the agent's BIND+TENSION+COMMIT, and the
 * server's ARM is injected, so it is read as the `amended` part when the server's ARM is known.
 */
function wholePart(part: VectorPart, parsed: ParsedVector, serverArm: ArmSnapshot | null | undefined): VectorPart {
  if (part !== 'vector' || !serverArm) return part;
  return parsed.sections.some((s) => s.name === 'ARM') ? 'vector' : 'amended';
}

/** Validates `text` (a whole vector or a stage payload). Never throws on bad input. */
export function validateVector(text: string, options: ValidateOptions): VectorValidation {
  const parsed = parseVector(text);
  const part = wholePart(options.part ?? 'vector', parsed, options.serverArm);
  const wanted = PART_SECTIONS[part];
  const violations = checkStructure(parsed, part);
  const warnings: string[] = [];
  const min = MIN_TENSIONS[options.strictness];

  const bindSection = wanted.includes('BIND') ? sectionOf(parsed, 'BIND') : undefined;
  const bind = checkBind(bindSection, options.role, options.cognition ?? null, {
    sessions: options.sessions,
    sessionId: options.sessionId,
  });
  violations.push(...bind.violations);

  if (part === 'vector' && options.serverArm) {
    const arm = checkArm(sectionOf(parsed, 'ARM'), options.serverArm);
    violations.push(...arm.violations);
    warnings.push(...arm.warnings);
  }

  const tensionSection = wanted.includes('TENSION') ? sectionOf(parsed, 'TENSION') : undefined;
  const tension = checkTension(tensionSection, options.strictness, options.probe);
  violations.push(...tension.violations);

  const commitSection = wanted.includes('COMMIT') ? sectionOf(parsed, 'COMMIT') : undefined;
  const commit = checkCommit(commitSection, options.probe);
  violations.push(...commit.violations);

  const ok = violations.length === 0;
  const failed = new Set(violations.map((v) => v.section));
  const templates: { section: string; text: string }[] = [];
  if (!ok) {
    if (failed.has('STRUCTURE')) {
      const whole =
        part === 'vector' || part === 'amended'
          ? vectorTemplate(options.role, min, options.serverArm ?? null)
          : part === 'bind'
            ? bindTemplate(options.role)
            : `${tensionTemplate(min)}\n${commitTemplate()}`;
      templates.push({
        section:
          part === 'vector' || part === 'amended'
            ? 'the vector'
            : part === 'bind'
              ? 'the BIND payload'
              : 'the proof payload',
        text: whole,
      });
    }
    if (failed.has('BIND')) {
      const has = (prefix: string) => bind.violations.some((v) => v.rule.startsWith(prefix));
      const cog = entry(bindSection, 'COGNITION')?.value;
      const auth = entry(bindSection, 'AUTHORITY')?.value;
      templates.push({
        section: '## BIND',
        text: bindTemplate(options.role, {
          ...(cog && !has('BIND_COGNITION') ? { cognition: cog.replace(/\s*\+\s*/g, '⊕') } : {}),
          ...(auth && !has('BIND_AUTHORITY') ? { authority: auth } : {}),
        }),
      });
    }
    if (failed.has('ARM') && options.serverArm)
      templates.push({ section: '## ARM (copy the server values)', text: renderArm(options.serverArm) });
    if (failed.has('TENSION'))
      templates.push({ section: '## TENSION', text: tensionTemplate(min, tension.facts.map(renderTension)) });
    if (failed.has('COMMIT')) {
      const has = (prefix: string) => commit.violations.some((v) => v.rule.startsWith(prefix));
      const artifact = entry(commitSection, 'ARTIFACT')?.value;
      const gate = entry(commitSection, 'GATE')?.value;
      templates.push({
        section: '## COMMIT',
        text: commitTemplate({
          ...(artifact && !has('COMMIT_ARTIFACT') ? { artifact } : {}),
          ...(gate && !isPlaceholder(gate) && !has('COMMIT_GATE') ? { gate } : {}),
        }),
      });
    }
  }
  return {
    ok,
    violations,
    errors: violations.map(errorLine),
    warnings,
    bind: ok ? bind.facts : null,
    tensions: ok && wanted.includes('TENSION') ? tension.facts : null,
    commit: ok ? commit.facts : null,
    templates,
  };
}

/** The guidance text for a failed validation (empty when it passed). */
export function guidanceFor(validation: VectorValidation, retry?: RetryState): string {
  return validation.ok ? '' : formatGuidance(validation.violations, validation.templates, retry);
}

/** The canonical anchor of a validated whole vector, with the server's ARM. */
export function canonicalFromValidation(validation: VectorValidation, arm: ArmSnapshot): string | null {
  if (!validation.ok || !validation.bind || !validation.tensions || !validation.commit) return null;
  return renderCanonicalAnchor(validation.bind, arm, validation.tensions, validation.commit);
}
