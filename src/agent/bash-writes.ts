import { notReadOnly, READ_PREFIXES, SAFE_ASSIGNMENTS, POWERSHELL_READS } from './read-only.js';

/**
 * Pure: does a shell command (the `command` of Claude Code's `Bash` tool, or of `PowerShell`) change files,
 * and which? Deny by default (issue 26): a command is a read only when every part of it is on the read-only
 * list of `read-only.ts`; every other part is a write. A deliberately small reader of POSIX sh, not a shell:
 * it splits on `;` `&&` `||` `|` `&` `(` `)` and newlines, honours quotes and backslashes, skips
 * here-document bodies, tracks `cd` (every directory a part may run in is kept), and names the targets of the
 * writes it knows:
 *
 * - output redirections `>` `>>` `>|` `&>` `&>>` `N>` `N>>` `<>` (not `>&N` duplications, not `/dev/null`,
 *   `/dev/stdout`, `/dev/stderr`, `/dev/tty`, `/dev/fd/N`);
 * - `tee` (its file arguments), cp, mv, rm, touch, mkdir, rmdir, ln, truncate, install, `dd of=`.
 *
 * Every other write (git commit, sed -i, npm, an interpreter, a command substitution, an unknown command)
 * has unknown targets: it is judged as a write inside the worktree. `mentions` are the words of the writing
 * parts that may name paths, for the protected-path check (a `git commit` names none: its message is text).
 */

export interface BashWrites {
  /** True when some part of the command is not a known read. */
  writes: boolean;
  /** The paths it writes, joined to the directories it may run in; `null` when some are unknown. */
  targets: string[] | null;
  /** What was recognised as a write, for the message (e.g. `git commit`, `> out.txt`, `tee`, `npm`). */
  what: string[];
  /** The words of the writing parts (joined to each directory when relative) that may name paths. */
  mentions: string[];
}

export interface ShellContext {
  /** Absolute paths of this package's CLI and hook entry: `node <path> ...` runs hestai itself. */
  hestaiBins?: readonly string[];
}

type Token =
  | { kind: 'word'; text: string; quoted: boolean }
  | { kind: 'op'; text: string }
  | { kind: 'redir'; text: string; fd: string };

const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
const PREFIXES = new Set(['sudo', 'env', 'command', 'nohup', 'time', 'exec', 'builtin']);
const ALL_ARGS = new Set(['rm', 'touch', 'mkdir', 'rmdir', 'truncate', 'unlink', 'mkfifo', 'mknod', 'shred']);
const LAST_ARG = new Set(['cp', 'mv', 'ln', 'install']);
/** Shell keywords that start or end a compound command; what follows `if`, `while`, `do`, ... is a command. */
const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', '{', '}']);
/**
 * git subcommands that write git's own directory rather than the work tree or a normal commit (`.git/` is
 * protected: item 2 of issue 26): the file each writes, as a mention. `git config --get` is a read and never
 * reaches here.
 */
const GIT_OWN_FILES: Readonly<Record<string, string>> = {
  config: '.git/config',
  'update-ref': '.git/refs',
  'symbolic-ref': '.git/HEAD',
  replace: '.git/refs/replace',
  hook: '.git/hooks',
  'filter-branch': '.git/refs',
};
/** git's global options that take the next word as their value (`git -C dir`, `git -c name=value`). */
const GIT_GLOBAL_WITH_VALUE = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config-env',
  '--super-prefix',
  '--attr-source',
]);

/** Pure: git's subcommand (at index `at` of `args`) after its global options, and those options' values. */
export function gitSubcommand(args: readonly string[]): { sub: string | undefined; at: number; values: string[] } {
  const values: string[] = [];
  let j = 0;
  while (j < args.length && args[j]!.startsWith('-')) {
    const a = args[j]!;
    const eq = a.indexOf('=');
    if (eq !== -1 && a.startsWith('--')) values.push(a.slice(eq + 1));
    else if (GIT_GLOBAL_WITH_VALUE.has(a) && j + 1 < args.length) values.push(args[++j]!);
    j += 1;
  }
  return { sub: args[j], at: j, values };
}

