import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchoredRepo } from '../helpers/anchored-repo.js';

// The pre-push hook joins the remote's anchors tip when someone else published meanwhile
// (src/git/anchors.ts mergeAnchorStore): every kind of file on their tip must survive the join.

describe('joining another machine’s hestai/anchors tip', () => {
  it('keeps their change records and protocol run records as well as proof records and events', () => {
    const repo = anchoredRepo();
    const other = repo.freshClone('main');
    const theirs = [
      'changes/' + 'a'.repeat(40) + '.json',
      `protocol/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/${'b'.repeat(64)}.json`,
    ];
    repo.git(['checkout', '-q', '--orphan', 'hestai/anchors'], { cwd: other });
    repo.git(['rm', '-rf', '-q', '.'], { cwd: other });
    for (const file of theirs) {
      fs.mkdirSync(path.dirname(path.join(other, file)), { recursive: true });
      fs.writeFileSync(path.join(other, file), '{}\n');
    }
    repo.git(['add', '-A'], { cwd: other });
    repo.git(['commit', '-q', '--no-verify', '-m', 'hestai: another machine'], { cwd: other });
    repo.git(['push', '-q', '--no-verify', 'origin', 'hestai/anchors'], { cwd: other });

    repo.git(['checkout', '-q', '-b', 'feat/x']);
    repo.commit('docs: work', { 'docs/a.md': 'a\n' });
    const push = repo.git(['push', '-q', 'origin', 'feat/x'], { allowFail: true });
    expect(push.status, push.stderr).toBe(0);
    const tip = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    const files = repo.git(['--git-dir', repo.remote, 'ls-tree', '-r', '--name-only', 'hestai/anchors']).stdout;
    for (const file of theirs) expect(files).toContain(file);
    expect(files).toContain(`changes/${tip}.json`);
  });
});
