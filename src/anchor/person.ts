/**
 * The one payload a person edits for `hestai anchor` on a terminal (issue 41): drafted with the facts the
 * server knows, comment lines blanked, split into the two stage payloads, and paths taken relative to the
 * shell's directory. Pure: the CLI does the editor and the I/O.
 */
import path from 'node:path';
import { header } from './canonical.js';
import { parseArtifact } from './rules/commit.js';
import type { DeclaredCognition } from './rules/types.js';

/** A comment line of the edited payload: `#` at column 0, not a section header (`## BIND`). */
const COMMENT = /^#(?!#)/;
const CTX_PATH = /CTX:([^[\]\s]*)\[/;
/** A line citation at the end of a CTX path: `:10-20`, `:10`, `:L315`, `#L10-L20`. */
const RANGE_TAIL = /(?::L?\d+(?:-L?\d+)?|#L\d+(?:-L?\d+)?)$/;

/** A file the draft cites, relative to the worktree root, with the lines it shows. */
export interface Citation {
  path: string;
  from: number;
  to: number;
}

/** Blanks every comment line (line numbers stay those of the file the person edited). */
export function blankComments(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .map((line) => (COMMENT.test(line) ? '' : line.replace(/\r$/, '')))
    .join('\n');
}

/** True when nothing but comments, section headers and blank lines is left: the person aborted, as `git commit` does. */
export function isEmptyPayload(text: string): boolean {
  return blankComments(text)
    .split('\n')
    .every((line) => line.trim() === '' || /^##\s/.test(line));
}

/**
 * The two stage payloads of one edited text: BIND (the lines before `## TENSION`), and TENSION with
 * COMMIT, padded with blank lines so each error names the line of the edited file.
 */
export function splitPayload(text: string): { bind: string; proof: string } {
  const lines = blankComments(text).split('\n');
  const at = lines.findIndex((line) => /^##\s*TENSION\b/i.test(line));
  if (at < 0) return { bind: lines.join('\n'), proof: '' };
  return {
    bind: lines.slice(0, at).join('\n'),
    proof: [...lines.slice(0, at).map(() => ''), ...lines.slice(at)].join('\n'),
  };
}

/**
 * A path the person wrote relative to `base` (the shell's directory, relative to the worktree root, `/`
 * separated; '' at the root), as the rules take it: relative to the root. An absolute path, or one that
 * leaves the worktree, is kept as written so that the rules refuse it with their own message.
 */
export function rebasePath(cited: string, base: string): string {
  if (base === '' || cited === '' || /^([/\\~]|[A-Za-z]:[\\/])/.test(cited)) return cited;
  const joined = path.posix.normalize(`${base}/${cited}`);
  if (joined === '..' || joined.startsWith('../')) return cited;
  return joined === '.' ? './' : joined;
}

/** The path of a CTX citation with its line range, rebased (see {@link rebasePath}). */
function rebaseCited(cited: string, base: string): string {
  const range = RANGE_TAIL.exec(cited)?.[0] ?? '';
  return `${rebasePath(cited.slice(0, cited.length - range.length), base)}${range}`;
}

/** Every CTX and ARTIFACT path of a payload rebased from the shell's directory to the worktree root. */
export function rebasePayload(text: string, base: string): string {
  if (base === '') return text;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*L\d+::/.test(line))
        return line.replace(CTX_PATH, (_, cited: string) => `CTX:${rebaseCited(cited, base)}[`);
      const artifact = /^(\s*ARTIFACT::\s*)(.*?)(\s*)$/.exec(line);
      if (artifact === null) return line;
      const [, lead, value, tail] = artifact as unknown as [string, string, string, string];
      const form = parseArtifact(value);
      if (form.form === 'none' || form.path === null || !value.startsWith(form.path)) return line;
      return `${lead}${rebasePath(form.path, base)}${value.slice(form.path.length)}${tail}`;
    })
    .join('\n');
}

/** What the draft is made of: the session, the constitution and the worktree as the server sees them. */
export interface DraftFacts {
  role: string;
  session_id: string;
  constitution_path: string;
  cognition: DeclaredCognition | null;
  focus: string;
  /** Tensions required (quick 1, default 2, deep 3). */
  min: number;
  /** Candidate citations, relative to the root: the first `min` are drafted, the rest listed as comments. */
  citations: readonly Citation[];
  /** A command that runs the project's tests, when one is evident. */
  gate: string | null;
  /** The shell's directory relative to the root ('' at the root). */
  base: string;
}

/** A citation as the person writes it from the shell's directory. */
function cite(c: Citation, base: string): string {
  const p = base === '' ? c.path : path.posix.relative(base, c.path);
  return `CTX:${p}:${c.from === c.to ? c.from : `${c.from}-${c.to}`}`;
}

/** The pre-filled payload: every line a person needs, each explained by the comment above it. */
export function draftPayload(f: DraftFacts): string {
  const cognition =
    f.cognition === null || f.cognition.type === null
      ? '{ETHOS|LOGOS|PATHOS}::{ARCHETYPE}'
      : `${f.cognition.type}::${f.cognition.archetypes.join('+') || '{ARCHETYPE}'}`;
  const choices =
    f.cognition === null
      ? 'the constitution declares none: TYPE is ETHOS, LOGOS or PATHOS'
      : `the constitution declares ${f.cognition.type ?? 'no type'} with ${f.cognition.archetypes.join(', ') || 'no archetype'} (keep one or more)`;
  const drafted = f.citations.slice(0, f.min);
  const tensions = drafted.map(
    (c, i) =>
      `L${i + 1}::[{the rule you keep here}]<->${cite(c, f.base)}[{what these lines show}]->TRIGGER[{what you will do}]`,
  );
  for (let n = tensions.length + 1; n <= f.min; n++)
    tensions.push(
      `L${n}::[{the rule you keep here}]<->CTX:{a file}:{A-B}[{what these lines show}]->TRIGGER[{what you will do}]`,
    );
  const more = f.citations.slice(f.min, f.min + 5).map((c) => `#   ${cite(c, f.base)}`);
  const where = f.base === '' ? 'the worktree root' : `${f.base}/ (where you ran hestai anchor)`;
  return [
    `# hestai anchor: bind session ${f.session_id} as ${f.role}. Fill in each {...}, save and close the editor.`,
    '# Lines starting with "# " are removed. An empty file aborts. A payload that fails the check is not',
    '# submitted and spends no retry: you get it back with the errors at its end.',
    `# Paths are relative to ${where}.`,
    header('BIND'),
    `# ROLE: the role you bind as; its constitution is ${f.constitution_path}.`,
    `ROLE::${f.role}`,
    `# COGNITION: TYPE::ARCHETYPE[+ARCHETYPE...]; ${choices}.`,
    `COGNITION::${cognition}`,
    "# AUTHORITY: RESPONSIBLE[what you own], here the session's focus.",
    `AUTHORITY::RESPONSIBLE[${f.focus}]`,
    header('TENSION'),
    `# At least ${f.min} line${f.min === 1 ? '' : 's'}: L<n>::[the rule you keep]<->CTX:file:lines[what they show]->TRIGGER[what you will do].`,
    '# Cite committed files: CI re-checks each citation at the commit you anchor at. Changed and recent files:',
    ...tensions,
    ...(more.length > 0 ? ['# Other files you may cite:', ...more] : []),
    header('COMMIT'),
    '# ARTIFACT: what will exist when you are done: a path (a new file inside an existing directory too),',
    '# a test (test/x.test.js > case) or a symbol (parseVector).',
    'ARTIFACT::{a path, a test or a symbol}',
    '# GATE: the command that proves it (npm test, make test, pytest, go test ./...) or check:NAME.',
    `GATE::${f.gate ?? '{a command, e.g. npm test}'}`,
    '',
  ].join('\n');
}

const ERRORS_START =
  '# hestai anchor --check found (fix them above, save and close; nothing was submitted, no retry spent):';

/** The edited text with the check's errors as comments at its end (replacing those of an earlier round). */
export function withErrors(text: string, errors: readonly string[]): string {
  const at = text.indexOf(`\n${ERRORS_START}\n`);
  const body = at >= 0 ? text.slice(0, at + 1) : text.endsWith('\n') ? text : `${text}\n`;
  return [body + ERRORS_START, ...errors.map((e) => `#   ${e}`), ''].join('\n');
}