/** A word that runs a command where it stands: a command substitution. */
const SUBSTITUTION = /`|\$\(/;

/** Splits a command into words, operators and redirections. Here-document bodies are dropped. */
export function tokenize(command: string): Token[] {
  const tokens: Token[] = [];
  const heredocs: { word: string; strip: boolean }[] = [];
  let i = 0;
  let word = '';
  let inWord = false;
  let quoted = false;
  const flush = () => {
    if (inWord) tokens.push({ kind: 'word', text: word, quoted });
    word = '';
    inWord = false;
    quoted = false;
  };
  while (i < command.length) {
    const c = command[i]!;
    if (c === '\\' && i + 1 < command.length) {
      if (command[i + 1] !== '\n') {
        word += command[i + 1];
        inWord = true;
        quoted = true;
      }
      i += 2;
      continue;
    }
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      const stop = end === -1 ? command.length : end;
      word += command.slice(i + 1, stop);
      inWord = true;
      quoted = true;
      i = stop + 1;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < command.length && command[j] !== '"') {
        if (command[j] === '\\' && j + 1 < command.length) {
          word += command[j + 1];
          j += 2;
        } else word += command[j++];
      }
      inWord = true;
      quoted = true;
      i = j + 1;
      continue;
    }
    if (c === '#' && !inWord) {
      while (i < command.length && command[i] !== '\n') i++;
      continue;
    }
    if (c === '\n') {
      flush();
      tokens.push({ kind: 'op', text: ';' });
      i++;
      // Skip the bodies of here-documents opened on the line just ended.
      for (const doc of heredocs.splice(0)) {
        for (;;) {
          const eol = command.indexOf('\n', i);
          const line = command.slice(i, eol === -1 ? command.length : eol);
          i = eol === -1 ? command.length : eol + 1;
          if ((doc.strip ? line.replace(/^\t+/, '') : line) === doc.word || eol === -1) break;
        }
      }
      continue;
    }
    if (c === ' ' || c === '\t') {
      flush();
      i++;
      continue;
    }
    if (c === '<') {
      if (command.startsWith('<<', i) && !command.startsWith('<<<', i)) {
        flush();
        let j = i + 2;
        const strip = command[j] === '-';
        if (strip) j++;
        while (command[j] === ' ' || command[j] === '\t') j++;
        const m = /^(?:'([^']*)'|"([^"]*)"|\\?([^\s;&|<>()]+))/.exec(command.slice(j));
        if (m) {
          heredocs.push({ word: m[1] ?? m[2] ?? m[3] ?? '', strip });
          j += m[0].length;
        }
        i = j;
        continue;
      }
      // `N<>file` opens the file for reading and writing: a write (it creates the file, and truncates nothing
      // but writes whatever the command sends to it).
      if (command[i + 1] === '>') {
        let fd = '0';
        if (inWord && !quoted && /^\d+$/.test(word)) {
          fd = word;
          word = '';
          inWord = false;
        }
        flush();
        tokens.push({ kind: 'redir', text: '<>', fd });
        i += 2;
        continue;
      }
      flush();
      i += command.startsWith('<<<', i) ? 3 : command[i + 1] === '&' ? 2 : 1;
      tokens.push({ kind: 'op', text: '<' });
      continue;
    }
    if (c === '>' || (c === '&' && command[i + 1] === '>')) {
      // A file-descriptor number written right before `>` belongs to the redirection (`2>err.log`).
      let fd = c === '&' ? '&' : '1';
      if (c === '>' && inWord && !quoted && /^\d+$/.test(word)) {
        fd = word;
        word = '';
        inWord = false;
      }
      flush();
      let j = c === '&' ? i + 2 : i + 1;
      let op = c === '&' ? '&>' : '>';
      if (command[j] === '>') {
        op += '>';
        j++;
      } else if (command[j] === '|') j++;
      if (command[j] === '&') {
        // `>&2`, `2>&1`: duplicating a descriptor writes no file (`>&file` is bash for `&>file`).
        const m = /^&(\d+|-)/.exec(command.slice(j));
        if (m) {
          i = j + m[0].length;
          continue;
        }
        j++;
        op = '&>';
      }
      tokens.push({ kind: 'redir', text: op, fd });
      i = j;
      continue;
    }
    if (c === ';' || c === '|' || c === '&' || c === '(' || c === ')') {
      flush();
      const two = command.slice(i, i + 2);
      const op = two === '&&' || two === '||' || two === ';;' ? two : c;
      tokens.push({ kind: 'op', text: op });
      i += op.length;
      continue;
    }
    word += c;
    inWord = true;
    i++;
  }
  flush();
  return tokens;
}

function nonOptions(args: readonly string[]): string[] {
  const out: string[] = [];
  let ended = false;
  for (const a of args) {
    if (!ended && a === '--') ended = true;
    else if (ended || !a.startsWith('-') || a === '-') out.push(a);
  }
  return out;
}

interface Found {
  what: string[];
  targets: string[];
  mentions: string[];
  unknown: boolean;
  /** The directories the parts may run in ('' is the call's cwd); null once a `cd` went somewhere unknown. */
  cwds: string[] | null;
}

/** A path as seen from each directory the command may run in (absolute and `~` paths as they are). */
function fromCwds(found: Found, target: string): string[] {
  if (target.startsWith('/') || target.startsWith('~') || found.cwds === null) return [target];
  return found.cwds.map((cwd) => (cwd === '' ? target : `${cwd}/${target}`));
}

function addTargets(found: Found, targets: readonly string[]): void {
  for (const t of targets) {
    const seen = fromCwds(found, t);
    found.targets.push(...seen);
    found.mentions.push(...seen);
  }
}

/** `cd DIR` (or pushd/popd): every directory the next parts may run in (a failed cd keeps the old one). */
function changeDirectory(found: Found, name: string, args: readonly string[]): void {
  const dirs = nonOptions(args);
  const dir = name === 'popd' ? undefined : dirs.length === 0 ? '~' : dirs[0]!;
  if (found.cwds === null) return;
  if (dir === undefined || dir === '-' || /[$`*?[{]/.test(dir)) {
    found.cwds = null;
    return;
  }
  const next =
    dir.startsWith('/') || dir.startsWith('~') ? [dir] : found.cwds.map((c) => (c === '' ? dir : `${c}/${dir}`));
  found.cwds = [...new Set([...found.cwds, ...next])];
}

