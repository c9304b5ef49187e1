/**
 * TENSION rules: the count for the strictness, the line form
 * `L{N}::[constraint]⇌CTX:path[:A-B][state]→TRIGGER[action]`, non-generic constraints and falsifiable
 * CTX citations (checked through the injected probe, never the filesystem). Pure.
 */
import { normalizeOperators } from '../../octave/operators.js';
import { GENERIC_CONSTRAINTS, isPlaceholder, MIN_TENSIONS } from '../constants.js';
import type { Strictness } from '../../records/anchor.js';
import type { VectorSection } from '../vector.js';
import { citedPath } from '../../paths.js';
import type { CtxProbe, Violation } from './types.js';

/** A tension line that passed, in canonical form. */
export interface TensionFacts {
  label: string;
  constraint: string;
  path: string;
  range: { from: number; to: number } | null;
  state: string;
  trigger: string;
}

const LABEL = /^L\d+$/;
const FULL = /^\[([^\]]*)\]\s*⇌\s*CTX:([^[\]\s]*)\[([^\]]*)\]\s*→\s*TRIGGER\[(.*)\]$/;
const RANGE = /^(.*?):(\d+)(?:-(\d+))?$/;
export const TENSION_FORM = 'L{N}::[constraint]⇌CTX:path[:A-B][state]→TRIGGER[action]';
const ROOT_FIX =
  'Cite a file or a directory inside the worktree, not its root (e.g. CTX:src/index.ts:10-20 or CTX:src/):';

function tension(rule: string, line: number, message: string, fix: string): Violation {
  return { rule, section: 'TENSION', line, message: `line ${line}: ${message}`, fix };
}

/** Renders a tension in canonical form. */
export function renderTension(t: TensionFacts): string {
  const range =
    t.range === null ? '' : t.range.from === t.range.to ? `:${t.range.from}` : `:${t.range.from}-${t.range.to}`;
  return `${t.label}::[${t.constraint}]⇌CTX:${t.path}${range}[${t.state}]→TRIGGER[${t.trigger}]`;
}

