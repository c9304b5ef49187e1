import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchoredRepo, verdictOf, type AnchoredRepo } from '../helpers/anchored-repo.js';
import { CLI, sharedFixture, tempDir } from '../helpers/git-repo.js';
import { CEREMONY_FILES, CEREMONY_ROLE, anchorOverMcp, connectStdio, textOf } from '../helpers/mcp.js';
import { noStack } from './helpers.js';

// Issue 12, item 8 and issue 18 (seed 001 HARD_FAIL): a terminal handshake needs a person. Deleting the
// pending directory or clocking in again for the same role must not clear it; only a recorded
// `hestai anchor reset` does, and only a person at a terminal (or `--yes`) may run it; CI sees the reset.

const ROLE = 'implementation-lead';
const BAD_BIND = '## BIND (Identity Lock)\nROLE::someone-else\n';

function payload(text: string): string {
  const file = path.join(tempDir('hestai-payload-'), 'payload.oct');
  fs.writeFileSync(file, text);
  return file;
}

/** Identity, then failing BIND submissions until the handshake answers terminal. */
function goTerminal(repo: AnchoredRepo, token: string): void {
  const identity = repo.hestai(['--json', 'anchor', '--stage', 'identity', '--role', ROLE, '--token', token]);
  expect(identity.status, identity.stdout + identity.stderr).toBe(0);
  const bad = payload(BAD_BIND);
  let terminal = false;
  for (let i = 0; i < 5 && !terminal; i++) {
    const r = repo.hestai(['--json', 'anchor', '--stage', 'context', '--token', token, '--payload-file', bad]);
    expect(r.status).toBe(1);
    terminal = (JSON.parse(r.stdout) as { terminal: boolean }).terminal;
  }
  expect(terminal).toBe(true);
}

function clockIn(repo: AnchoredRepo): string {
  const r = repo.hestai(['--json', 'clock-in', '--role', ROLE, '--focus', 'anchored work']);
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { session_id: string }).session_id;
}

/** The three stages for an existing session (the same payloads as anchoredRepo's ceremony). */
function anchorAgain(repo: AnchoredRepo, token: string): { status: number; stdout: string } {
  const bind = payload(
    `## BIND (Identity Lock)\nROLE::${ROLE}\nCOGNITION::LOGOS::HEPHAESTUS+ATHENA\nAUTHORITY::RESPONSIBLE[anchored work]\n`,
  );
  const proof = payload(
    [
      '## TENSION (Cognitive Proof - AGENT GENERATED)',
      'L1::[CITED_README_STAYS_TRUE]<->CTX:README.md:1-1[what it says today]->TRIGGER[keep it true]',
      'L2::[CITED_CONFIG_STAYS_TRUE]<->CTX:.hestai_workspace.yaml[what it says today]->TRIGGER[keep it true]',
      '## COMMIT (Falsifiable Contract)',
      'ARTIFACT::docs/',
      'GATE::npm test',
      '',
    ].join('\n'),
  );
  for (const args of [
    ['--stage', 'identity', '--role', ROLE, '--token', token],
    ['--stage', 'context', '--token', token, '--payload-file', bind],
    ['--stage', 'proof', '--token', token, '--payload-file', proof],
  ]) {
    const step = repo.hestai(['--json', 'anchor', ...args]);
    if (step.status !== 0) return step;
  }
  return { status: 0, stdout: '' };
}

const pendingOf = (repo: AnchoredRepo, token: string) => path.join(repo.dir, '.hestai/sessions/pending', token);

// A clocked-in session whose handshake went terminal: built once, each test gets its own copy.
const terminalSession = sharedFixture(() => {
  const repo = anchoredRepo();
  const token = clockIn(repo);
  goTerminal(repo, token);
  return { repo, token };
});

