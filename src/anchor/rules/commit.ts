/**
 * COMMIT rules (seeds 002/003 COMMIT_VALIDATION; issue 18): a positive rule, not a blacklist.
 *
 * - ARTIFACT is one of
 *   - a path: `src/feature.ts`, `docs/`, `./Makefile` — it exists, or it is new directly inside a
 *     directory that exists (the root included);
 *   - a test name: `test/feature.test.ts > suite > case` (vitest, jest) or `tests/test_x.py::test_y`
 *     (pytest), whose file is a path as above;
 *   - a symbol: `src/vector.ts#parseVector`, or code-shaped on its own: `parseVector` (camelCase or
 *     PascalCase with an inner capital), `parse_vector()`, `vector.parse`, `vector::parse`.
 * - GATE is a runnable command (its first word, after `VAR=value` assignments, is a known runner such as
 *   npm, make or pytest, or a script that exists in the working directory) or a named check `check:NAME`.
 *
 * Anything else ("improved code quality", "analysis", GATE "looks good") is refused with guidance.
 * Pure: paths are resolved through the injected probe (the working directory at anchor time, the tree of
 * the recorded HEAD in `hestai verify`); `commitProbePaths` names every path the rule asks about.
 */
import { citedPath } from '../../paths.js';
import { ABSTRACT_ARTIFACTS, GATE_RUNNERS, isPlaceholder } from '../constants.js';
import { entry, type VectorSection } from '../vector.js';
import type { CtxProbe, Violation } from './types.js';

export interface CommitFacts {
  artifact: string;
  gate: string;
}

export const ARTIFACT_FIX =
  'Name what will exist when you are done: a path (src/feature.ts, or docs/: one that exists, or a new one directly inside an existing directory), a test (test/feature.test.ts > handles empty input, or tests/test_feature.py::test_empty) or a symbol (parseVector, parse_vector(), src/vector.ts#parseVector).';
export const GATE_FIX =
  'Give the command that proves the artifact, starting with a runner such as npm, npx, make, pytest, cargo or go (e.g. "npm test"), or a script in the repository (./scripts/check.sh); or name a check as check:NAME (a CI job, quality gate or review step, e.g. check:ci/build).';

const EXTENSION = /\.[a-z0-9]{1,8}$/;
const IDENT = '[A-Za-z_$][\\w$]*';
const QUALIFIED = new RegExp(`^${IDENT}(?:(?:\\.|::|#)${IDENT})+(?:\\(\\))?$`);
const CALL = new RegExp(`^${IDENT}\\(\\)$`);
const BARE = new RegExp(`^${IDENT}$`);
const PYTEST_ID = /^[\w$]+(?:::[\w$]+)*(?:\[[^\]]*\])?$/;
const TEST_IN_FILE = /^(\S+)\s+>\s+(\S.*)$/;
const CHECK = /^check:([\w./@:+-]+)$/i;
const ENV_ASSIGNMENT = /^[A-Za-z_]\w*=\S*$/;
const FILLER = ['my', 'the', 'a', 'an', 'this', 'final', 'agent', 'full'];

/** What an ARTIFACT names, before any path is looked up. */
export type ArtifactForm =
  | { form: 'path'; path: string }
  | { form: 'test'; path: string; name: string }
  | { form: 'symbol'; path: string | null; name: string }
  /** One word with no shape of its own: a path when it exists (`Makefile`, `src`), else not concrete. */
  | { form: 'word'; path: string }
  | { form: 'none' };

/** Written like a path: a slash, a leading dot or tilde, or a file extension; no whitespace. */
function pathShaped(s: string): boolean {
  return !/\s/.test(s) && (s.includes('/') || s.startsWith('.') || s.startsWith('~') || EXTENSION.test(s));
}

/** A code identifier with an inner capital (camelCase, PascalCase, HTTPServer), not a plain word. */
function humped(s: string): boolean {
  return BARE.test(s) && (/[a-z0-9][A-Z]/.test(s) || /[A-Z]{2,}[a-z]/.test(s));
}

/** True when every word of an identifier or phrase is the conversation itself (`myResponse`, `the answer`). */
export function isAbstractArtifact(value: string): boolean {
  if (isPlaceholder(value)) return true;
  const words = value
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z\s]/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '' && !FILLER.includes(w));
  return (
    words.length > 0 && words.length <= 2 && words.every((w) => (ABSTRACT_ARTIFACTS as readonly string[]).includes(w))
  );
}

