/**
 * What an agent may do before its anchor (issue 26, item 1; DESIGN.md "Deny by default where the agent acts
 * before its anchor"): the documented read-only list, as data. A shell command passes unanchored only when
 * every part of it is a command on this list, used with flags the list allows; any other command, tool or
 * form is a write. docs/agents.md ("Before the anchor: the read-only list") prints this list; every entry
 * and every refused form has its test in test/unit/agent/read-only.test.ts.
 *
 * Pure data and pure checks over words (no fs, no env): `bash-writes.ts` tokenizes a command and asks here.
 */

import { isHestaiMcpTool, toolPatternMatches } from '../util/agent-tools.js';

/** How a read-only command may be used. */
export interface ReadOnlyEntry {
  /**
   * Options that make it write or run other code. `-x` (one letter) is also found inside a bundle (`-uo`);
   * `--long` also as `--long=value`; a single-dash word (`-exec`) only as itself.
   */
  refuse?: readonly string[];
  /** At most this many operands (`uniq in out` writes `out`). */
  maxOperands?: number;
  /** A custom rule over the arguments: the reason it is not a read, or null. */
  check?: (args: readonly string[]) => string | null;
}

/** sed scripts that only print: addresses with p/d/q/=/n, and s/// without the w or e flag. */
const SED_ADDRESS = String.raw`(?:\d+|\$|/(?:[^/\\]|\\.)*/)(?:,(?:\d+|\$|/(?:[^/\\]|\\.)*/|\+\d+))?!?`;
const SED_PART = new RegExp(
  String.raw`^(?:${SED_ADDRESS})?\s*(?:[pdqn=]|s(?<d>[^\s\\w])(?:(?!\k<d>)[^\\]|\\.)*\k<d>(?:(?!\k<d>)[^\\]|\\.)*\k<d>[gpiIm0-9]*)?$`,
);
/** Pure: does a sed script only print (no `w`, `W`, `e`, `r`, `R` commands, no s///w or s///e)? */
export function sedScriptReads(script: string): boolean {
  return script
    .split(/[;\n]/)
    .map((part) => part.trim())
    .every((part) => SED_PART.test(part));
}

function sedCheck(args: readonly string[]): string | null {
  const scripts: string[] = [];
  let operands = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-e' || a === '--expression') scripts.push(args[++i] ?? '');
    else if (a.startsWith('--expression=')) scripts.push(a.slice('--expression='.length));
    else if (a === '-f' || a.startsWith('--file') || /^-[A-Za-z]*f/.test(a)) return 'sed -f (a script from a file)';
    else if (/^-[A-Za-z]*i/.test(a) || a.startsWith('--in-place')) return 'sed -i';
    else if (a.startsWith('-') && a !== '-') continue;
    else if (operands++ === 0 && scripts.length === 0) scripts.push(a);
  }
  return scripts.every(sedScriptReads) ? null : 'a sed script that writes or runs commands (w, W, e, r)';
}

/** Reading `git` subcommands, each with its own rule (`git -c` and `--config-env` are refused before these). */
export const GIT_READS: Readonly<Record<string, ReadOnlyEntry>> = {
  status: {},
  log: { refuse: ['--output'] },
  show: { refuse: ['--output'] },
  diff: { refuse: ['--output'] },
  'rev-parse': {},
  'rev-list': {},
  'ls-files': {},
  'ls-tree': {},
  'cat-file': {},
  blame: {},
  grep: { refuse: ['-O', '--open-files-in-pager'] },
  describe: {},
  shortlog: {},
  'merge-base': {},
  'show-ref': {},
  'for-each-ref': {},
  'name-rev': {},
  'check-ignore': {},
  'check-attr': {},
  help: {},
  version: {},
  branch: { check: (args) => listOnly('branch', args) },
  tag: { check: (args) => listOnly('tag', args) },
  remote: {
    check: (args) => {
      const ops = operands(args);
      return ops.length === 0 || ops[0] === 'show' || ops[0] === 'get-url' ? null : `git remote ${ops[0]}`;
    },
  },
  config: { check: (args) => configReads(args) },
  stash: { check: (args) => subOnly('stash', args, ['list', 'show']) },
  worktree: { check: (args) => subOnly('worktree', args, ['list']) },
  reflog: {
    check: (args) => (operands(args).length === 0 ? null : subOnly('reflog', args, ['show'])),
  },
};

