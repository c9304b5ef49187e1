import fs from 'node:fs';
import { blockedError, usageError } from '../errors.js';
import type { WorkspacePaths } from '../paths.js';
import {
  requireSessionChoice,
  resolveSession,
  type SessionChoice,
  type SessionResolution,
} from '../records/resolve.js';
import { resolveWorkspaceAsync, type Workspace } from '../workspace.js';
import { runtimeBindings } from '../agent/binding.js';
import { hestaiCommand } from '../agent/invocation.js';
import { AGENT_RUNTIMES } from '../setup/runtime-settings.js';
import { isLive, readSession } from '../records/session.js';
import { processChain, type ProcessId } from '../util/proc.js';
import { isInside, workspacePaths } from '../paths.js';
import { clientIdentity, type AgentIdentity } from '../records/attribution.js';

/** How a shell in the served repository calls hestai (`npx hestai` in a local install). */
function servedCommand(root: string | undefined, env: NodeJS.ProcessEnv): string {
  return root === undefined ? 'hestai' : hestaiCommand(root, env);
}

/**
 * What one MCP connection knows about itself (one `createServer` per connection; over stdio, one per
 * process). A connection owns what it started (docs/design.md "One agent, one session"):
 *
 * - `started`: sessions it clocked in (clock_in, or anchor identity without a session id);
 * - `pinned`: the session the agent runtime pinned for the server (`HESTAI_SESSION` in its environment);
 * - `handed`: the sessions its runtime's SessionStart hook bound (the bindings whose runtime process is an
 *   ancestor of this server: under Claude Code both are children of the same runtime process; see
 *   `runtimeBindings`); the newest live one is its default when it clocked in none itself;
 * - `current`: its default session, the last one it clocked in or anchored (else the handed one, else `pinned`).
 *
 * Only these are its own (issue 26, item 6): every tool that writes a session (anchor, odyssean_anchor,
 * clock_out, session_start, record_evidence, validate_gate, advance_phase, session_end, resolve_conflict)
 * refuses any other (`NOT_YOUR_SESSION`), so another connection can neither run my handshake into TERMINAL
 * nor close my session; anchoring never makes a session a connection's own. It acts only inside the
 * repository it serves: `served` (the worktree `hestai mcp` was started in; null when unrestricted),
 * narrowed by the roots its client declared (`clientRoots`), which never widen it.
 *
 * It also caches the workspace of every `working_dir` it was given (resolved once per directory and
 * connection, not per call, by git) and remembers the repository it works in, which the resources follow.
 */
export class Connection {
  private readonly started = new Set<string>();
  private readonly workspaces = new Map<string, Workspace>();
  private currentSession: { session_id: string; root: string } | null = null;
  private lastRoot: string | null = null;
  readonly pinned: string | null;
  private ancestorChain: ProcessId[] | null = null;
  /** The client's name from `initialize` (set by createServer), or null before it. */
  clientName: () => string | null = () => null;
  /** The client's declared roots (directories), or null when it has none; see `clientRoots`. */
  private declared: readonly string[] | null = null;
  private rootsInFlight: Promise<void> | null = null;

  constructor(
    /** The directory the server was started in (or `hestai mcp --cwd DIR`). */
    private readonly startDir: string,
    private readonly env: NodeJS.ProcessEnv,
    /** The worktree roots the tools may act in (null: any; the in-process server of tests and embedders). */
    private readonly served: readonly string[] | null = null,
  ) {
    const pin = env['HESTAI_SESSION']?.trim();
    this.pinned = pin ? pin : null;
  }

  /** The workspace of an absolute `working_dir`, resolved once per connection (errors are not cached). */
  async workspace(workingDir: string): Promise<Workspace> {
    let workspace = this.workspaces.get(workingDir);
    if (workspace === undefined) {
      workspace = await resolveWorkspaceAsync(workingDir, { requireAbsolute: true });
      this.requireServed(workspace.root);
      this.workspaces.set(workingDir, workspace);
    } else if (this.declared !== null) {
      this.requireServed(workspace.root); // the client's roots may have changed since
    }
    this.lastRoot = workspace.root;
    return workspace;
  }

  /**
   * The directories of the roots the client declared (src/mcp/client-roots.ts), once `answer` settles: null
   * (no roots) serves as before. Only the latest answer counts; tool calls wait for it (`rootsSettled`).
   */
  clientRoots(answer: Promise<readonly string[] | null>): void {
    const settled: Promise<void> = answer.then((dirs) => {
      if (this.rootsInFlight === settled) this.declared = dirs;
    });
    this.rootsInFlight = settled;
  }

  /**
   * Attribution (issue 42) of a session this connection clocks in: the client's name from `initialize` (how
   * the runtime names itself, e.g. `opencode`; `:` made `-`) when it is one safe word; no model (MCP does not say it).
   */
  clientAgent(): { agent: AgentIdentity } | Record<string, never> {
    const agent = clientIdentity(this.clientName() ?? '');
    return agent === null ? {} : { agent };
  }

  /** Resolves once the client's latest roots answer is in (at once when none was asked). */
  rootsSettled(): Promise<void> {
    return this.rootsInFlight ?? Promise.resolve();
  }