/** Pure: what an ARTIFACT's text names. */
export function parseArtifact(value: string): ArtifactForm {
  const v = value.trim();
  if (v === '' || isPlaceholder(v) || isAbstractArtifact(v)) return { form: 'none' };
  const test = TEST_IN_FILE.exec(v);
  if (test) {
    const name = test[2]!.trim();
    return pathShaped(test[1]!) && !isPlaceholder(name) ? { form: 'test', path: test[1]!, name } : { form: 'none' };
  }
  if (/\s/.test(v)) return { form: 'none' };
  const hash = v.indexOf('#');
  if (hash > 0 && pathShaped(v.slice(0, hash))) {
    const name = v.slice(hash + 1);
    return BARE.test(name) || QUALIFIED.test(name) || CALL.test(name)
      ? { form: 'symbol', path: v.slice(0, hash), name }
      : { form: 'none' };
  }
  const colons = v.indexOf('::');
  if (colons > 0 && pathShaped(v.slice(0, colons))) {
    const name = v.slice(colons + 2);
    return PYTEST_ID.test(name) ? { form: 'test', path: v.slice(0, colons), name } : { form: 'none' };
  }
  if (pathShaped(v)) return { form: 'path', path: v };
  if (QUALIFIED.test(v) || CALL.test(v) || humped(v)) return { form: 'symbol', path: null, name: v };
  return /^[\w.@+-]+$/.test(v) ? { form: 'word', path: v } : { form: 'none' };
}

/** What a GATE runs, before any path is looked up. */
export type GateForm =
  | { form: 'runner'; program: string }
  | { form: 'script'; path: string }
  | { form: 'check'; name: string }
  | { form: 'none' };

