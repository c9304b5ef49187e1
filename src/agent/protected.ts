import path from 'node:path';
import { isInside } from '../paths.js';

/**
 * The rules' own files (issue 26, item 2): what no agent tool call may write, anchored or not. Inside the
 * worktree, relative to its root: hestai's state and protocol (`.hestai/`), the human-authored rules
 * (`.hestai_workspace.yaml`, `.hestai-sys/`), git's own directory (hooks, config, refs: git writes it for a
 * normal commit, an agent's tool never does), the agent runtimes' settings holding these hooks (`.claude/`,
 * `.codex/`, `.gemini/`, `.cursor/`, `.github/hooks/`, `.qwen/`, `.factory/`, OpenCode's and Kilo Code's plugins and config (`opencode.json(c)`, `kilo.json(c)` at any depth: OpenCode merges them upward), the MCP servers of `.mcp.json` (at any depth) and `.github/mcp.json`, Cline's hooks: an agent that rewrites them drops the hook judging it), and the installed package (`node_modules/hestai-hooks/`). One exception, {@link AGENT_WRITABLE}.
 */
export const PROTECTED_PATHS = [
  '.hestai/',
  '.hestai_workspace.yaml',
  '.hestai-sys/',
  '.git/',
  '.claude/',
  '.codex/',
  '.gemini/',
  '.cursor/',
  '.github/hooks/',
  '.qwen/',
  '.factory/',
  '.opencode/',
  '.kilo/',
  'opencode.json',
  'opencode.jsonc',
  'kilo.json',
  'kilo.jsonc',
  '.mcp.json',
  '.github/mcp.json',
  '.clinerules/hooks/',
  'node_modules/hestai-hooks/',
] as const;

/**
 * Under `.hestai/`, the one kind of file an agent may write: a context document directly in
 * `.hestai/context/` (`*.oct.md`, not the FAST layer in `state/`, nothing deeper). The default protocol's
 * END gate `context_docs` asks the agent to update them (the seed's documentation duty), and they are
 * project documents reviewed in git like code, not state hestai keeps about the agent (issue 15).
 */
export const AGENT_WRITABLE = /^\.hestai\/context\/[^/]+\.oct\.md$/;

/**
 * Under a runtime's settings directory, what the runtime's own tools write: Gemini CLI's temporary files
 * (`.gemini/tmp/`: the plans its plan mode writes with write_file, checkpoints) and OpenCode's and Kilo
 * Code's plans (`.opencode/plans/`, `.kilo/plans/`), never their settings or plugins.
 */
const RUNTIME_WRITABLE = /^\.(?:gemini\/tmp|opencode\/plans|kilo\/plans)\//;
const RUNTIME_DIRS: readonly string[] = ['.gemini/', '.opencode/', '.kilo/'];

/** Pure: is a path below a protected entry one of its exceptions? Never by way of a `..` component. */
function isException(rel: string): boolean {
  return (AGENT_WRITABLE.test(rel) || RUNTIME_WRITABLE.test(rel)) && !rel.split('/').includes('..');
}

/**
 * OpenCode's and Kilo Code's config files and `.mcp.json`, protected in every directory (OpenCode reads each
 * from the working directory upward; a runtime started in a subdirectory reads its `.mcp.json`).
 */
const ANY_DEPTH = /(?:^|\/)(?:(?:opencode|kilo)\.jsonc?|\.mcp\.json)$/;

/** Pure: the protected entry a worktree-relative path (forward slashes) falls under, or null. */
export function protectedEntry(relative: string): string | null {
  const rel = relative.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
  if (isException(rel)) return null;
  if (ANY_DEPTH.test(rel)) return rel.slice(rel.lastIndexOf('/') + 1);
  for (const entry of PROTECTED_PATHS) {
    if (entry.endsWith('/') ? rel === entry.slice(0, -1) || rel.startsWith(entry) : rel === entry) return entry;
  }
  return null;
}

/** A path component written with glob characters, as a test of a name (a leading `*` or `?` skips dot names). */
function componentMatches(component: string, name: string): boolean {
  if (!/[*?[]/.test(component)) return component === name;
  if (name.startsWith('.') && !component.startsWith('.') && !component.startsWith('[')) return false;
  const source = component
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c === '[' || c === ']' ? c : c.replace(/[.+^${}()|\\]/g, '\\$&')))
    .join('');
  try {
    return new RegExp(`^${source}$`).test(name);
  } catch {
    return true; // a pattern we cannot read: as if it named the file
  }
}