/** `git config`'s reading action options: the fewest and most operands each takes. */
const CONFIG_READ_OPTIONS: Readonly<Record<string, readonly [number, number]>> = {
  '--get': [1, 2],
  '--get-all': [1, 2],
  '--get-regexp': [1, 2],
  '--get-urlmatch': [2, 2],
  '--get-color': [1, 2],
  '--get-colorbool': [1, 2],
  '--list': [0, 0],
  '-l': [0, 0],
};
/** `git config`'s reading subcommands (git 2.46+), as its FIRST operand: the fewest and most operands after it. */
const CONFIG_READ_SUBCOMMANDS: Readonly<Record<string, readonly [number, number]>> = { get: [1, 1], list: [0, 0] };
/** Options that only choose where to read or how to print (`--x value` also as `--x=value`). */
const CONFIG_FLAGS = new Set([
  ...['--global', '--system', '--local', '--worktree', '--includes', '--no-includes', '--no-type'],
  ...['--bool', '--int', '--bool-or-int', '--path', '--expiry-date', '-z', '--null', '--name-only'],
  ...['--show-origin', '--show-scope', '--all', '--regexp', '--fixed-value'],
]);
const CONFIG_WITH_VALUE = new Set(['-f', '--file', '--blob', '--type', '--default', '--value', '--url']);

/**
 * `git config` reads only with one reading action, an option (`--get`, `--list`, ...) or `get`/`list` as the
 * FIRST operand, and at most the operands that action takes: `git config core.hooksPath list` sets the value
 * "list". Any other option (`--add`, `--unset`, `--edit`, one this list does not know) is a write.
 */
function configReads(args: readonly string[]): string | null {
  const ops: string[] = [];
  let action: readonly [number, number] | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.indexOf('=');
    const flag = a.startsWith('--') && eq !== -1 ? a.slice(0, eq) : a;
    if (!a.startsWith('-') || a === '-') ops.push(a);
    else if (Object.hasOwn(CONFIG_READ_OPTIONS, a)) {
      if (action !== undefined) return 'git config with two actions';
      action = CONFIG_READ_OPTIONS[a];
    } else if (CONFIG_WITH_VALUE.has(flag)) i += flag === a ? 1 : 0;
    else if (!CONFIG_FLAGS.has(a)) return `git config ${flag}`;
  }
  const sub = ops[0] !== undefined && Object.hasOwn(CONFIG_READ_SUBCOMMANDS, ops[0]) ? ops[0] : undefined;
  if (sub !== undefined) {
    if (action !== undefined) return 'git config with two actions';
    action = CONFIG_READ_SUBCOMMANDS[sub];
    ops.shift();
  }
  if (action === undefined) return 'git config without --get/--list or get/list first (sets a value)';
  const [least, most] = action;
  if (ops.length < least || ops.length > most) return `git config ${ops.join(' ')} (sets a value)`.trim();
  return null;
}

/** The non-option words of an argument list. */
function operands(args: readonly string[]): string[] {
  return args.filter((a) => !a.startsWith('-'));
}

function subOnly(name: string, args: readonly string[], allowed: readonly string[]): string | null {
  const sub = operands(args)[0];
  return sub !== undefined && allowed.includes(sub) ? null : `git ${name} ${sub ?? ''}`.trim();
}

/** `git branch` / `git tag` only list: known listing flags, and operands only as patterns of `-l`/`--list`. */
function listOnly(name: string, args: readonly string[]): string | null {
  const flags =
    /^(-a|-r|-l|-v|-vv|-n\d*|--all|--remotes|--list|--verbose|--show-current|--column|--no-column|--color|--no-color|--sort=.*|--format=.*|--contains|--no-contains|--merged|--no-merged|--points-at|--ignore-case|--omit-empty)$/;
  const withValue = new Set(['--contains', '--no-contains', '--merged', '--no-merged', '--points-at']);
  const listing = args.includes('-l') || args.includes('--list');
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('-')) {
      if (!flags.test(a)) return `git ${name} ${a}`;
      if (withValue.has(a)) i++;
    } else if (!listing) return `git ${name} ${a} (creates)`;
  }
  return null;
}

/** Reading `hestai` subcommands: the ceremony itself (hestai checks each); never init, trust, ack, cleanup, anchor reset. */
export const HESTAI_READS: Readonly<Record<string, ReadOnlyEntry>> = {
  'clock-in': {},
  anchor: { check: (args) => (operands(args)[0] === 'reset' ? 'hestai anchor reset (a human lifts a lock)' : null) },
  status: {},
  refresh: {},
  'clock-out': {},
  session: {},
  check: {},
  verify: {},
  doctor: {},
  conflict: {},
  'odyssean-anchor': {},
  help: {},
};

