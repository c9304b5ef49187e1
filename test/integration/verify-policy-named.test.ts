import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';

// Issue 25, item 6: right after `hestai init`, `verify --from X` failed every commit's anchor without saying
// which config judged them (X has no .hestai_workspace.yaml, so the defaults; the working tree's new file is
// never the policy). Every format names the policy: the file at its commit, or the defaults and why.

describe('verify names the config it judged with', () => {
  it('the defaults when the base has no .hestai_workspace.yaml (right after init), in text, github and json', () => {
    const repo = makeRepo();
    const base = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    repo.commit('docs: notes', { 'notes.md': 'x\n' });
    const text = repo.hestai(['verify', '--from', base]);
    expect(text.status).toBe(1);
    expect(text.stdout).toContain(
      `policy: the defaults: ${base.slice(0, 7)} (the base, from --from) has no .hestai_workspace.yaml`,
    );
    const github = repo.hestai(['verify', '--from', base, '--format', 'github']);
    expect(github.stdout).toContain(`policy: the defaults: ${base.slice(0, 7)} (the base, from --from) has no`);
    const json = repo.hestai(['verify', '--from', base, '--format', 'json']);
    expect((JSON.parse(json.stdout) as { range: { policy_file: string | null } }).range.policy_file).toBeNull();
  });

  it("the base's file when it has one, and the --policy commit's when that is given", () => {
    const repo = makeRepo();
    const base = repo.commit('chore: config', {
      '.hestai_workspace.yaml': 'verify:\n  anchors: off\n  trailers: off\n',
    });
    repo.commit('docs: notes', { 'notes.md': 'x\n' });
    const text = repo.hestai(['verify', '--from', base]);
    expect(text.status, text.stdout).toBe(0);
    expect(text.stdout).toContain(`policy: ${base.slice(0, 7)}:.hestai_workspace.yaml (the base, from --from)`);
    const head = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    const audit = repo.hestai(['verify', '--from', base, '--policy', 'HEAD', '--format', 'json']);
    const range = (JSON.parse(audit.stdout) as { range: { policy: string; policy_file: string | null } }).range;
    expect(range).toMatchObject({ policy: head, policy_file: `${head.slice(0, 7)}:.hestai_workspace.yaml` });
    expect(repo.hestai(['verify', '--from', base, '--policy', 'HEAD']).stdout).toContain(
      `policy: ${head.slice(0, 7)}:.hestai_workspace.yaml (--policy)`,
    );
  });
});
