import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';

// Issue 40 item 7: the closing "tdd.policy same-commit" hint follows a test-first failure only; docs and JSON agree.
function onMain() {
  const repo = makeRepo();
  repo.commit('chore: config', { '.hestai_workspace.yaml': 'verify:\n  trailers: off\n  anchors: off\n' });
  return { repo, tip: repo.git(['rev-parse', 'HEAD']).stdout.trim() };
}

describe('verify closing hint', () => {
  it('a header error alone on the default branch gets no same-commit hint; a test-first failure does', () => {
    const { repo, tip } = onMain();
    repo.commit('Update readme', { 'README.md': 'x\n' });
    const header = repo.hestai(['verify', '--from', tip, '--to', 'HEAD']);
    expect(header.status).toBe(1);
    expect(header.stdout).not.toContain('same-commit');
    repo.commit('feat: add x', { 'src/x.ts': 'x\n' });
    const tdd = repo.hestai(['verify', '--from', tip, '--to', 'HEAD']);
    expect(tdd.status).toBe(1);
    expect(tdd.stdout).toContain('same-commit');
  });

  it('JSON commits carry no files field, and the docs do not say they do', () => {
    const { repo, tip } = onMain();
    repo.commit('docs: x', { 'docs/x.md': 'x\n' });
    const result = repo.hestai(['verify', '--format', 'json', '--from', tip, '--to', 'HEAD']);
    const report = JSON.parse(result.stdout) as { commits: Record<string, unknown>[] };
    expect(report.commits.length).toBeGreaterThan(0);
    for (const c of report.commits) expect(Object.keys(c)).not.toContain('files');
    const docs = fs.readdirSync('docs').map((f) => fs.readFileSync(path.join('docs', f), 'utf8'));
    for (const text of docs) expect(text).not.toMatch(/`files: \[\]`/);
  });
});
