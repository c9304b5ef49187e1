/**
 * Pure: does a shell command (the `command` of Claude Code's `Bash` tool) change files, and which? A
 * deliberately small reader of POSIX sh, not a shell: it splits on `;` `&&` `||` `|` `&` and newlines,
 * honours quotes and backslashes, skips here-document bodies, and then recognises, per simple command:
 *
 * - output redirections `>` `>>` `>|` `&>` `&>>` `N>` `N>>` (not `>&N` duplications, not `/dev/null`,
 *   `/dev/stdout`, `/dev/stderr`, `/dev/tty`, `/dev/fd/N`);
 * - `tee` (its file arguments);
 * - `git` commands that write history or the worktree: commit, merge, rebase, cherry-pick, revert, am,
 *   apply, checkout, switch, restore, reset, stash, rm, mv, add (global options such as `-C dir` skipped);
 * - file utilities: cp, mv, rm, touch, mkdir, rmdir, ln, truncate, install, patch, `dd of=`, and
 *   `sed -i` / `perl -i` (no targets named for these two);
 * - behind the prefixes `sudo`, `env`, `command`, `nohup`, `time`, `exec` and `VAR=value` assignments.
 *
 * Not recognised (documented in the README): commands inside `$(...)`, backticks, `sh -c '...'`,
 * `eval`, `xargs`, `find -exec`, and interpreters (`python -c`, `node -e`) that write files themselves.
 */

export interface BashWrites {
  /** True when some recognised part of the command writes. */
  writes: boolean;
  /** The paths it writes, as written in the command (relative to its cwd); `null` when some are unknown. */
  targets: string[] | null;
  /** What was recognised, for the message (e.g. `git commit`, `> out.txt`, `tee`). */
  what: string[];
}

type Token =
  | { kind: 'word'; text: string; quoted: boolean }
  | { kind: 'op'; text: string }
  | { kind: 'redir'; text: string; fd: string };

const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
const GIT_WRITES = new Set([
  'commit',
  'merge',
  'rebase',
  'cherry-pick',
  'revert',
  'am',
  'apply',
  'checkout',
  'switch',
  'restore',
  'reset',
  'stash',
  'rm',
  'mv',
  'add',
]);
const GIT_GLOBAL_WITH_VALUE = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--super-prefix',
  '--config-env',
]);
const PREFIXES = new Set(['sudo', 'env', 'command', 'nohup', 'time', 'exec', 'builtin']);
const ALL_ARGS = new Set(['rm', 'touch', 'mkdir', 'rmdir', 'truncate']);
const LAST_ARG = new Set(['cp', 'mv', 'ln', 'install']);

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
      flush();
      i += command.startsWith('<<<', i) ? 3 : command[i + 1] === '&' || command[i + 1] === '>' ? 2 : 1;
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

function nonOptions(args: string[]): string[] {
  const out: string[] = [];
  let ended = false;
  for (const a of args) {
    if (!ended && a === '--') ended = true;
    else if (ended || !a.startsWith('-') || a === '-') out.push(a);
  }
  return out;
}

/** What one simple command (its words, redirections already taken out) writes. */
function commandWrites(words: string[], found: { what: string[]; targets: string[]; unknown: boolean }): void {
  let k = 0;
  while (k < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[k]!) || PREFIXES.has(words[k]!))) k++;
  const name = words[k]?.replace(/^.*\//, '');
  const args = words.slice(k + 1);
  if (name === undefined) return;
  if (name === 'tee') {
    found.what.push('tee');
    found.targets.push(...nonOptions(args));
    return;
  }
  if (name === 'git') {
    let j = 0;
    while (j < args.length && args[j]!.startsWith('-')) j += GIT_GLOBAL_WITH_VALUE.has(args[j]!) ? 2 : 1;
    const sub = args[j];
    if (sub !== undefined && GIT_WRITES.has(sub)) {
      found.what.push(`git ${sub}`);
      found.unknown = true;
    }
    return;
  }
  if (ALL_ARGS.has(name)) {
    found.what.push(name);
    found.targets.push(...nonOptions(args));
    return;
  }
  if (LAST_ARG.has(name)) {
    const files = nonOptions(args);
    found.what.push(name);
    if (files.length > 0) found.targets.push(files[files.length - 1]!);
    else found.unknown = true;
    return;
  }
  if (name === 'dd') {
    const of = args.find((a) => a.startsWith('of='));
    if (of) {
      found.what.push('dd of=');
      found.targets.push(of.slice(3));
    }
    return;
  }
  if (name === 'patch') {
    found.what.push('patch');
    found.unknown = true;
    return;
  }
  if ((name === 'sed' || name === 'perl') && args.some((a) => /^-[A-Za-z]*i/.test(a) || a.startsWith('--in-place'))) {
    found.what.push(`${name} -i`);
    found.unknown = true;
  }
}

/** Pure: the writes of a shell command (see the module comment for what is and is not recognised). */
export function bashWrites(command: string): BashWrites {
  const found = { what: [] as string[], targets: [] as string[], unknown: false };
  let words: string[] = [];
  const tokens = tokenize(command);
  for (let t = 0; t <= tokens.length; t++) {
    const token = tokens[t];
    if (token === undefined || token.kind === 'op') {
      if (token?.text !== '<') {
        commandWrites(words, found);
        words = [];
      } else t++; // the input file of `<` is read, not written
      continue;
    }
    if (token.kind === 'redir') {
      const next = tokens[t + 1];
      if (next?.kind === 'word') {
        t++;
        if (!HARMLESS_TARGETS.test(next.text)) {
          found.what.push(`${token.fd === '1' || token.fd === '&' ? '' : token.fd}${token.text} ${next.text}`);
          found.targets.push(next.text);
        }
      } else {
        found.what.push(token.text);
        found.unknown = true;
      }
      continue;
    }
    words.push(token.text);
  }
  const writes = found.what.length > 0;
  const variable = found.targets.some((p) => /[$`*?[~]/.test(p));
  return {
    writes,
    targets: writes && !found.unknown && !variable ? found.targets : writes ? null : [],
    what: found.what,
  };
}