/** Brace expansion of one word (`.{git,hestai}/x` → `.git/x`, `.hestai/x`), bounded. */
export function expandBraces(word: string, limit = 64): string[] {
  const m = /\{([^{}]*,[^{}]*)\}/.exec(word);
  if (m === null) return [word];
  const out: string[] = [];
  for (const alt of m[1]!.split(',')) {
    for (const w of expandBraces(word.slice(0, m.index) + alt + word.slice(m.index + m[0].length), limit)) {
      if (out.length >= limit) return out;
      out.push(w);
    }
  }
  return out;
}

/** The protected names a path may carry anywhere in it, as consecutive components. */
const PROTECTED_NAMES: ReadonlyArray<{ names: readonly string[]; entry: string }> = [
  { names: ['.hestai_workspace.yaml'], entry: '.hestai_workspace.yaml' },
  { names: ['.hestai-sys'], entry: '.hestai-sys/' },
  { names: ['.git'], entry: '.git/' },
  { names: ['.claude'], entry: '.claude/' },
  { names: ['.codex'], entry: '.codex/' },
  { names: ['.gemini'], entry: '.gemini/' },
  { names: ['.cursor'], entry: '.cursor/' },
  { names: ['.github', 'hooks'], entry: '.github/hooks/' },
  { names: ['.qwen'], entry: '.qwen/' },
  { names: ['.factory'], entry: '.factory/' },
  { names: ['.opencode'], entry: '.opencode/' },
  { names: ['.kilo'], entry: '.kilo/' },
  { names: ['opencode.json'], entry: 'opencode.json' },
  { names: ['opencode.jsonc'], entry: 'opencode.jsonc' },
  { names: ['kilo.json'], entry: 'kilo.json' },
  { names: ['kilo.jsonc'], entry: 'kilo.jsonc' },
  { names: ['.mcp.json'], entry: '.mcp.json' },
  { names: ['.github', 'mcp.json'], entry: '.github/mcp.json' },
  { names: ['.clinerules', 'hooks'], entry: '.clinerules/hooks/' },
  { names: ['node_modules', 'hestai-hooks'], entry: 'node_modules/hestai-hooks/' },
  { names: ['.cache', 'hestai'], entry: '~/.cache/hestai/' },
  { names: ['.config', 'hestai'], entry: '~/.config/hestai/' },
  { names: ['.hestai'], entry: '.hestai/' },
];

/**
 * Pure: the protected entry a path names by its components wherever it points (`x/.git/hooks/pre-commit`,
 * `~/.claude/settings.json`, `.h?stai/...`, `node_modules/*`), or null. This is the check for words whose
 * directory is unknown (a shell variable, an interpreter's code): a `.hestai/context/*.oct.md` stays writable
 * unless `exceptions` is false (a word whose real place no one can know: it may be a link out of it).
 */
export function protectedName(word: string, exceptions = true): string | null {
  for (const expanded of expandBraces(word.replace(/\\/g, '/'))) {
    const components = expanded.split('/');
    for (let i = 0; i < components.length; i++) {
      for (const { names, entry } of PROTECTED_NAMES) {
        if (!names.every((n, j) => components[i + j] !== undefined && componentMatches(components[i + j]!, n)))
          continue;
        const rest = components.slice(i).join('/');
        const writable = exceptions && (entry === '.hestai/' || RUNTIME_DIRS.includes(entry)) && isException(rest);
        if (!writable || /[*?[]/.test(expanded)) return entry;
      }
    }
  }
  return null;
}

/**
 * Pure: the pieces of a shell word that may name a path (`--out=.hestai/x`, `open('.git/config','w')`,
 * `of=...`): split on quotes, `=`, `:`, `,`, `;`, parentheses and spaces.
 */
export function pathPieces(word: string): string[] {
  return word.split(/[\s'"`=:,;()<>|&]+/).filter((p) => p !== '');
}

/**
 * The protected directories outside the worktree, absolute: `~/.claude/`, hestai's user cache and config
 * directories, and the installed package when it lies outside the worktree (a global install, or `hestai`
 * run by path). From the environment and the package root the caller passes; pure.
 */
export function protectedOutside(env: NodeJS.ProcessEnv, packageRoot: string | null, root: string): string[] {
  const home = env['HOME'];
  const dirs: string[] = [];
  if (home && path.isAbsolute(home)) {
    dirs.push(path.join(home, '.claude'), path.join(home, '.cache', 'hestai'), path.join(home, '.config', 'hestai'));
  }
  const xdgCache = env['XDG_CACHE_HOME'];
  if (xdgCache && path.isAbsolute(xdgCache)) dirs.push(path.join(xdgCache, 'hestai'));
  const xdgConfig = env['XDG_CONFIG_HOME'];
  if (xdgConfig && path.isAbsolute(xdgConfig)) dirs.push(path.join(xdgConfig, 'hestai'));
  if (packageRoot !== null && !isInside(packageRoot, root) && !isInside(root, packageRoot)) dirs.push(packageRoot);
  return dirs;
}
