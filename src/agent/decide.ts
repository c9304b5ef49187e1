import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { WorkspaceConfig } from '../config/schema.js';
import { hasValidAnchor } from '../records/anchor.js';
import { judgeSessionAct, verdictCode, type VerdictCode } from '../hooks/session-verdict.js';
import type { WorkspacePaths } from '../paths.js';
import { isLive, readSession } from '../records/session.js';
import { pathPieces, protectedEntry, protectedName, protectedOutside } from './protected.js';
import { classifyToolUse, listableTool, type ToolClass, type ToolUse } from './tool-use.js';
import { isInside, pathInside } from '../paths.js';
import { claudeMcpName, type HestaiMcpName } from '../util/agent-tools.js';
import { onPath } from '../util/invocation.js';
import type { HestaiForm } from './shell.js';

/** Why a tool call was allowed or refused. */
export type ToolUseCode =
  | 'READ'
  | 'HESTAI'
  | 'OUTSIDE_WORKTREE'
  | 'ALLOWED'
  | 'PROTECTED_PATH'
  | 'NO_SESSION'
  | 'SESSION_GONE'
  | 'NO_ANCHOR'
  | 'TERMINAL'
  | 'STALE'
  | 'PROTOCOL';

export interface ToolUseDecision {
  allow: boolean;
  code: ToolUseCode;
  /** One sentence: what was decided and why. */
  reason: string;
  /** The exact MCP tool call or command that fixes a refusal (null when allowed). */
  fix: string | null;
  /** The hestai session judged, when there was one. */
  session_id: string | null;
  /** The tool judged (`Edit`, `Bash`, ...), `read` or `hestai`. */
  what: string;
  /** The session verdict's reason code when the session's verdict refused it (src/hooks/session-verdict.ts). */
  verdict?: VerdictCode;
}

export interface ToolUseInput {
  paths: WorkspacePaths;
  /** The directory the call runs in: its relative paths are resolved against it (never where the root is found). */
  cwd: string;
  use: ToolUse;
  /** The agent's own hestai session (its binding or an explicit id), or null when it has none. */
  sessionId: string | null;
  /** The fix when the agent has no session: runtime-specific (Claude Code: its SessionStart binds one). */
  noSessionFix: string;
  /** The workspace config, or its loader: read only when it can change the verdict (a valid anchor). */
  config: WorkspaceConfig | (() => Promise<WorkspaceConfig>);
  now: Date;
  /** How a command line calls hestai here (`hestai`, or `node '/path/dist/cli/bin.js'`). */
  cli: string;
  /** The environment (the protocol's command-trust check reads it; HOME and the XDG directories). */
  env: NodeJS.ProcessEnv;
  /** hestai's MCP tool as the agent's runtime calls it, for the fixes (default: `mcp__hestai__<tool>`). */
  mcpTool?: HestaiMcpName;
  /**
   * The installed package's root: `node <root>/dist/cli/bin.js` and its hook entry count as hestai (the
   * ceremony is allowed before the anchor), and the package is protected when it lies outside the worktree.
   */
  packageRoot?: string;
}

/**
 * The anchor ceremony as one next step: the MCP tool `anchor`, named as the agent's runtime calls it
 * (`mcpTool`), with the identity stage's arguments, then the other stages — or the CLI's.
 */
export function anchorStep(root: string, token: string, role: string, cli: string, mcpTool: HestaiMcpName): string {
  const name = mcpTool('anchor');
  return `call the MCP tool anchor (${name ?? 'of the hestai server'}) with ${JSON.stringify({ stage: 'identity', working_dir: root, session_id: token, role })}, then stage "context" (your ## BIND) and stage "proof" (## TENSION + ## COMMIT) with the same working_dir and session_id — or run ${cli} anchor --stage identity --role ${role} --token ${token} (then --stage context and --stage proof)`;
}

/** The absolute paths that run hestai from a package root: its CLI and its hook entries (see `isHestaiStart`). */
export function hestaiBins(packageRoot: string | undefined): string[] {
  return packageRoot === undefined
    ? []
    : ['dist/cli/bin.js', 'hooks/claude-code', 'hooks/agent-hook'].map((file) => path.join(packageRoot, file));
}

/**
 * The short form that runs the installed CLI here (never a `hestai` the agent planted): `hestai` when the
 * first on PATH is the package's bin. Never `npx hestai` (npm's config can redirect it).
 */
