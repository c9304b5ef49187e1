import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, type TempRepo } from '../helpers/git-repo.js';
import {
  CEREMONY_BIND,
  CEREMONY_PROOF,
  CEREMONY_ROLE,
  ceremonyRepo,
  connectInProcess,
  textOf,
  type InProcess,
  type ToolResult,
} from '../helpers/mcp.js';
import { pathWithoutGh } from '../helpers/session-fixtures.js';

// The MCP server serves every request of its client on one event loop: no git process a tool starts may
// stop it from answering another request (issue 27). To hold git processes in flight without timing
// anything, the repository's config includes a file that, while armed, is a FIFO: every git process reads
// its config first, and opening a FIFO waits until the test opens its other end. The test holds each git
// process a tool starts, one after another, and pings the server meanwhile. The server runs in this
// process: a git call that blocked the event loop would block the test too, so no git process would ever
// be seen waiting; a watchdog process releases it after 20 s and says so (`fired`), and the test fails.

const { O_WRONLY, O_NONBLOCK } = fs.constants;

/** Holds the git processes started in one repository, through a FIFO its config includes. */
class GitHold {
  private readonly control = tempDir('hestai-git-hold-');
  readonly fifo = path.join(this.control, 'config');
  readonly fired = path.join(this.control, 'fired');
  private watchdog: ChildProcess | null = null;

  constructor(repo: TempRepo) {
    repo.git(['config', 'include.path', this.fifo]); // a missing include is no error: unarmed, git runs as ever
  }

  /** From now on, the next git processes wait on their config. */
  arm(): void {
    execFileSync('mkfifo', [this.fifo]);
    const script = 'sleep 20; if [ -p "$1" ]; then : > "$2"; exec 3<>"$1"; rm -f "$1"; fi';
    this.watchdog = spawn('sh', ['-c', script, 'sh', this.fifo, this.fired], { detached: true, stdio: 'ignore' });
  }