/** Checks one CTX citation; returns the violation or the parsed path and range. */
function checkCtx(
  label: string,
  line: number,
  cited: string,
  strictness: Strictness,
  probe: CtxProbe,
): Violation | { path: string; range: TensionFacts['range'] } {
  // Seed 002's notation (`:L315`, `:L10-L20`) and GitHub's (`#L10-L20`) are the same line citation as `:10-20`.
  const m = RANGE.exec(
    cited.replace(/(?::|#)L(\d+)(?:-L?(\d+))?$/, (_, a: string, b?: string) => `:${a}${b ? `-${b}` : ''}`),
  );
  const filePath = m === null ? cited : m[1]!;
  const range = m === null ? null : { from: Number(m[2]), to: Number(m[3] ?? m[2]) };
  const where = `${label} CTX "${cited}"`;
  const place = citedPath(filePath);
  // The worktree root (`.`, `./`, `./.`) is no file or directory in it and always exists (a citation that
  // proves no reading); git names it with the empty path, which the canonical anchor cannot carry. Refused
  // here, so the proof stage and verify (which re-runs this rule on the record) judge it alike.
  if (filePath === '' || ('rel' in place && place.rel === '')) {
    return tension(
      'TENSION_FORMAT',
      line,
      filePath === ''
        ? `${label} has an empty CTX path`
        : `${where} names the worktree root, not a file or directory inside it`,
      `${ROOT_FIX} ${TENSION_FORM}.`,
    );
  }
  if ('outside' in place && place.outside === 'absolute') {
    return tension(
      'TENSION_CTX_ABSOLUTE',
      line,
      `${where} is an absolute path`,
      'Cite the file relative to the working directory, e.g. CTX:src/index.ts:10-20.',
    );
  }
  if ('outside' in place) {
    return tension(
      'TENSION_CTX_TRAVERSAL',
      line,
      `${where} contains ".." (outside the working directory)`,
      'Cite a file inside the working directory, without "..".',
    );
  }
  // Looked up, and written into the canonical anchor, as git names it (verify finds it in the HEAD's tree so).
  const target = probe(place.rel);
  if (target.kind === 'missing') {
    return tension(
      'TENSION_CTX_NOT_FOUND',
      line,
      `${where}: ${filePath} does not exist in the working directory`,
      'Cite a file that exists (check the path with ls or git ls-files).',
    );
  }
  if (target.kind === 'special') {
    return tension(
      'TENSION_CTX_NOT_FILE',
      line,
      `${where}: ${filePath} is not a regular file (a FIFO, socket or device)`,
      'Cite a regular file or a directory.',
    );
  }
  if (target.kind === 'outside') {
    return tension(
      'TENSION_CTX_OUTSIDE',
      line,
      `${where}: ${filePath} resolves outside the working directory (symlink)`,
      'Cite a real file inside the working directory, not a symlink leading out of it.',
    );
  }
  if (range !== null) {
    if (range.from < 1 || range.to < range.from) {
      return tension(
        'TENSION_CTX_RANGE',
        line,
        `${where}: line range ${range.from}-${range.to} is not a range (1-based, start ≤ end)`,
        'Write the range as :A-B with 1 ≤ A ≤ B.',
      );
    }
    if (target.kind === 'dir') {
      return tension(
        'TENSION_CTX_RANGE',
        line,
        `${where}: ${filePath} is a directory, a line range needs a file`,
        'Cite a file for a line range.',
      );
    }
    if (target.kind === 'too_large') {
      return tension(
        'TENSION_CTX_TOO_LARGE',
        line,
        `${where}: ${filePath} is larger than ${target.limit / 1024 / 1024} MiB (${target.bytes} bytes), too large to check a line range in`,
        'Cite a smaller file for a line range, or cite this one without a range.',
      );
    }
    if (range.to > target.lines) {
      return tension(
        'TENSION_CTX_RANGE',
        line,
        `${where}: lines ${range.from}-${range.to} are outside ${filePath}, which has ${target.lines} line${target.lines === 1 ? '' : 's'}`,
        `Cite lines that exist: between 1 and ${target.lines}.`,
      );
    }
  } else if (strictness === 'deep') {
    return tension(
      'TENSION_CTX_RANGE_REQUIRED',
      line,
      `${where}: strictness deep requires a line range on every CTX`,
      `Add a line citation (seed 002 has_line_citation) of the lines you read, e.g. CTX:${filePath}:10-20 or CTX:${filePath}:L315.`,
    );
  }
  return { path: place.rel, range };
}

/** Validates the TENSION section for the strictness; `facts` holds the lines that passed, in canonical form. */
export function checkTension(
  section: VectorSection | undefined,
  strictness: Strictness,
  probe: CtxProbe,
): { violations: Violation[]; facts: TensionFacts[] } {
  if (section === undefined) return { violations: [], facts: [] };
  const out: Violation[] = [];
  const facts: TensionFacts[] = [];
  for (const stray of section.stray) {
    out.push(
      tension(
        'TENSION_FORMAT',
        stray.line,
        `${JSON.stringify(stray.text.trim().slice(0, 60))} is not a tension line${/^\s+##/.test(stray.text) ? ' (an indented header does not start a section)' : ''}`,
        `Write each tension as ${TENSION_FORM}; section headers start at column 0.`,
      ),
    );
  }
  const labelled = section.entries.filter((e) => LABEL.test(e.key));
  for (const e of section.entries) {
    if (!LABEL.test(e.key)) {
      out.push(
        tension(
          'TENSION_FORMAT',
          e.line,
          `key "${e.key}" is not a tension label L{N}`,
          `Write each tension as ${TENSION_FORM}.`,
        ),
      );
    }
  }
  const min = MIN_TENSIONS[strictness];
  if (labelled.length < min) {
    out.push({
      rule: 'TENSION_COUNT',
      section: 'TENSION',
      message: `strictness ${strictness} requires ${min} tension${min > 1 ? 's' : ''}, found ${labelled.length}`,
      fix: `Add ${min - labelled.length} more tension line${min - labelled.length > 1 ? 's' : ''} (${TENSION_FORM}).`,
    });
  }
  for (const e of labelled) {
    const value = normalizeOperators(e.value);
    const m = FULL.exec(value);
    if (m === null) {
      if (!value.startsWith('[')) {
        out.push(
          tension('TENSION_FORMAT', e.line, `${e.key} does not start with [constraint]`, `Write ${TENSION_FORM}.`),
        );
      } else if (!/⇌\s*CTX:/.test(value)) {
        out.push(
          tension(
            'TENSION_CTX_MISSING',
            e.line,
            `${e.key} has no CTX citation`,
            `Add ⇌CTX:{path}[{state}] to prove context awareness: ${TENSION_FORM}.`,
          ),
        );
      } else if (!/→\s*TRIGGER\[/.test(value)) {
        out.push(
          tension(
            'TENSION_FORMAT',
            e.line,
            `${e.key} has no →TRIGGER[action]`,
            `End the line with →TRIGGER[what you will do]: ${TENSION_FORM}.`,
          ),
        );
      } else {
        out.push(
          tension(
            'TENSION_FORMAT',
            e.line,
            `${e.key} is not ${TENSION_FORM}`,
            `Write ${TENSION_FORM} (brackets around constraint, state and action).`,
          ),
        );
      }
      continue;
    }
    const [, constraint = '', cited = '', state = '', trigger = ''] = m;
    const c = constraint.trim();
    if ((GENERIC_CONSTRAINTS as readonly string[]).includes(c.toUpperCase()) || isPlaceholder(c)) {
      out.push(
        tension(
          'TENSION_GENERIC_CONSTRAINT',
          e.line,
          `${e.key} constraint "${c}" is generic`,
          'Name the specific constraint in tension with the code, e.g. [TDD_MANDATE] or [NO_NETWORK_IN_HOOKS].',
        ),
      );
      continue;
    }
    if (isPlaceholder(state) || isPlaceholder(trigger)) {
      out.push(
        tension(
          'TENSION_FORMAT',
          e.line,
          `${e.key} has an empty or placeholder ${isPlaceholder(state) ? 'CTX state' : 'TRIGGER action'}`,
          'Say what the cited code shows in [state] and what you will do in TRIGGER[action].',
        ),
      );
      continue;
    }
    const ctx = checkCtx(e.key, e.line, cited, strictness, probe);
    if ('rule' in ctx) {
      out.push(ctx);
      continue;
    }
    facts.push({
      label: e.key,
      constraint: c,
      path: ctx.path,
      range: ctx.range,
      state: state.trim(),
      trigger: trigger.trim(),
    });
  }
  return { violations: out, facts };
}