/** What one simple command (its words, redirections already taken out) writes. */
function commandWrites(words: string[], found: Found, context: ShellContext): void {
  let k = 0;
  let unsafe: string | null = null;
  for (; k < words.length; k++) {
    const w = words[k]!;
    if (KEYWORDS.has(w)) continue;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) {
      if (!SAFE_ASSIGNMENTS.test(w)) unsafe ??= w.slice(0, w.indexOf('=') + 1);
      continue;
    }
    if (PREFIXES.has(w) && k + 1 < words.length) {
      if (!(READ_PREFIXES as readonly string[]).includes(w)) unsafe ??= w;
      continue;
    }
    break;
  }
  if (words[k] === 'for') return; // `for x in a b c`: assigns a variable
  const rawName = words[k];
  if (rawName === undefined) {
    if (unsafe !== null) {
      found.what.push(unsafe);
      found.unknown = true;
      found.mentions.push(...words);
    }
    return;
  }
  // A command named by path is the command only in the system's own directories (./ls is not ls).
  const name = /^\/(usr\/)?(local\/)?s?bin\/[^/]+$/.test(rawName) ? rawName.replace(/^.*\//, '') : rawName;
  const args = words.slice(k + 1);
  if (name === 'cd' || name === 'pushd' || name === 'popd') {
    if (unsafe === null && !words.some((w) => SUBSTITUTION.test(w))) return changeDirectory(found, name, args);
  }
  const substitution = words.find((w) => SUBSTITUTION.test(w));
  const notRead =
    unsafe ??
    (substitution !== undefined ? 'a command substitution' : notReadOnly(name, args, context.hestaiBins ?? []));
  if (notRead === null) return;
  found.what.push(notRead);
  if (name === 'tee') return addTargets(found, nonOptions(args));
  if (ALL_ARGS.has(name) && unsafe === null) return addTargets(found, nonOptions(args));
  if (LAST_ARG.has(name) && unsafe === null) {
    const files = nonOptions(args);
    if (files.length === 0) found.unknown = true;
    else addTargets(found, name === 'cp' || name === 'install' ? files.slice(-1) : files);
    return;
  }
  if (name === 'dd' && unsafe === null) {
    const of = args.filter((a) => a.startsWith('of='));
    if (of.length > 0)
      return addTargets(
        found,
        of.map((a) => a.slice(3)),
      );
  }
  found.unknown = true;
  if (name === 'git') {
    const { sub, at, values } = gitSubcommand(args);
    // The values of git's global options may name paths (-C dir, -c core.editor=...), except the hooks
    // directory of -c core.hooksPath=..., which git runs hooks from and never writes (Gemini CLI empties it
    // in its shell, so an agent commits with -c core.hooksPath=<the worktree's hooks>).
    for (const v of values) if (!/^core\.hookspath=/i.test(v)) found.mentions.push(...fromCwds(found, v));
    // A commit message, tag message or the like is text, not a path.
    let skip = false;
    if (sub === 'commit') return;
    // Subcommands that write git's own directory beyond a normal commit: its config, refs by hand, hooks.
    const own = sub === undefined ? undefined : GIT_OWN_FILES[sub];
    if (own !== undefined) found.mentions.push(own);
    for (const a of args.slice(at)) {
      if (skip) skip = false;
      else if (a === '-m' || a === '--message' || a === '-F' || a === '--file') skip = true;
      else if (!/^(-m|--message=)/.test(a)) found.mentions.push(...fromCwds(found, a));
    }
    return;
  }
  for (const w of words) found.mentions.push(...fromCwds(found, w));
}