  /** The git processes waiting now (their arguments), or null when none is; they wait until `release`. */
  take(): { fd: number; held: string[] } | null {
    let fd: number;
    try {
      fd = fs.openSync(this.fifo, O_WRONLY | O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENXIO' || code === 'ENOENT') return null; // nobody reads it yet, or the watchdog released it
      throw error;
    }
    this.stopWatchdog();
    return { fd, held: gitChildren() };
  }

  /** Lets the waiting git processes read an empty config (and the next ones run unheld). */
  release(fd: number): void {
    fs.rmSync(this.fifo, { force: true });
    fs.closeSync(fd);
  }

  disarm(): void {
    this.stopWatchdog();
    fs.rmSync(this.fifo, { force: true });
  }

  private stopWatchdog(): void {
    const pid = this.watchdog?.pid;
    this.watchdog = null;
    try {
      if (pid !== undefined) process.kill(-pid); // the watchdog's shell and its sleep
    } catch {
      // it has ended already (it fired: the test fails on `fired`)
    }
  }
}

/** The arguments of every git process this process started that is still running (Linux /proc). */
function gitChildren(): string[] {
  const out: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (path.basename(argv[0] ?? '') === 'git') out.push(argv.slice(1).join(' '));
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `request` (a tool call, a resource read) and holds each git process it starts, one after another,
 * pinging the server while each waits. Returns its answer and the git commands that were held.
 */
async function holdingGit<T>(
  mcp: InProcess,
  hold: GitHold,
  name: string,
  request: () => Promise<T>,
): Promise<{ result: T; held: string[] }> {
  let settled = false;
  const call = request().finally(() => {
    settled = true;
  });
  const held: string[] = [];
  hold.arm();
  for (;;) {
    const taken = hold.take();
    if (taken !== null) {
      held.push(...taken.held);
      await mcp.client.ping();
      // Answered while those git processes wait, and the tool has not returned.
      const waiting = !settled;
      hold.release(taken.fd);
      expect(waiting, `${name} returned while git ${taken.held.join(', ')} was held`).toBe(true);
      hold.arm();
    } else if (settled || fs.existsSync(hold.fired)) break;
    else await sleep(5);
  }
  hold.disarm();
  expect(fs.existsSync(hold.fired), `${name} blocked the event loop on git (held: ${held.join(' | ')})`).toBe(false);
  return { result: await call, held };
}

/** A tool call through {@link holdingGit} that must succeed. */
async function callHoldingGit(
  mcp: InProcess,
  hold: GitHold,
  name: string,
  args: Record<string, unknown>,
): Promise<{ result: ToolResult; held: string[] }> {
  const answer = await holdingGit(mcp, hold, name, () => mcp.call(name, args));
  expect(answer.result.isError, textOf(answer.result)).toBeFalsy();
  return answer;
}

const REPO_INFO = 'rev-parse --show-toplevel';

describe('MCP server: git never blocks the event loop', () => {
  it('answers a ping while any git process of clock_in, the anchor stages and clock_out waits', async () => {
    const repo = ceremonyRepo();
    repo.write('.env', 'EXAMPLE=1\n'); // clock-in asks git whether .env is tracked (trust)
    const hold = new GitHold(repo);
    const mcp = await connectInProcess({ env: { ...repo.env, PATH: pathWithoutGh() } });
    const w = { working_dir: repo.dir };

    const clockIn = await callHoldingGit(mcp, hold, 'clock_in', { ...w, role: CEREMONY_ROLE, focus: 'hold git' });
    const token = clockIn.result.structuredContent!['session_id'] as string;
    expect(clockIn.held).toEqual(
      expect.arrayContaining([
        expect.stringContaining(REPO_INFO),
        'config --get core.hooksPath',
        'ls-files -z -- .env',
        expect.stringContaining('status --porcelain=v2'),
      ]),
    );

    const identity = await callHoldingGit(mcp, hold, 'anchor', {
      ...w,
      stage: 'identity',
      session_id: token,
      role: CEREMONY_ROLE,
    });
    expect(identity.held).toEqual(expect.arrayContaining([expect.stringContaining(REPO_INFO)]));
    const context = await callHoldingGit(mcp, hold, 'anchor', {
      ...w,
      stage: 'context',
      session_id: token,
      payload: CEREMONY_BIND,
    });
    expect(context.result.structuredContent).toMatchObject({ success: true, stage: 'context', token });
    // The server ARM: one git status over every untracked file.
    expect(context.held).toEqual(
      expect.arrayContaining([expect.stringContaining(REPO_INFO), expect.stringContaining('--untracked-files=all')]),
    );
    const proof = await callHoldingGit(mcp, hold, 'anchor', {
      ...w,
      stage: 'proof',
      session_id: token,
      payload: CEREMONY_PROOF,
    });
    expect(proof.result.structuredContent).toMatchObject({ success: true, stage: 'proof' });
    expect(proof.held).toEqual(expect.arrayContaining([expect.stringContaining(REPO_INFO), 'fast-import --quiet']));

    const out = await callHoldingGit(mcp, hold, 'clock_out', { ...w, session_id: token, summary: 'held' });
    expect(out.held).toEqual(expect.arrayContaining([expect.stringContaining(REPO_INFO)]));
  });

  it('answers a ping while any git process of the protocol tools and resources waits', async () => {
    const repo = ceremonyRepo();
    repo.git(['switch', '-q', '-c', 'feat/hold']);
    // The same worktree, said in its config (resolving working_dir is asked of git whatever the layout).
    repo.git(['config', 'core.worktree', repo.dir]);
    const mcp = await connectInProcess({ env: { ...repo.env, PATH: pathWithoutGh() } });
    const w = { working_dir: repo.dir };
    const clockIn = await mcp.call('clock_in', { ...w, role: CEREMONY_ROLE, focus: 'protocol' });
    const token = clockIn.structuredContent!['session_id'] as string;
    const s = { ...w, session_id: token };
    const hold = new GitHold(repo);

    const start = await callHoldingGit(mcp, hold, 'session_start', { ...s, objective: 'hold git' });
    expect(start.held).toEqual(
      expect.arrayContaining([
        expect.stringContaining(REPO_INFO),
        expect.stringContaining('ls-files -z --cached --others --exclude-standard'),
        expect.stringMatching(/^log /),
        expect.stringMatching(/^status /),
      ]),
    );
    const hash = createHash('sha256')
      .update(fs.readFileSync(path.join(repo.dir, '.hestai/context/PROJECT-CONTEXT.oct.md')))
      .digest('hex');
    await callHoldingGit(mcp, hold, 'record_evidence', {
      ...s,
      phase: 'BINDING',
      evidence_type: 'content_hash',
      evidence: `sha256:${hash}`,
    });
    await callHoldingGit(mcp, hold, 'validate_gate', { ...s, phase: 'WORK' });
    await callHoldingGit(mcp, hold, 'get_blocked_reason', s);
    await callHoldingGit(mcp, hold, 'advance_phase', { ...s, force: true, target_phase: 'END' });
    for (const uri of ['session://state', 'session://checklist']) {
      const read = await holdingGit(mcp, hold, uri, () => mcp.read(uri));
      expect(read.held).toEqual(expect.arrayContaining([expect.stringMatching(/^status /)]));
    }
    repo.commit('test(hold): held', { 'test/hold.test.ts': 'x\n' });
    const end = await holdingGit(mcp, hold, 'session_end', () => mcp.call('session_end', { ...s, summary: 'held' }));
    expect(end.held).toEqual(
      expect.arrayContaining([expect.stringMatching(/^log /), expect.stringMatching(/^status /)]),
    );
  });
});
