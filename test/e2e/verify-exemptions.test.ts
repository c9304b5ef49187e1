import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir, type TempRepo } from '../helpers/git-repo.js';
import { verdictOf, type VerifyReport } from '../helpers/anchored-repo.js';

// Issue 24 item 3: exemptions are earned. Each attack is pushed to a bare remote and judged by
// `hestai verify` (dist/) in a fresh clone, whose base is origin/HEAD (main).

function adopted(config: string | null): { repo: TempRepo; remote: string } {
  const repo = makeRepo();
  repo.commit('chore: adopt', config === null ? {} : { '.hestai_workspace.yaml': config });
  const remote = path.join(tempDir('hestai-remote-'), 'origin.git');
  repo.git(['init', '-q', '--bare', remote]);
  repo.git(['remote', 'add', 'origin', remote]);
  repo.git(['push', '-q', 'origin', 'main']);
  repo.git(['checkout', '-q', '-b', 'feat/x']);
  return { repo, remote };
}

function pushAndVerify(repo: TempRepo, remote: string) {
  repo.git(['push', '-q', '-f', 'origin', 'feat/x']);
  const clone = path.join(tempDir('hestai-ci-'), 'clone');
  repo.git(['clone', '-q', '--branch', 'feat/x', `file://${remote}`, clone]);
  const result = repo.hestai(['verify', '--format', 'json'], { cwd: clone });
  return { status: result.status, stderr: result.stderr, report: JSON.parse(result.stdout) as VerifyReport };
}

const NO_ANCHORS = 'verify:\n  anchors: off\n  trailers: off\n';

describe('a revert is exempt only when it is one', () => {
  it('attack: a feat whose body names an existing commit in a "This reverts commit <sha>" line is still judged', () => {
    const { repo, remote } = adopted(NO_ANCHORS);
    const named = repo.git(['rev-parse', 'main']).stdout.trim();
    repo.commit(`feat: untested\n\nThis reverts commit ${named}.`, { 'src/a.ts': 'x' });
    const { status, report } = pushAndVerify(repo, remote);
    expect(status).toBe(1);
    expect(verdictOf(report, 'feat: untested', 'test-first')?.status).toBe('fail');
    expect(verdictOf(report, 'feat: untested', 'header')?.message).not.toContain('revert of');
  });

  it('attack: a revert line naming a commit outside the commit history (another branch) earns nothing', () => {
    const { repo, remote } = adopted(NO_ANCHORS);
    repo.git(['checkout', '-q', '-b', 'side']);
    const side = repo.commit('feat: elsewhere', { 'src/side.ts': 'x' });
    repo.git(['checkout', '-q', 'feat/x']);
    repo.git(['push', '-q', 'origin', 'side']);
    repo.commit(`feat: untested\n\nThis reverts commit ${side}.`, { 'src/side.ts': '' });
    const { status, report } = pushAndVerify(repo, remote);
    expect(status).toBe(1);
    expect(verdictOf(report, 'feat: untested', 'test-first')?.status).toBe('fail');
  });

  it('a real git revert of a commit on the branch stays exempt', () => {
    const { repo, remote } = adopted(NO_ANCHORS);
    repo.commit('test: a', { 'test/a.test.ts': 'x' });
    repo.commit('feat: a', { 'src/a.ts': 'one\ntwo\n' });
    repo.commit('docs: later', { 'docs/b.md': 'b' });
    repo.git(['revert', '--no-edit', 'HEAD~1']);
    const header = repo.git(['log', '-1', '--format=%s']).stdout.trim();
    const { status, report } = pushAndVerify(repo, remote);
    expect(status, JSON.stringify(report, null, 1)).toBe(0);
    expect(verdictOf(report, header, 'header')?.message).toContain('revert of');
  });
});

describe('a merge bot header is no exemption on a single-parent commit', () => {
  it('attack: untested code committed under an Azure DevOps "Merged PR n:" or Bitbucket "Merged in x (pull request #n)" header is judged, and the failure names the commit.ignore pattern', () => {
    const { repo, remote } = adopted(NO_ANCHORS);
    repo.commit('Merged PR 7: add login', { 'src/login.ts': 'export const login = 1;\n' });
    repo.commit('Merged in feature/x (pull request #8)', { 'src/logout.ts': 'export const logout = 1;\n' });
    const { status, report } = pushAndVerify(repo, remote);
    expect(status, JSON.stringify(report, null, 1)).toBe(1);
    const azure = verdictOf(report, 'Merged PR 7: add login', 'header');
    expect(azure?.status).toBe('fail');
    expect(azure?.message).toContain('^Merged PR');
    const bitbucket = verdictOf(report, 'Merged in feature/x (pull request #8)', 'header');
    expect(bitbucket?.status).toBe('fail');
    expect(bitbucket?.message).toContain('^Merged in ');
  });
});

describe('bypasses, exemptions and --no-verify commits are errors unless the base lowers them', () => {
  it('attack: a hand-typed HestAI-Bypass on an untested, unanchored feat fails by default; verify.bypass: warn in the base lowers it', () => {
    const strict = adopted(null);
    strict.repo.commit('feat: hotfix\n\nHestAI-Bypass: prod is down', { 'src/a.ts': 'x' });
    const failed = pushAndVerify(strict.repo, strict.remote);
    expect(failed.status).toBe(1);
    expect(verdictOf(failed.report, 'feat: hotfix', 'bypass')?.status).toBe('fail');
    const lenient = adopted(`${NO_ANCHORS}  bypass: warn\n`);
    lenient.repo.commit('feat: hotfix\n\nHestAI-Bypass: prod is down', { 'src/a.ts': 'x' });
    const warned = pushAndVerify(lenient.repo, lenient.remote);
    expect(verdictOf(warned.report, 'feat: hotfix', 'bypass')?.status).toBe('warn');
    expect(warned.status).toBe(0);
  });

  it('TDD-Exempt fails by default; verify.exempt: warn in the base lowers it', () => {
    const strict = adopted(NO_ANCHORS);
    strict.repo.commit('feat: generated\n\nTDD-Exempt: generated client', { 'src/a.ts': 'x' });
    expect(verdictOf(pushAndVerify(strict.repo, strict.remote).report, 'feat: generated', 'test-first')?.status).toBe(
      'fail',
    );
    const lenient = adopted(`${NO_ANCHORS}  exempt: warn\n`);
    lenient.repo.commit('feat: generated\n\nTDD-Exempt: generated client', { 'src/a.ts': 'x' });
    const warned = pushAndVerify(lenient.repo, lenient.remote);
    expect(verdictOf(warned.report, 'feat: generated', 'test-first')?.status).toBe('warn');
    expect(warned.status).toBe(0);
  });

  it('a --no-verify commit (no HestAI trailers) fails the trailers rule by default; verify.trailers: warn lowers it', () => {
    const strict = adopted('verify:\n  anchors: off\n');
    strict.repo.commit('docs: no hooks', { 'docs/a.md': 'a' });
    const failed = pushAndVerify(strict.repo, strict.remote);
    expect(failed.status).toBe(1);
    expect(verdictOf(failed.report, 'docs: no hooks', 'trailers')?.status).toBe('fail');
    const lenient = adopted('verify:\n  anchors: off\n  trailers: warn\n');
    lenient.repo.commit('docs: no hooks', { 'docs/a.md': 'a' });
    expect(pushAndVerify(lenient.repo, lenient.remote).status).toBe(0);
  });
});