const result = (found: Found): BashWrites => {
  const writes = found.what.length > 0;
  const variable = found.targets.some((p) => /[$`*?[{]/.test(p));
  return {
    writes,
    targets: !writes ? [] : found.unknown || variable || found.cwds === null ? null : found.targets,
    what: found.what,
    mentions: found.mentions,
  };
};

/** Pure: the writes of a shell command (see the module comment for what is and is not recognised). */
export function bashWrites(command: string, context: ShellContext = {}): BashWrites {
  const found: Found = { what: [], targets: [], mentions: [], unknown: false, cwds: [''] };
  let words: string[] = [];
  const tokens = tokenize(command);
  for (let t = 0; t <= tokens.length; t++) {
    const token = tokens[t];
    if (token === undefined || token.kind === 'op') {
      if (token?.text !== '<') {
        commandWrites(words, found, context);
        words = [];
      } else if (tokens[t + 1]?.kind === 'word')
        t++; // the input file of `<` is read, not written
      else {
        found.what.push('a process substitution');
        found.unknown = true;
      }
      continue;
    }
    if (token.kind === 'redir') {
      const next = tokens[t + 1];
      if (next?.kind === 'word') {
        t++;
        if (!HARMLESS_TARGETS.test(next.text)) {
          found.what.push(
            `${token.fd === '1' || token.fd === '&' || (token.fd === '0' && token.text === '<>') ? '' : token.fd}${token.text} ${next.text}`,
          );
          addTargets(found, [next.text]);
          if (SUBSTITUTION.test(next.text)) found.unknown = true;
        }
      } else {
        found.what.push(token.text);
        found.unknown = true;
      }
      continue;
    }
    words.push(token.text);
  }
  return result(found);
}

/**
 * Pure: the writes of a PowerShell command. Its parts (split on `;` `|` `&&` `||` and newlines outside
 * quotes) are reads only when each names a reading cmdlet or alias of `POWERSHELL_READS` (or `git` with a
 * reading subcommand) and the command has no redirection, script block, subexpression or call operator.
 * Every write's targets are unknown.
 */
export function powershellWrites(command: string): BashWrites {
  const found: Found = { what: [], targets: [], mentions: [], unknown: false, cwds: [''] };
  const parts: string[][] = [[]];
  let word = '';
  let inWord = false;
  const flush = () => {
    if (inWord) parts[parts.length - 1]!.push(word);
    word = '';
    inWord = false;
  };
  let unsafe: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'" || c === '"') {
      const end = command.indexOf(c, i + 1);
      const stop = end === -1 ? command.length : end;
      const inner = command.slice(i + 1, stop);
      if (c === '"' && /\$\(|`/.test(inner)) unsafe ??= 'a subexpression';
      word += inner;
      inWord = true;
      i = stop;
    } else if (c === ';' || c === '|' || c === '\n' || c === '&') {
      if (c === '&' && command[i + 1] !== '&') unsafe ??= 'the call operator &';
      flush();
      parts.push([]);
      if ((c === '|' || c === '&') && command[i + 1] === c) i++;
    } else if (c === ' ' || c === '\t' || c === '\r') flush();
    else {
      if (c === '>' || c === '{' || c === '}' || c === '`' || (c === '$' && command[i + 1] === '(') || c === '@')
        unsafe ??= c === '>' ? 'a redirection' : c === '{' || c === '}' ? 'a script block' : 'a subexpression';
      word += c;
      inWord = true;
    }
  }
  flush();
  for (const part of parts) {
    if (part.length === 0) continue;
    const name = part[0]!.toLowerCase();
    const args = part.slice(1);
    const notRead =
      unsafe ?? (name === 'git' ? notReadOnly('git', args) : POWERSHELL_READS.includes(name) ? null : part[0]!);
    if (name === 'cd' || name === 'set-location' || name === 'sl' || name === 'chdir') found.cwds = null;
    if (notRead === null) continue;
    found.what.push(notRead);
    found.unknown = true;
    found.mentions.push(...part.map((w) => w.replace(/\\/g, '/')));
  }
  return result(found);
}
