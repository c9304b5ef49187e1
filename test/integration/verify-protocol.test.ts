import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { protocolWeakenings } from '../../src/protocol/compare.js';
import { validateProtocolText } from '../../src/protocol/validate.js';
import { makeRepo, PROJECT_ROOT } from '../helpers/git-repo.js';

const DEFAULT = fs.readFileSync(path.join(PROJECT_ROOT, 'templates/protocol/default.yaml'), 'utf8');
const parse = (text: string) => validateProtocolText(text).protocol!;

function branchWith(protocol: string) {
  const repo = makeRepo();
  // Anchors are another rule's business (verify-anchors tests): here only the protocol policy is judged.
  repo.commit('chore: the protocol', {
    '.hestai/protocol.yaml': DEFAULT,
    '.hestai_workspace.yaml': 'verify:\n  trailers: off\n  anchors: off\n',
  });
  repo.git(['switch', '-q', '-c', 'feat/relax']);
  repo.commit('chore: change the protocol', { '.hestai/protocol.yaml': protocol });
  return repo;
}

describe('hestai verify: a branch may not weaken the base protocol', () => {
  it('reports a lowered, non-blocking or removed MUST gate (the base protocol counts)', () => {
    const relaxed = DEFAULT.replace(
      'step: "Anchor the session (identity, context, proof)"\n        level: MUST',
      'step: "Anchor the session (identity, context, proof)"\n        level: MAY',
    );
    expect(relaxed).not.toBe(DEFAULT);
    const repo = branchWith(relaxed);
    const res = repo.hestai(['verify', '--from', 'main', '--format', 'json']);
    expect(res.status).toBe(1);
    const report = JSON.parse(res.stdout) as {
      commits: Array<{ verdicts: Array<{ rule: string; status: string; message: string }> }>;
    };
    const verdict = report.commits.flatMap((c) => c.verdicts).find((v) => v.rule === 'protocol-policy');
    expect(verdict).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('gate BINDING/anchor was lowered from MUST to MAY'),
    });
    expect(verdict!.message).toContain('BINDING/anchor no longer blocks');
  });

  it('a branch that only adds or strengthens gates passes', () => {
    const stronger = DEFAULT.replace(
      'level: SHOULD\n        check: { type: branch_not',
      'level: MUST\n        check: { type: branch_not',
    );
    const repo = branchWith(stronger);
    const res = repo.hestai(['verify', '--from', 'main', '--format', 'json']);
    expect(res.status, res.stdout).toBe(0);
    expect(res.stdout).toContain('changed without weakening');
  });

  it('deleting the protocol file on a branch is a weakening', () => {
    const repo = makeRepo();
    // Anchors are another rule's business (verify-anchors tests): here only the protocol policy is judged.
    repo.commit('chore: the protocol', {
      '.hestai/protocol.yaml': DEFAULT,
      '.hestai_workspace.yaml': 'verify:\n  trailers: off\n  anchors: off\n',
    });
    repo.git(['switch', '-q', '-c', 'feat/drop']);
    repo.git(['rm', '-q', '.hestai/protocol.yaml']);
    repo.commit('chore: drop the protocol');
    const res = repo.hestai(['verify', '--from', 'main']);
    expect(res.status).toBe(1);
    expect(res.stdout + res.stderr).toContain('removed or is invalid');
  });

  it("reads the files of a merge whose first parent is outside the walk against that parent (git's path-limited walk compares it with its other parent)", () => {
    const repo = makeRepo();
    repo.commit('chore: the protocol', {
      '.hestai/protocol.yaml': DEFAULT,
      '.hestai_workspace.yaml': 'verify:\n  trailers: warn\n  anchors: off\n',
    });
    repo.commit('docs: a', { 'docs/a.md': 'a\n' });
    const stronger = DEFAULT.replace(
      'level: SHOULD\n        check: { type: branch_not',
      'level: MUST\n        check: { type: branch_not',
    );
    // The same protocol change on a branch and on main; the branch merged into an old main commit, that merge into main.
    repo.git(['switch', '-q', '-c', 'feat/strict']);
    repo.commit('chore: a stricter protocol', { '.hestai/protocol.yaml': stronger });
    repo.git(['switch', '-q', 'main']);
    repo.commit('chore: the stricter protocol on main', { '.hestai/protocol.yaml': stronger });
    repo.git(['switch', '-q', '-c', 'side', 'main~1']);
    // An evil merge: it adds a file neither parent has.
    repo.git(['merge', '-q', '--no-ff', '--no-commit', 'feat/strict']);
    repo.write('docs/evil.md', 'evil\n');
    repo.git(['add', 'docs/evil.md']);
    repo.git(['commit', '-q', '--no-verify', '-m', "Merge branch 'feat/strict' into side"]);
    repo.git(['switch', '-q', '-c', 'integrate', 'main']);
    repo.git(['merge', '-q', '--no-ff', '--no-edit', 'side']);
    const res = repo.hestai(['verify', '--from', 'main', '--to', 'integrate', '--format', 'github']);
    expect(res.status, res.stdout + res.stderr).toBe(1);
    // Its failure names the first file it changes against its first parent, as for any commit that changes the protocol.
    const annotation = res.stdout.split('\n').find((l) => l.includes("[Merge branch 'feat/strict' into side]"));
    expect(annotation).toMatch(/^::error file=\.hestai\/protocol\.yaml,title=hestai merge /);
  });

  it('protocolWeakenings names each weakening once', () => {
    const base = parse(DEFAULT);
    const head = parse(DEFAULT.replace(/ {6}- id: clean_tree[\s\S]*$/, ''));
    expect(protocolWeakenings(base, head)).toEqual(['MUST gate END/clean_tree was removed']);
    expect(protocolWeakenings(base, base)).toEqual([]);
  });
});