function hestaiForms(packageRoot: string | undefined, env: NodeJS.ProcessEnv): HestaiForm[] {
  if (packageRoot === undefined) return [];
  return onPath(env, path.join(packageRoot, 'dist', 'cli', 'bin.js')) ? ['hestai'] : [];
}

/** `file` with its symbolic links resolved, or null when it cannot be. */
function realOrNull(file: string): string | null {
  try {
    return fs.realpathSync(file);
  } catch {
    return null;
  }
}

/**
 * Before the anchor, where a write outside the worktree may go (issue 37 review): the OS temporary directory
 * (resolved), and only while no PATH entry, nor HOME, lies in it (a program or npm config planted there would
 * run). Null when nowhere. A relative PATH entry counts as inside.
 */
export function preAnchorScratch(cwd: string, env: NodeJS.ProcessEnv): string | null {
  const tmp = realOrNull(os.tmpdir());
  if (tmp === null) return null;
  const entries = (env['PATH'] ?? '').split(path.delimiter);
  const home = env['HOME'];
  for (const entry of home ? [...entries, home] : entries) {
    if (!path.isAbsolute(entry)) return null;
    if (isInside(tmp, realTarget(cwd, entry)) || isInside(tmp, path.resolve(entry))) return null;
  }
  return tmp;
}

/**
 * `target` (relative to `cwd`) as the kernel finds it: symbolic links of its existing components resolved in
 * order, so `link/../f` is the parent of where `link` points, and a link into `.hestai/` is `.hestai/`.
 */
export function realTarget(cwd: string, target: string): string {
  const absolute = path.isAbsolute(target) ? target : `${cwd}${path.sep}${target}`;
  const parts = absolute.split(/[\\/]+/);
  if (!parts.includes('..')) {
    let existing = path.resolve(absolute);
    const rest: string[] = [];
    for (;;) {
      try {
        return path.join(fs.realpathSync(existing), ...rest.reverse());
      } catch {
        const parent = path.dirname(existing);
        if (parent === existing) return path.resolve(absolute);
        rest.push(path.basename(existing));
        existing = parent;
      }
    }
  }
  let current = path.parse(path.resolve(absolute)).root;
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, part);
    try {
      current = fs.lstatSync(next, { throwIfNoEntry: false })?.isSymbolicLink() ? fs.realpathSync(next) : next;
    } catch {
      current = next; // a dangling link, or one we may not read: its name
    }
  }
  return current;
}

/**
 * `~`, `$HOME` and `$PWD` at the start of a path, as the shell expands them (`$PWD`: the directory the command
 * runs in, `cwd`); other variables stay (unknown).
 */
function expandHome(target: string, env: NodeJS.ProcessEnv, cwd?: string): string {
  const home = env['HOME'];
  const homed = home ? target.replace(/^(~|\$HOME|\$\{HOME\})(?=\/|$)/, home) : target;
  return cwd === undefined ? homed : homed.replace(/^(\$PWD|\$\{PWD\})(?=\/|$)/, cwd);
}

/**
 * Pure but for the filesystem's symbolic links: the protected entry a mentioned path falls under, by its
 * name wherever it points (`protectedName`) and by where it really lands (inside the worktree, the
 * protected paths; outside, `protectedOutside`), or null.
 */