describe('terminal handshakes need a person', () => {
  it('deleting the pending handshake directory does not clear a terminal state: commits and the handshake stay locked', () => {
    const repo = anchoredRepo();
    const token = repo.anchor();
    expect(repo.commitHooked('docs: before', { 'docs/a.md': '1\n' }).status).toBe(0);
    goTerminal(repo, token);
    expect(repo.commitHooked('docs: terminal', { 'docs/a.md': '2\n' }).status).toBe(1);

    fs.rmSync(pendingOf(repo, token), { recursive: true, force: true });
    const commit = repo.commitHooked('docs: after deleting pending', { 'docs/a.md': '3\n' });
    expect(commit.status).toBe(1);
    expect(commit.stderr).toMatch(/terminal/);
    expect(commit.stderr).toContain(`hestai anchor reset --token ${token}`);
    // Running the ceremony again is refused too: only a reset reopens it.
    const again = anchorAgain(repo, token);
    expect(again.status).toBe(1);
    expect(again.stdout).toContain('TERMINAL');
    expect(repo.commitHooked('docs: after a new ceremony', { 'docs/a.md': '4\n' }).status).toBe(1);
  });

  it('a fresh clock-in for the same role in the same worktree does not clear it (nor an identity stage that clocks in)', () => {
    const { repo, token } = terminalSession();
    expect(repo.hestai(['clock-out', '--session', token]).status).toBe(0);
    fs.rmSync(pendingOf(repo, token), { recursive: true, force: true });

    const fresh = clockIn(repo);
    const again = anchorAgain(repo, fresh);
    expect(again.status).toBe(1);
    expect(again.stdout).toContain('TERMINAL');
    const commit = repo.commitHooked('docs: fresh session', { 'docs/a.md': '1\n' }, { HESTAI_SESSION: fresh });
    expect(commit.status).toBe(1);
    expect(commit.stderr).toMatch(/terminal/);

    const selfClocked = repo.hestai(['--json', 'anchor', '--stage', 'identity', '--role', ROLE]);
    expect(selfClocked.status).toBe(1);
    expect(selfClocked.stdout).toContain('TERMINAL');
  });

  it('anchor reset refuses when stdin is not a terminal unless --yes; the reset is audited and the role is reopened', () => {
    const { repo, token } = terminalSession();
    fs.rmSync(pendingOf(repo, token), { recursive: true, force: true });

    const piped = repo.hestai(['anchor', 'reset', '--token', token, '--reason', 'reviewed'], { input: 'y\n' });
    noStack(piped);
    expect(piped.status).toBe(2);
    expect(piped.stderr).toMatch(/not a terminal/);
    expect(piped.stderr).toMatch(/hint: .*--yes/);
    expect(anchorAgain(repo, token).status).toBe(1);

    const reset = repo.hestai(['anchor', 'reset', '--token', token, '--reason', 'reviewed the failed BINDs', '--yes']);
    expect(reset.status, reset.stderr).toBe(0);
    const audit = fs.readFileSync(path.join(repo.dir, '.hestai/audit/audit.jsonl'), 'utf8');
    expect(audit).toMatch(/"event":"anchor_reset".*reviewed the failed BINDs/);
    expect(anchorAgain(repo, token).status).toBe(0);
    expect(repo.commitHooked('docs: after reset', { 'docs/a.md': '1\n' }).status).toBe(0);
  });

  it.skipIf(spawnSync('script', ['--version']).status !== 0)(
    'on a terminal, anchor reset needs no --yes (a person typed it)',
    () => {
      const { repo, token } = terminalSession();
      const command = [process.execPath, CLI, 'anchor', 'reset', '--token', token, '--reason', 'at-the-keyboard']
        .map((a) => `'${a}'`)
        .join(' ');
      const tty = spawnSync('script', ['-qec', command, '/dev/null'], {
        cwd: repo.dir,
        env: repo.env,
        encoding: 'utf8',
        input: '',
        timeout: 30_000,
      });
      expect(tty.status, tty.stdout + tty.stderr).toBe(0);
      expect(anchorAgain(repo, token).status).toBe(0);
    },
  );

  it('a reset done after a terminal handshake is visible to CI: verify in a fresh clone names it on the anchored commit', () => {
    const repo = anchoredRepo();
    repo.git(['checkout', '-q', '-b', 'feat/reset']);
    const token = repo.anchor();
    goTerminal(repo, token);
    expect(
      repo.hestai(['anchor', 'reset', '--token', token, '--reason', 'reviewed: typo in ROLE', '--yes']).status,
    ).toBe(0);
    expect(anchorAgain(repo, token).status).toBe(0);
    const made = repo.commitHooked('docs: after a reset', { 'docs/a.md': '1\n' });
    expect(made.status, made.stderr).toBe(0);
    const push = repo.git(['push', '-q', 'origin', 'feat/reset'], { allowFail: true });
    expect(push.status, push.stderr).toBe(0);

    const clone = repo.freshClone('feat/reset');
    const { status, report, stderr } = repo.verifyJson(clone);
    expect(status, stderr + JSON.stringify(report, null, 1)).toBe(0);
    const verdict = verdictOf(report, 'docs: after a reset', 'anchor');
    expect(verdict?.status).toBe('pass');
    expect(verdict?.message).toMatch(/reset/);
    expect(verdict?.message).toContain('reviewed: typo in ROLE');
  });

  it('over MCP, anchor_status reports TERMINAL (not UNLOCKED from the earlier anchor) after the pending directory is deleted, and for a fresh clock_in of the role', async () => {
    const repo = anchoredRepo();
    repo.commit('chore: app', CEREMONY_FILES);
    const mcp = await connectStdio(repo.dir, repo.env);
    const id = await anchorOverMcp(mcp, repo.dir);
    expect((await mcp.call('anchor_status', { working_dir: repo.dir })).structuredContent).toMatchObject({
      code: 'UNLOCKED',
    });
    const identity = await mcp.call('anchor', {
      stage: 'identity',
      working_dir: repo.dir,
      role: CEREMONY_ROLE,
      session_id: id,
    });
    expect(identity.isError, textOf(identity)).toBeFalsy();
    let last = identity;
    for (let i = 0; i < 5 && last.structuredContent?.['terminal'] !== true; i++)
      last = await mcp.call('anchor', { stage: 'context', working_dir: repo.dir, session_id: id, payload: BAD_BIND });
    expect(last.structuredContent).toMatchObject({ terminal: true });

    fs.rmSync(pendingOf(repo, id), { recursive: true, force: true });
    const status = await mcp.call('anchor_status', { working_dir: repo.dir });
    expect(status.structuredContent).toMatchObject({ session_id: id, unlocked: false, code: 'TERMINAL' });

    const out = await mcp.call('clock_out', { working_dir: repo.dir, summary: 'handed to a human' });
    expect(out.isError, textOf(out)).toBeFalsy();
    const clock = await mcp.call('clock_in', { working_dir: repo.dir, role: CEREMONY_ROLE });
    expect(clock.isError, textOf(clock)).toBeFalsy();
    const fresh = clock.structuredContent!['session_id'] as string;
    const freshStatus = await mcp.call('anchor_status', { working_dir: repo.dir });
    expect(freshStatus.structuredContent).toMatchObject({ session_id: fresh, unlocked: false, code: 'TERMINAL' });
    await expect(anchorOverMcp(mcp, repo.dir, fresh)).rejects.toThrow(/TERMINAL/);
  });
});