/** The shell commands that only read, with the flags that would make them write refused. */
export const READ_ONLY_COMMANDS: Readonly<Record<string, ReadOnlyEntry>> = {
  ls: {},
  cat: {},
  head: {},
  tail: {},
  wc: {},
  nl: {},
  grep: {},
  egrep: {},
  fgrep: {},
  rg: { refuse: ['--pre'] },
  find: { refuse: ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'] },
  fd: { refuse: ['-x', '--exec', '-X', '--exec-batch'] },
  tree: { refuse: ['-o'] },
  sort: { refuse: ['-o', '--output', '--compress-program'] },
  uniq: { maxOperands: 1 },
  cut: {},
  tr: {},
  column: {},
  diff: {},
  cmp: {},
  comm: {},
  stat: {},
  file: {},
  du: {},
  df: {},
  realpath: {},
  readlink: {},
  basename: {},
  dirname: {},
  pwd: {},
  echo: {},
  printf: {},
  true: {},
  false: {},
  ':': {},
  test: {},
  '[': {},
  which: {},
  type: {},
  date: { refuse: ['-s', '--set'] },
  printenv: {},
  env: { maxOperands: 0, refuse: ['-S', '--split-string', '-C', '--chdir'] },
  id: {},
  whoami: {},
  uname: {},
  hostname: { maxOperands: 0 },
  jq: {},
  xxd: { maxOperands: 1 },
  od: {},
  md5sum: {},
  sha1sum: {},
  sha256sum: {},
  sha512sum: {},
  cksum: {},
  sleep: {},
  sed: { check: sedCheck },
  git: {}, // its subcommands: GIT_READS
  hestai: {}, // its subcommands: HESTAI_READS (also as `npx hestai` and the package's own dist/cli/bin.js)
  node: { check: (args) => (args.length === 1 && (args[0] === '--version' || args[0] === '-v') ? null : 'node') },
  npm: {
    check: (args) =>
      (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) ||
      ['ls', 'list', 'view', 'outdated', 'explain', 'why'].includes(args[0] ?? '')
        ? null
        : `npm ${args[0] ?? ''}`.trim(),
  },
  cd: {}, // tracked: later relative paths are resolved against it
  pushd: {},
  popd: {},
};

/** Prefixes that run the command after them unchanged (`time ls` reads as `ls` does). */
export const READ_PREFIXES = ['time', 'nohup', 'command', 'builtin'] as const;

/**
 * Variables a read may set for itself (`LC_ALL=C grep ...`). Any other assignment is a write: `GIT_PAGER`,
 * `GIT_EXTERNAL_DIFF`, `GIT_CONFIG_*` or `PATH` make a reading command run other code.
 */
export const SAFE_ASSIGNMENTS = /^(LC_[A-Z]+|LANG|LANGUAGE|TZ|NO_COLOR|FORCE_COLOR|COLUMNS|LINES|TERM|HESTAI_SESSION)=/;

/**
 * PowerShell cmdlets and aliases that only read (case-insensitive). A PowerShell part passes only when it
 * names one of these (or `git` with a reading subcommand, or `cd`/`Set-Location`) and has no redirection,
 * script block, subexpression or call operator.
 */
export const POWERSHELL_READS: readonly string[] = [
  'get-childitem',
  'gci',
  'ls',
  'dir',
  'get-content',
  'gc',
  'cat',
  'type',
  'select-string',
  'sls',
  'get-location',
  'gl',
  'pwd',
  'test-path',
  'get-item',
  'gi',
  'resolve-path',
  'get-command',
  'gcm',
  'write-output',
  'echo',
  'write-host',
  'measure-object',
  'get-date',
  'split-path',
  'join-path',
  'get-filehash',
  'set-location',
  'sl',
  'cd',
  'chdir',
];

/**
 * Tools of the agent runtimes that only read (Claude Code's, Gemini CLI's), plus hestai's own MCP tools
 * (`mcp__hestai__*`: the ceremony, each checked by the server itself). Any other tool, including every other
 * `mcp__*` tool, is a write.
 */
export const READ_TOOLS: readonly string[] = [
  'Read',
  'Glob',
  'Grep',
  'LS',
  'NotebookRead',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
  'TodoRead',
  'Task',
  'ExitPlanMode',
  'BashOutput',
  'KillShell',
  'KillBash',
  'AskUserQuestion',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
  // Gemini CLI (0.61): its reading tools, its plan and to-do tools, and asking the user. Its tracker_*,
  // save_memory, invoke_agent and complete_task tools are not here: they write, or run tools of their own.
  'read_file',
  'read_many_files',
  'list_directory',
  'glob',
  'search_file_content',
  'grep_search',
  'google_web_search',
  'web_fetch',
  'write_todos',
  'get_internal_docs',
  'activate_skill',
  'ask_user',
  'enter_plan_mode',
  'exit_plan_mode',
  'list_mcp_resources',
  'read_mcp_resource',
];

/**
 * Pure: is a tool (not a shell or edit tool) a read by the built-in list, or by `listed` (the base policy's
 * `agents.read_tools`: exact names and `prefix*`, validated by the config schema)?
 */
export function isReadTool(tool: string, listed: readonly string[] = []): boolean {
  return (
    READ_TOOLS.includes(tool) || isHestaiMcpTool(tool) || listed.some((pattern) => toolPatternMatches(pattern, tool))
  );
}

/** Pure: does an argument list use one of an entry's refused options? */
function refusedOption(entry: ReadOnlyEntry, args: readonly string[]): string | null {
  for (const refused of entry.refuse ?? []) {
    const short = /^-[A-Za-z]$/.test(refused);
    const long = refused.startsWith('--');
    for (const a of args) {
      if (a === '--') break;
      if (a === refused) return refused;
      if (long && a.startsWith(`${refused}=`)) return refused;
      if (short && /^-[A-Za-z0-9]+$/.test(a) && a.slice(1).includes(refused[1]!)) return refused;
    }
  }
  return null;
}

/**
 * Pure: why a command (its name, as written, and its arguments) is not a read, or null when it is.
 * `hestaiBins`: the absolute paths that are this package's own CLI (`…/dist/cli/bin.js`) or hook entry
 * (`…/hooks/claude-code`, run by the rebind step): `node <one of them> …` is hestai.
 */
export function notReadOnly(name: string, args: readonly string[], hestaiBins: readonly string[] = []): string | null {
  if (name === 'npx') {
    let k = 0;
    while (k < args.length && (args[k] === '--no-install' || args[k] === '--no' || args[k] === '--offline')) k++;
    return args[k] === 'hestai' ? notReadOnly('hestai', args.slice(k + 1)) : `npx ${args[k] ?? ''}`.trim();
  }
  if (name === 'node' && args[0] !== undefined && hestaiBins.includes(args[0])) {
    return args[0].endsWith('claude-code') ? null : notReadOnly('hestai', args.slice(1));
  }
  const entry = Object.prototype.hasOwnProperty.call(READ_ONLY_COMMANDS, name) ? READ_ONLY_COMMANDS[name] : undefined;
  if (entry === undefined) return name;
  if (name === 'git') return gitNotReadOnly(args);
  if (name === 'hestai') {
    let k = 0;
    while (k < args.length && args[k]!.startsWith('-')) k++;
    if (k === args.length) return null; // --version, --help
    const sub = HESTAI_READS[args[k]!];
    return sub === undefined ? `hestai ${args[k]}` : (sub.check?.(args.slice(k + 1)) ?? null);
  }
  return entryNotReadOnly(name, entry, args);
}

function entryNotReadOnly(name: string, entry: ReadOnlyEntry, args: readonly string[]): string | null {
  const refused = refusedOption(entry, args);
  if (refused !== null) return `${name} ${refused}`;
  if (entry.maxOperands !== undefined && operands(args).length > entry.maxOperands)
    return `${name} with more than ${entry.maxOperands} operand${entry.maxOperands === 1 ? '' : 's'}`;
  return entry.check?.(args) ?? null;
}

/** Global options of git a read may use (each with its value where it takes one). */
const GIT_GLOBAL_READS = new Map<string, number>([
  ['-C', 1],
  ['--no-pager', 0],
  ['-P', 0],
  ['--no-optional-locks', 0],
  ['--literal-pathspecs', 0],
  ['--git-dir', 1],
  ['--work-tree', 1],
]);

function gitNotReadOnly(args: readonly string[]): string | null {
  let j = 0;
  while (j < args.length && args[j]!.startsWith('-')) {
    const a = args[j]!;
    const eq = a.indexOf('=');
    const flag = eq === -1 ? a : a.slice(0, eq);
    const takes = GIT_GLOBAL_READS.get(flag);
    if (a === '--version' || a === '--help') return null;
    if (takes === undefined) return `git ${flag}`;
    j += 1 + (eq === -1 ? takes : 0);
  }
  const sub = args[j];
  if (sub === undefined) return null;
  const entry = Object.prototype.hasOwnProperty.call(GIT_READS, sub) ? GIT_READS[sub] : undefined;
  if (entry === undefined) return `git ${sub}`;
  const why = entryNotReadOnly(`git ${sub}`, entry, args.slice(j + 1));
  return why;
}