/** Pure: what a GATE's text names. Backticks around it and a leading `$ ` prompt are ignored. */
export function parseGate(value: string): GateForm {
  let v = value.trim();
  if (/^`[^`]+`$/.test(v)) v = v.slice(1, -1).trim();
  if (v.startsWith('$ ')) v = v.slice(2).trim();
  if (/^check:/i.test(v)) {
    const m = CHECK.exec(v);
    return m ? { form: 'check', name: m[1]! } : { form: 'none' };
  }
  const words = v.split(/\s+/).filter((w) => w !== '');
  let i = 0;
  while (i < words.length && ENV_ASSIGNMENT.test(words[i]!)) i++;
  const first = words[i];
  if (first === undefined || isPlaceholder(first)) return { form: 'none' };
  const base = first.split('/').pop()!;
  if ((GATE_RUNNERS as readonly string[]).includes(base)) return { form: 'runner', program: first };
  if (first.includes('/') || EXTENSION.test(first)) return { form: 'script', path: first };
  return { form: 'none' };
}

/** A path inside the working directory, relative, without `./` or a trailing slash (src/paths.ts citedPath), or why not. */
function relative(p: string): { rel: string } | { outside: string } {
  const cited = citedPath(p);
  if ('rel' in cited) return cited;
  return {
    outside: cited.outside === 'absolute' ? 'is an absolute path' : 'contains ".." (outside the working directory)',
  };
}

const parentOf = (rel: string) => (rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '');

/**
 * Pure: every path the COMMIT rule may ask the probe about for this ARTIFACT and GATE, so `hestai verify`
 * can look them all up in the recorded HEAD's tree in one batch.
 */
export function commitProbePaths(artifact: string, gate: string): string[] {
  const out: string[] = [];
  const a = parseArtifact(artifact);
  const artifactPath = a.form === 'none' ? null : a.path;
  if (artifactPath !== null) {
    const r = relative(artifactPath);
    if ('rel' in r && r.rel !== '' && r.rel !== '.') {
      out.push(r.rel);
      if (a.form !== 'word' && parentOf(r.rel) !== '') out.push(parentOf(r.rel));
    }
  }
  const g = parseGate(gate);
  if (g.form === 'script') {
    const r = relative(g.path);
    if ('rel' in r && r.rel !== '') out.push(r.rel);
  }
  return out;
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

/** Judges the ARTIFACT; null when it is concrete. */
function artifactViolation(value: string, line: number, probe: CtxProbe): Violation | null {
  const abstract = () =>
    commit(
      'COMMIT_ARTIFACT_ABSTRACT',
      `ARTIFACT "${value}" is not concrete: not a path, a test name or a symbol`,
      ARTIFACT_FIX,
      line,
    );
  const a = parseArtifact(value);
  if (a.form === 'none') return abstract();
  if (a.path === null) return null; // a symbol named on its own: nothing to look up
  const r = relative(a.path);
  if ('outside' in r) {
    return commit(
      'COMMIT_ARTIFACT_OUTSIDE',
      `ARTIFACT "${value}" ${r.outside}`,
      'Name a path relative to the working directory, inside it (e.g. src/feature.ts).',
      line,
    );
  }
  if (r.rel === '' || r.rel === '.') return abstract();
  const target = probe(r.rel);
  if (target.kind === 'outside') {
    return commit(
      'COMMIT_ARTIFACT_OUTSIDE',
      `ARTIFACT "${value}" resolves outside the working directory (symlink)`,
      'Name a real path inside the working directory, not a symlink leading out of it.',
      line,
    );
  }
  if (target.kind === 'special') {
    return commit(
      'COMMIT_ARTIFACT_NOT_FOUND',
      `ARTIFACT "${value}": ${r.rel} is not a regular file (a FIFO, socket or device)`,
      ARTIFACT_FIX,
      line,
    );
  }
  if (target.kind !== 'missing') return null;
  if (a.form === 'word') return abstract();
  const parent = parentOf(r.rel);
  const parentKind = parent === '' ? 'dir' : probe(parent).kind;
  if (parentKind === 'dir') return null;
  const subject = a.form === 'path' ? 'it' : r.rel;
  return commit(
    'COMMIT_ARTIFACT_NOT_FOUND',
    parentKind === 'missing'
      ? `ARTIFACT "${value}": neither ${subject} nor its directory ${parent} exists in the working directory`
      : `ARTIFACT "${value}": its directory ${parent} is not a directory`,
    `Name an existing file or directory, or a new one directly inside an existing directory (for a new directory, name it: ${parent}/, inside an existing one).`,
    line,
  );
}

/** Judges the GATE; null when it is runnable or a named check. */
function gateViolation(value: string, line: number, probe: CtxProbe): Violation | null {
  if (isPlaceholder(value)) return commit('COMMIT_GATE_MISSING', `GATE "${value}" is a placeholder`, GATE_FIX, line);
  const g = parseGate(value);
  if (g.form === 'runner' || g.form === 'check') return null;
  if (g.form === 'script') {
    const r = relative(g.path);
    const kind = 'rel' in r && r.rel !== '' ? probe(r.rel).kind : 'missing';
    if (kind === 'file' || kind === 'too_large') return null;
    return commit(
      'COMMIT_GATE_NOT_FOUND',
      `GATE "${value}": ${'rel' in r && r.rel !== '' ? r.rel : g.path} ${kind === 'dir' ? 'is a directory, not a script' : 'does not exist in the working directory'}`,
      GATE_FIX,
      line,
    );
  }
  return commit('COMMIT_GATE_VAGUE', `GATE "${value}" is not a runnable command or a named check`, GATE_FIX, line);
}

/** Validates COMMIT; returns the facts when it passes. */
export function checkCommit(
  section: VectorSection | undefined,
  probe: CtxProbe,
): {
  violations: Violation[];
  facts: CommitFacts | null;
} {
  if (section === undefined) return { violations: [], facts: null };
  const out: Violation[] = [];
  const artifact = entry(section, 'ARTIFACT');
  const gate = entry(section, 'GATE');
  if (artifact === undefined || artifact.value === '') {
    out.push(
      commit(
        'COMMIT_ARTIFACT_MISSING',
        artifact === undefined ? 'ARTIFACT is missing' : 'ARTIFACT is empty',
        ARTIFACT_FIX,
        artifact?.line,
      ),
    );
  } else {
    const v = artifactViolation(artifact.value, artifact.line, probe);
    if (v) out.push(v);
  }
  if (gate === undefined || gate.value === '') {
    out.push(
      commit('COMMIT_GATE_MISSING', gate === undefined ? 'GATE is missing' : 'GATE is empty', GATE_FIX, gate?.line),
    );
  } else {
    const v = gateViolation(gate.value, gate.line, probe);
    if (v) out.push(v);
  }
  for (const stray of section.stray) {
    out.push(
      commit(
        'COMMIT_FORMAT',
        `${JSON.stringify(stray.text.trim().slice(0, 60))} is not ARTIFACT::... or GATE::...`,
        'COMMIT holds two lines: ARTIFACT::path, test or symbol and GATE::command or check:NAME.',
        stray.line,
      ),
    );
  }
  const facts = out.length === 0 && artifact && gate ? { artifact: artifact.value, gate: gate.value } : null;
  return { violations: out, facts };
}