  /**
   * Refuses a worktree outside what this server serves (no state is written elsewhere): the repository it was
   * started in, narrowed by the roots its client declared (issue 26: roots never widen it; `file:///` opens no
   * other repository). The worktree root itself must lie inside each: a root below it (`repo/src`) does not
   * hand out the repository's `.hestai/` around it.
   */
  private requireServed(root: string): void {
    const declared = this.declared;
    const served = this.served;
    if (served === null && declared === null) return;
    let real = root;
    try {
      real = fs.realpathSync(root);
    } catch {
      // compared as given
    }
    const inside = (dir: string) => isInside(dir, root) || isInside(dir, real);
    if (served !== null && !served.some(inside))
      throw usageError(`working_dir ${root} is outside the repository this server serves (${served.join(', ')})`, {
        code: 'OUTSIDE_SERVED_ROOT',
        remedy: `Pass a working_dir inside ${served[0] ?? 'the served repository'}; to work in another repository, use the hestai MCP server started there (${servedCommand(served[0], this.env)} mcp --cwd <repo>).`,
      });
    if (declared !== null && !declared.some(inside))
      throw usageError(
        `working_dir ${root} is outside the roots this server's client declared (${declared.join(', ')})`,
        {
          code: 'OUTSIDE_SERVED_ROOT',
          remedy: `Pass a working_dir whose repository lies inside ${declared.join(' or ')}; to work elsewhere, add that repository's root to the client's roots.`,
        },
      );
  }

  /** Records a session this connection started; it becomes the default. */
  started_(sessionId: string, root: string): void {
    this.started.add(sessionId);
    this.currentSession = { session_id: sessionId, root };
  }

  /** Records a session anchored on this connection (one it owns): it becomes the default; ownership is unchanged. */
  bound_(sessionId: string, root: string): void {
    this.currentSession = { session_id: sessionId, root };
  }

  /** Forgets a session that was closed. */
  closed(sessionId: string): void {
    if (this.currentSession?.session_id === sessionId) this.currentSession = null;
  }

  /** The session this connection clocked in or anchored last in this worktree, else the one its runtime bound, or null. */
  ownSession(root: string): string | null {
    const handed = this.handedSessions(root);
    const live = handed.find((id) => {
      const session = readSession(workspacePaths(root), id);
      return session !== null && isLive(session);
    });
    const current =
      this.currentSession !== null && this.currentSession.root === root ? this.currentSession.session_id : null;
    // A handed session the runtime has since replaced (`/clear` binds a new one) yields to the newest.
    if (current !== null && !(live !== undefined && handed.includes(current))) return current;
    return live ?? current;
  }

  /**
   * The sessions the SessionStart hook of this server's own runtime bound in this worktree, newest first
   * (the server's parent and grandparent are matched against each binding's runtime processes: Linux only).
   */
  handedSessions(root: string): string[] {
    this.ancestorChain ??= processChain(process.ppid, 2);
    const paths = workspacePaths(root);
    return AGENT_RUNTIMES.flatMap((runtime) => runtimeBindings(paths, runtime, this.ancestorChain!)).map(
      (b) => b.session_id,
    );
  }

  /** The connection's default session in this worktree (its own, else the pinned one), or null. */
  defaultSession(root: string): string | null {
    return this.ownSession(root) ?? this.pinned;
  }

  private resolveInput(paths: WorkspacePaths, explicit: string | undefined) {
    return {
      explicit,
      connection: this.ownSession(paths.root),
      env: this.pinned === null ? {} : { HESTAI_SESSION: this.pinned },
      surface: 'mcp' as const,
    };
  }

  /** Whether this connection may write `sessionId`: it started it, or its runtime pinned or bound it. */
  owns(sessionId: string): boolean {
    if (this.started.has(sessionId) || this.pinned === sessionId) return true;
    return this.lastRoot !== null && this.handedSessions(this.lastRoot).includes(sessionId);
  }

  /**
   * The session a tool acts on: the `session_id` argument, else the connection's own session, else the one
   * rule of src/session/resolve.ts (exactly one live, unpinned session), else an error listing the
   * candidates and how to choose (in MCP words).
   */
  chooseSession(paths: WorkspacePaths, explicit: string | undefined): SessionChoice {
    return requireSessionChoice(paths, this.resolveInput(paths, explicit));
  }

  /** The resolution itself (see {@link chooseSession}), for tools that answer "no session" without an error. */
  resolveSession(paths: WorkspacePaths, explicit: string | undefined): SessionResolution {
    return resolveSession(paths, this.resolveInput(paths, explicit));
  }

  /** Refuses (exit 1) a writing tool on a session this connection neither started nor was pinned to. */
  requireOwned(sessionId: string, tool: string): void {
    if (this.owns(sessionId)) return;
    throw blockedError(`${tool} refused: session ${sessionId} was not started by this connection`, {
      code: 'NOT_YOUR_SESSION',
      remedy:
        `${tool} acts only on the session this connection clocked in (or that HESTAI_SESSION pinned for the server). ` +
        'Leave session_id out to use your own session, or call clock_in to start one. A session of another agent is closed by that agent, or by a human (hestai clock-out --session ' +
        `${sessionId}).`,
    });
  }

  /**
   * The repository the resources read: the worktree of the connection's session, else the last
   * `working_dir` a tool was given, else the start directory. Never another one silently: every resource
   * document names the `working_dir` it read.
   */
  resourceDir(): string {
    return this.currentSession?.root ?? this.lastRoot ?? this.startDir;
  }

  /** The workspace the resources read (see {@link resourceDir}); `requested` (a `working_dir` parameter) wins. */
  async resourceWorkspace(requested?: string): Promise<Workspace> {
    if (requested !== undefined && requested !== '') return this.workspace(requested);
    const dir = this.resourceDir();
    let workspace = this.workspaces.get(dir);
    if (workspace === undefined) {
      workspace = await resolveWorkspaceAsync(dir);
      this.workspaces.set(dir, workspace);
    }
    // The client's roots bound the reads too: the start directory outside them is not read.
    if (this.declared !== null) this.requireServed(workspace.root);
    return workspace;
  }
}
