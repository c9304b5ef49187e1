import { describe, expect, it } from 'vitest';
import { anchoredRepo, verdictOf, type AnchoredRepo } from '../helpers/anchored-repo.js';
import { sharedFixture } from '../helpers/git-repo.js';

// Issue 30 item 2: CI sees the protocol. `session end` publishes the run's record on hestai/anchors
// (protocol/<session>/<sha256>.json) and the pre-push hook pushes it; `hestai verify` in a fresh clone reports
// each commit made under a session whose run ended with violations, per the base's protocol.verify.

const ONE_PHASE = ['version: 1', 'phases:', '  - id: WORK', '    gates: []', ''].join('\n');

function runAndPush(repo: AnchoredRepo, force: boolean): string {
  repo.git(['checkout', '-q', '-b', 'feat/x']);
  const token = repo.anchor();
  const start = repo.hestai(['session', 'start', '--objective', 'publish the run']);
  expect(start.status, start.stderr).toBe(0);
  const made = repo.commitHooked('docs: work under the run', { 'docs/a.md': 'a\n' });
  expect(made.status, made.stderr).toBe(0);
  expect(repo.git(['log', '-1', '--format=%B']).stdout).toContain(`HestAI-Session: ${token}`);
  if (force) {
    for (let i = 0; i < 4; i++) {
      const phase = repo.hestai(['--json', 'session', 'show']);
      if ((JSON.parse(phase.stdout) as { current_phase: string }).current_phase === 'COMPLETE') break;
      const adv = repo.hestai(['session', 'advance', '--force']);
      expect(adv.status, adv.stdout + adv.stderr).toBe(0);
    }
  }
  const end = repo.hestai(['--json', 'session', 'end', '--summary', 'ended for CI to see']);
  expect(end.status, end.stdout + end.stderr).toBe(0);
  expect((JSON.parse(end.stdout) as { status: string }).status).toBe(force ? 'COMPLETE_WITH_VIOLATIONS' : 'COMPLETE');
  const push = repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true });
  expect(push.status, push.stderr).toBe(0);
  const files = repo.git(['--git-dir', repo.remote, 'ls-tree', '-r', '--name-only', 'hestai/anchors', 'protocol']);
  expect(files.stdout).toMatch(new RegExp(`^protocol/${token}/[0-9a-f]{64}\\.json$`, 'm'));
  return token;
}

// A run forced past its MUST gates, ended and pushed (protocol.verify at its default): built once, read by
// two tests, each from its own copy.
const forcedRun = sharedFixture(() => {
  const repo = anchoredRepo('protocol:\n  force_limit: 5\n');
  return { repo, token: runAndPush(repo, true) };
});

describe('verify sees protocol runs published with the anchors', () => {
  it('a run forced past MUST gates: its commits get a protocol warning in a fresh clone (protocol.verify defaults to warn)', () => {
    const { repo, token } = forcedRun();
    const { report, stderr } = repo.verifyJson(repo.freshClone('feat/x'));
    const v = verdictOf(report, 'docs: work under the run', 'protocol');
    expect(v, stderr + JSON.stringify(report, null, 1)).toMatchObject({ status: 'warn', clause: 'protocol.verify' });
    expect(v?.message).toContain(token);
    expect(v?.message).toContain('COMPLETE_WITH_VIOLATIONS');
    expect(v?.message).toContain('BINDING/read_context');
  });

  it('under protocol.verify: error the same commits fail verify', () => {
    const repo = anchoredRepo('protocol:\n  force_limit: 5\n  verify: error\n');
    runAndPush(repo, true);
    const { status, report, stderr } = repo.verifyJson(repo.freshClone('feat/x'));
    expect(verdictOf(report, 'docs: work under the run', 'protocol')?.status, stderr).toBe('fail');
    expect(status).toBe(1);
  });

  it('a COMPLETE run gives its commits no protocol warning', () => {
    const repo = anchoredRepo('protocol:\n  verify: error\n');
    repo.write('.hestai/protocol.yaml', ONE_PHASE);
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: a one-phase protocol']);
    repo.git(['push', '-q', '--no-verify', 'origin', 'main']);
    runAndPush(repo, false);
    const { report, stderr } = repo.verifyJson(repo.freshClone('feat/x'));
    const v = verdictOf(report, 'docs: work under the run', 'protocol');
    expect(v?.status ?? 'pass', stderr + JSON.stringify(report, null, 1)).toBe('pass');
  });

  it('hestai report counts the runs verify read, by outcome, in the summary', () => {
    const { repo } = forcedRun();
    const clone = repo.freshClone('feat/x');
    const md = repo.hestai(['report', '--format', 'markdown'], { cwd: clone });
    expect(md.status, md.stderr).toBe(0);
    expect(md.stdout).toContain('| protocol runs | 1 COMPLETE\\_WITH\\_VIOLATIONS 1 |');
    expect(md.stdout).not.toContain('none published');
  });

  it('an end refused as INCOMPLETE is published too: its commits get a warning until a later end of the same run completes', () => {
    const repo = anchoredRepo();
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    const token = repo.anchor();
    expect(repo.hestai(['session', 'start', '--objective', 'left incomplete']).status).toBe(0);
    expect(repo.commitHooked('docs: work of an incomplete run', { 'docs/a.md': 'a\n' }).status).toBe(0);
    const end = repo.hestai(['--json', 'session', 'end', '--summary', 'not done']);
    expect((JSON.parse(end.stdout) as { status: string }).status).toBe('INCOMPLETE');
    const push = repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true });
    expect(push.status, push.stderr).toBe(0);
    const { report, stderr } = repo.verifyJson(repo.freshClone('feat/x'));
    const v = verdictOf(report, 'docs: work of an incomplete run', 'protocol');
    expect(v?.status, stderr + JSON.stringify(report, null, 1)).toBe('warn');
    expect(v?.message).toContain(`session ${token}, whose protocol run ended INCOMPLETE`);
  });
});