function protectedMention(
  root: string,
  cwd: string,
  mention: string,
  outside: readonly string[],
  env: NodeJS.ProcessEnv,
): { entry: string; shown: string } | null {
  for (const piece of new Set([mention, ...pathPieces(mention)])) {
    const expanded = expandHome(piece, env, cwd);
    // A word with no unknown variable is judged where it really lands (links followed), then by its name.
    const known = !/[$`]/.test(expanded);
    if (known && expanded !== '') {
      const real = realTarget(cwd, expanded);
      const rel = pathInside(root, real);
      if (rel !== null) {
        const entry = protectedEntry(rel) ?? protectedName(rel);
        if (entry !== null) return { entry, shown: rel };
      } else {
        const dir = outside.find((d) => isInside(d, real));
        if (dir !== undefined) return { entry: `${dir}/`, shown: real };
        const byName = protectedName(real);
        if (byName !== null) return { entry: byName, shown: real };
      }
    }
    // The worktree's own location is the user's business: only the part of a path below the root is read.
    // A word whose place is unknown gets no exception: it may be a link out of .hestai/context/ or .gemini/tmp/.
    const below = path.isAbsolute(expanded) ? pathInside(root, expanded) : null;
    const byName = protectedName(below ?? expanded, known);
    if (byName !== null) return { entry: byName, shown: piece };
  }
  return null;
}

/** Why each protected entry is never an agent's to write (the refusal's reason). */
function protectedWhy(entry: string): string {
  if (entry === '.hestai/') return 'it holds the sessions, anchors, protocol and audit log hestai keeps about you';
  if (entry === '.hestai_workspace.yaml' || entry === '.hestai-sys/') return 'its rules are set by humans';
  if (entry === '.git/') return "it is git's own (hooks, config, refs): change the repository through git commands";
  return 'it holds the hooks and settings that check your edits';
}

const deny = (
  code: ToolUseCode,
  reason: string,
  fix: string,
  session_id: string | null,
  what: string,
): ToolUseDecision => ({ allow: false, code, reason, fix, session_id, what });

/**
 * The edit-time rule (issues 16, 37): a call that writes inside the worktree, and every shell command, needs the
 * agent's own session to be allowed to act — the same `judgeSession` the pre-commit hook asks (valid anchor,
 * handshake not terminal, context fresh or acknowledged). Reads and hestai's own start commands are always
 * allowed; an edit outside the worktree before the anchor only in a clean temporary directory (`preAnchorScratch`); `PROTECTED_PATHS` (hestai's own state,
 * human-authored config, these hooks) are refused to agents whatever their session. With `protocol.enforce`, no
 * blocking start gate of the session protocol may be unmet either. Reads state, writes nothing.
 */
export async function decideToolUse(input: ToolUseInput): Promise<ToolUseDecision> {
  // Which hestai forms run the installed CLI is a PATH lookup, asked only for a command (not on every Edit).
  const forms = input.use.command !== null ? hestaiForms(input.packageRoot, input.env) : [];
  const cls = classifyToolUse(input.use, hestaiBins(input.packageRoot), [], forms, input.sessionId);
  if (cls.kind === 'read')
    return { allow: true, code: 'READ', reason: 'reads are never gated', fix: null, session_id: null, what: 'read' };
  if (cls.kind === 'hestai')
    return {
      allow: true,
      code: 'HESTAI',
      reason: "hestai's own start command",
      fix: null,
      session_id: null,
      what: 'hestai',
    };
  const decision = await decideWrite(input, cls);
  if (decision.allow || !listableTool(input.use)) return decision;
  // A tool hestai does not know is a write unless the base policy lists it as a read (agents.read_tools):
  // asked only now, so an allowed call never pays for reading the base.
  const { baseReadTools } = await import('./base-read-tools.js');
  const base = await baseReadTools(input.paths.root);
  if (classifyToolUse(input.use, [], base.patterns).kind === 'read')
    return {
      allow: true,
      code: 'READ',
      reason: `${input.use.tool} is listed as a read in agents.read_tools of ${base.where}`,
      fix: null,
      session_id: null,
      what: 'read',
    };
  const unlisted =
    base.problem === null
      ? `not listed in agents.read_tools of ${base.where}`
      : `agents.read_tools of ${base.where} cannot be read: ${base.problem}`;
  return { ...decision, what: `${decision.what} (a tool hestai does not know, so a write: ${unlisted})` };
}

/** What a refused shell command adds to its reason. */
const SHELL_WAITS =
  "no shell command runs before the anchor (but hestai's own start commands, docs/agents.md); your read tools (Read, Grep, Glob, LS and the like) stay available";

async function decideWrite(
  input: ToolUseInput,
  cls: Exclude<ToolClass, { kind: 'read' } | { kind: 'hestai' }>,
): Promise<ToolUseDecision> {
  const { paths, cli } = input;
  const what = cls.what;
  const root = paths.root;
  if (input.use.refuse !== undefined)
    return deny(
      'PROTECTED_PATH',
      `${input.use.tool}: ${input.use.refuse.reason}; it might write a path agents never write (hestai's state, its config, git hooks)`,
      input.use.refuse.fix,
      input.sessionId,
      what,
    );
  const outside = protectedOutside(input.env, input.packageRoot ?? null, root);
  for (const mention of cls.mentions) {
    const hit = protectedMention(root, input.cwd, mention, outside, input.env);
    if (hit !== null) {
      return deny(
        'PROTECTED_PATH',
        `${hit.shown} is under ${hit.entry}, which agents never write: ${protectedWhy(hit.entry)}`,
        hit.entry === '.hestai/'
          ? `change hestai state only through hestai: the MCP tools (clock_in, anchor, clock_out) or ${cli} (refresh, clock-out)`
          : `leave ${hit.shown} as it is; if it must change, ask a human to change it`,
        input.sessionId,
        what,
      );
    }
  }
  if (cls.kind === 'write' && cls.targets !== null) {
    // Outside the worktree, before the anchor, only a temporary directory no program runs from.
    const real = cls.targets.map((target) => realTarget(input.cwd, expandHome(target, input.env)));
    const scratch = preAnchorScratch(input.cwd, input.env);
    if (scratch !== null && real.every((target) => isInside(scratch, target) && !isInside(root, target)))
      return {
        allow: true,
        code: 'OUTSIDE_WORKTREE',
        reason: 'writes to the temporary directory outside the worktree are not gated',
        fix: null,
        session_id: null,
        what,
      };
  }
  const decision = await decideAct(input, what);
  return decision.allow || cls.kind !== 'shell'
    ? decision
    : { ...decision, reason: `${decision.reason}; ${SHELL_WAITS}` };
}

/** May the agent's session act (change the worktree, run its shell)? The session's verdict as a decision. */
async function decideAct(input: ToolUseInput, what: string): Promise<ToolUseDecision> {
  const { paths, cli } = input;
  const token = input.sessionId;
  if (token === null)
    return {
      ...deny('NO_SESSION', 'this agent has no hestai session', input.noSessionFix, null, what),
      verdict: 'NO_SESSION',
    };
  const session = readSession(paths, token);
  if (session === null || !isLive(session)) {
    return {
      ...deny(
        'SESSION_GONE',
        `your hestai session ${token} is ${session === null ? 'no longer active (clocked out or cleaned up)' : session.state}`,
        input.noSessionFix,
        token,
        what,
      ),
      verdict: 'NO_SESSION',
    };
  }
  const role = session.role;
  const anchorCall = anchorStep(paths.root, token, role, cli, input.mcpTool ?? claudeMcpName);
  const verdict = await judgeSessionAct(paths, session, input.config, input.env, input.now, {
    anchor: hasValidAnchor(paths, token),
    cli,
  });
  if (verdict.ok)
    return {
      allow: true,
      code: 'ALLOWED',
      reason: `session ${token} is anchored and its context ${Math.floor(verdict.ageHours)} h old`,
      fix: null,
      session_id: token,
      what,
    };
  const code = verdict.code;
  const refuse = (reason: string, fix: string): ToolUseDecision => ({
    ...deny(code, reason, fix, token, what),
    verdict: verdictCode(verdict),
  });
  switch (verdict.code) {
    case 'PROTOCOL': {
      const gate = verdict.protocol;
      const first = gate.unmet[0];
      const gates = gate.unmet.map((u) => `${u.result.phase}/${u.result.gate} (${u.result.step})`).join('; ');
      return refuse(
        gates === '' ? gate.reason : `${gate.reason}: ${gates}`,
        first ? `call the MCP tool ${first.mcp} — or run ${first.cli}` : gate.remedy,
      );
    }
    case 'NO_ANCHOR': {
      const broken =
        verdict.anchor.code === 'TAMPERED' ||
        verdict.anchor.code === 'TOKEN_MISMATCH' ||
        verdict.anchor.code === 'CORRUPT';
      return refuse(
        `session ${token} (role ${role}) has no valid anchor: ${verdict.anchor.reason}`,
        broken ? `do not edit .hestai/; anchor again: ${anchorCall}` : anchorCall,
      );
    }
    case 'TERMINAL':
      return refuse(
        `the anchor handshake of session ${token} is terminal (locked after failed retries)`,
        `stop and ask a human to review and reset it: ${cli} anchor reset --token ${token} --reason "..." (audited; an agent must not run it), then anchor again`,
      );
    case 'STALE':
      return refuse(
        `the context of session ${token} was generated ${Math.floor(verdict.ageHours)} h ago (${session.context_generated_at}), older than freshness.max_age_hours (${verdict.limitHours} h), and is not acknowledged`,
        `regenerate it and re-read it: ${cli} refresh --session ${token} — or, if a human confirms it is still right: ${cli} ack --session ${token} --reason "..." (audited)`,
      );
  }
}

/** The lines a refusal prints (stderr; Claude Code shows them to the model). */
export function refusalText(decision: ToolUseDecision): string {
  const verdict = decision.verdict === undefined ? '' : `verdict: ${decision.verdict}\n`;
  return `hestai: ${decision.what} blocked: ${decision.reason}.\nfix: ${decision.fix ?? ''}\n${verdict}`;
}
