import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir, type TempRepo } from '../helpers/git-repo.js';
import { verdictOf, type VerifyReport } from '../helpers/anchored-repo.js';

// Issue 11: policy comes from the base of the range, not from the branch under test. Run as CI meets it.

function withRemote(repo: TempRepo): string {
  const remote = path.join(tempDir('hestai-remote-'), 'origin.git');
  repo.git(['init', '-q', '--bare', remote]);
  repo.git(['remote', 'add', 'origin', remote]);
  return remote;
}

function verifyFresh(repo: TempRepo, remote: string, branch: string) {
  const clone = path.join(tempDir('hestai-ci-'), 'clone');
  repo.git(['clone', '-q', '--branch', branch, `file://${remote}`, clone]);
  const result = repo.hestai(['verify', '--format', 'json'], { cwd: clone });
  return {
    status: result.status,
    stderr: result.stderr,
    report: JSON.parse(result.stdout) as VerifyReport & {
      policy_changes: { key: string; base: unknown; branch: unknown; message: string }[];
    },
    clone,
  };
}

describe('verify takes its policy from the base', () => {
  it('attack: a branch that moves tdd.since onto its own untested feat still fails, with a warning naming the key, old and new value', () => {
    const repo = makeRepo();
    const adopted = repo.commit('chore: adopt', {
      '.hestai_workspace.yaml': 'verify:\n  anchors: off\n  trailers: off\n',
    });
    const config = `tdd:\n  since: ${adopted}\nverify:\n  anchors: off\n  trailers: off\n`;
    repo.commit('chore: since', { '.hestai_workspace.yaml': config });
    const remote = withRemote(repo);
    repo.git(['push', '-q', 'origin', 'main']);
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    const untested = repo.commit('feat: untested', { 'src/a.ts': 'x' });
    repo.commit('chore: move the baseline', { '.hestai_workspace.yaml': config.replace(adopted, untested) });
    repo.git(['push', '-q', 'origin', 'feat/x']);
    const { status, report } = verifyFresh(repo, remote, 'feat/x');
    expect(status).toBe(1);
    expect(verdictOf(report, 'feat: untested', 'test-first')?.status).toBe('fail');
    const change = report.policy_changes.find((c) => c.key === 'tdd.since');
    expect(change).toMatchObject({ base: adopted, branch: untested });
    expect(change?.message).toContain(adopted);
    expect(report.warnings).toBeGreaterThanOrEqual(1);
  });

  it('a branch that turns verify.anchors off is still judged with the base value, and text output lists the change', () => {
    const repo = makeRepo();
    repo.commit('chore: adopt', { '.hestai_workspace.yaml': 'verify:\n  trailers: off\n' });
    const remote = withRemote(repo);
    repo.git(['push', '-q', 'origin', 'main']);
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.commit('chore: relax', { '.hestai_workspace.yaml': 'verify:\n  trailers: off\n  anchors: off\n' });
    repo.git(['push', '-q', 'origin', 'feat/x']);
    const { status, report, clone } = verifyFresh(repo, remote, 'feat/x');
    expect(status).toBe(1);
    expect(verdictOf(report, 'chore: relax', 'anchor')?.status).toBe('fail');
    expect(report.policy_changes.map((c) => c.key)).toEqual(['verify.anchors']);
    const text = repo.hestai(['verify'], { cwd: clone });
    expect(text.stdout).toContain('verify.anchors from "error" to "off"');
  });
});

describe('verify takes the commit rules from the base too', () => {
  it('attack: a branch that ignores every header (commit.ignore: [".*"]) still fails its untested feat, and the change is reported', () => {
    const repo = makeRepo();
    repo.commit('chore: adopt', { '.hestai_workspace.yaml': 'verify:\n  anchors: off\n  trailers: off\n' });
    const remote = withRemote(repo);
    repo.git(['push', '-q', 'origin', 'main']);
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.commit('chore: ignore everything', {
      '.hestai_workspace.yaml': 'verify:\n  anchors: off\n  trailers: off\ncommit:\n  ignore: [".*"]\n',
    });
    repo.commit('feat: untested', { 'src/a.ts': 'x' });
    repo.git(['push', '-q', 'origin', 'feat/x']);
    const { status, report, clone } = verifyFresh(repo, remote, 'feat/x');
    expect(status).toBe(1);
    expect(verdictOf(report, 'feat: untested', 'test-first')?.status).toBe('fail');
    const change = report.policy_changes.find((c) => c.key === 'commit.ignore');
    expect(change).toMatchObject({ base: [], branch: ['.*'] });
    expect(repo.hestai(['verify'], { cwd: clone }).stdout).toContain('commit.ignore from [] to [".*"]');
  });
});

describe('exemptions and bypasses are visible however the message is cleaned', () => {
  const branch = (config: string) => {
    const repo = makeRepo();
    repo.commit('chore: config', { '.hestai_workspace.yaml': config });
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    const verbatim = (message: string, file: string) => {
      repo.write(file, 'x\n');
      repo.git(['add', '-A']);
      repo.git(['commit', '-q', '--no-verify', '--cleanup=verbatim', '-m', message]);
    };
    verbatim(
      'feat: hotfix\n\nHestAI-Bypass: prod is down\n\n# Please enter the commit message for your changes.\n# Lines starting with "#" are kept (verbatim).\n',
      'src/a.ts',
    );
    verbatim(
      'feat: generated client\n\nTDD-Exempt: generated from the OpenAPI spec\n\n# a comment paragraph kept by --cleanup=verbatim\n',
      'src/b.ts',
    );
    const result = repo.hestai(['verify', '--from', 'main', '--format', 'json']);
    return { status: result.status, report: JSON.parse(result.stdout) as VerifyReport };
  };

  it('a bypass committed with --cleanup=verbatim and a trailing # paragraph is listed; TDD-Exempt per verify.exempt', () => {
    const warn = branch('verify:\n  anchors: off\n  trailers: off\n  bypass: warn\n  exempt: warn\n');
    expect(verdictOf(warn.report, 'feat: hotfix', 'bypass')?.message).toContain('prod is down');
    expect(verdictOf(warn.report, 'feat: generated client', 'test-first')?.status).toBe('warn');
    expect(warn.status).toBe(0);
    const error = branch('verify:\n  anchors: off\n  trailers: off\n  exempt: error\n');
    expect(error.status).toBe(1);
    expect(verdictOf(error.report, 'feat: generated client', 'test-first')).toMatchObject({ status: 'fail' });
    expect(verdictOf(error.report, 'feat: generated client', 'test-first')?.message).toContain('verify.exempt: error');
    const allow = branch('verify:\n  anchors: off\n  trailers: off\n  exempt: allow\n');
    expect(verdictOf(allow.report, 'feat: generated client', 'test-first')?.status).toBe('pass');
  });
});
