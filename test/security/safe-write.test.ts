import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { workspacePaths } from '../../src/paths.js';
import { appendJsonl, withLock, writeFileAtomic, removeStatePath } from '../../src/state/store.js';
import { makeRepo, PROJECT_ROOT, tempDir } from '../helpers/git-repo.js';
import { seedSession } from '../helpers/session-fixture.js';
import { hestai, noStack, outsideDir, repoWithLink } from './helpers.js';

// Issue 12, item 1: every write under .hestai/ goes through one primitive that refuses symlinks and
// non-regular files on every path component inside the worktree. Each test is a repository prepared by
// someone else, with a committed symlink where one of the writers writes.

const CONFIG = 'freshness:\n  max_age_hours: 24\n';

describe('safe writes: committed symlinks under .hestai/ never lead a writer out', () => {
  it('status does not replace a file through a .hestai/cache symlink', () => {
    const outside = outsideDir();
    fs.writeFileSync(path.join(outside.dir, 'config.json'), 'precious\n');
    const repo = repoWithLink('.hestai/cache', outside.dir, {
      '.hestai_workspace.yaml': CONFIG,
      '.hestai/context/.keep': '',
    });
    const before = outside.snapshot();
    const result = hestai(repo, ['status']);
    noStack(result);
    expect(outside.snapshot()).toEqual(before);
  });

  it('clock-in does not append through a .hestai/audit/audit.jsonl symlink (exit 2, names the link)', () => {
    const outside = outsideDir();
    const repo = repoWithLink('.hestai/audit/audit.jsonl', outside.sentinel);
    const before = outside.snapshot();
    const result = hestai(repo, ['clock-in', '--role', 'implementation-lead']);
    noStack(result);
    expect(outside.snapshot()).toEqual(before);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/audit\.jsonl.*symlink/);
  });

  it('clock-in does not write through a .hestai/audit directory symlinked inside the worktree', () => {
    const repo = repoWithLink('.hestai/audit', '../docs', { 'docs/guide.md': '# guide\n' });
    const result = hestai(repo, ['clock-in', '--role', 'implementation-lead']);
    noStack(result);
    expect(fs.readdirSync(path.join(repo.dir, 'docs'))).toEqual(['guide.md']);
    expect(result.status).toBe(2);
  });

  it('clock-in does not write the FAST layer through a .hestai/context/state symlink', () => {
    const outside = outsideDir();
    const repo = repoWithLink('.hestai/context/state', outside.dir);
    const before = outside.snapshot();
    const result = hestai(repo, ['clock-in', '--role', 'implementation-lead']);
    noStack(result);
    expect(outside.snapshot()).toEqual(before);
    expect(result.status).toBe(2);
  });

  it('clock-in does not replace a FAST-layer file that is a committed symlink', () => {
    const outside = outsideDir();
    const repo = repoWithLink('.hestai/context/state/current-focus.oct.md', outside.sentinel);
    const result = hestai(repo, ['clock-in', '--role', 'implementation-lead']);
    noStack(result);
    expect(fs.readFileSync(outside.sentinel, 'utf8')).toBe('export PS1=original\n');
    expect(fs.lstatSync(path.join(repo.dir, '.hestai/context/state/current-focus.oct.md')).isSymbolicLink()).toBe(true);
    expect(result.status).toBe(2);
  });

  it('clock-in does not take its lock through a .hestai/sessions/.locks symlink', () => {
    const outside = outsideDir();
    const repo = repoWithLink('.hestai/sessions/.locks', outside.dir);
    const before = outside.snapshot();
    const result = hestai(repo, ['clock-in', '--role', 'implementation-lead']);
    noStack(result);
    expect(outside.snapshot()).toEqual(before);
    expect(result.status).toBe(2);
  });

  it('anchor does not write a pending handshake through a .hestai/sessions/pending symlink', () => {
    const outside = outsideDir();
    const constitution = fs.readFileSync(
      path.join(PROJECT_ROOT, 'templates/agents/implementation-lead.oct.md'),
      'utf8',
    );
    const repo = repoWithLink('.hestai/sessions/pending', outside.dir, {
      '.hestai-sys/agents/implementation-lead.oct.md': constitution,
    });
    const before = outside.snapshot();
    const result = hestai(repo, ['anchor', '--stage', 'identity', '--role', 'implementation-lead']);
    noStack(result);
    expect(outside.snapshot()).toEqual(before);
    expect(result.status).toBe(2);
  });

  it('clock-out does not archive through a .hestai/sessions/archive symlink that points inside the worktree', () => {
    const repo = repoWithLink('.hestai/sessions/archive', '../../docs', { 'docs/guide.md': '# guide\n' });
    const session = seedSession(repo.dir);
    const result = hestai(repo, ['clock-out', '--session', session.session_id]);
    noStack(result);
    expect(fs.readdirSync(path.join(repo.dir, 'docs'))).toEqual(['guide.md']);
    expect(result.status).toBe(2);
    expect(fs.existsSync(path.join(workspacePaths(repo.dir).active, session.session_id, 'session.json'))).toBe(true);
  });

  it('ack does not append through an audit.jsonl symlink', () => {
    const outside = outsideDir();
    const repo = repoWithLink('.hestai/audit/audit.jsonl', outside.sentinel);
    const session = seedSession(repo.dir, { context_generated_at: new Date(Date.now() - 48 * 3600_000).toISOString() });
    const result = hestai(repo, ['ack', '--reason', 'still valid', '--session', session.session_id]);
    noStack(result);
    expect(fs.readFileSync(outside.sentinel, 'utf8')).toBe('export PS1=original\n');
    expect(result.status).toBe(2);
  });

  it('clock-in refuses an audit.jsonl that is a FIFO instead of blocking on it', () => {
    const repo = makeRepo();
    fs.mkdirSync(workspacePaths(repo.dir).audit, { recursive: true });
    execFileSync('mkfifo', [workspacePaths(repo.dir).auditLog]);
    const result = hestai(repo, ['clock-in', '--role', 'implementation-lead']);
    noStack(result);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/audit\.jsonl.*not a regular file/);
  });
});

describe('safe writes: the store primitive itself', () => {
  it('refuses every symlinked component between the worktree and the file, and the file itself', async () => {
    const root = tempDir();
    const outside = outsideDir();
    fs.mkdirSync(path.join(root, '.hestai'));
    fs.symlinkSync(outside.dir, path.join(root, '.hestai', 'cache'));
    expect(() => writeFileAtomic(path.join(root, '.hestai', 'cache', 'x.json'), '{}')).toThrow(/symlink/);
    expect(() => appendJsonl(path.join(root, '.hestai', 'cache', 'a.jsonl'), {})).toThrow(/symlink/);
    await expect(withLock(path.join(root, '.hestai', 'cache', 'lock'), () => 1)).rejects.toThrow(/symlink/);
    expect(() => removeStatePath(path.join(root, '.hestai', 'cache', 'bashrc'))).toThrow(/symlink/);
    fs.mkdirSync(path.join(root, '.hestai', 'audit'));
    fs.symlinkSync(outside.sentinel, path.join(root, '.hestai', 'audit', 'audit.jsonl'));
    expect(() => appendJsonl(path.join(root, '.hestai', 'audit', 'audit.jsonl'), {})).toThrow(/symlink/);
    expect(() => writeFileAtomic(path.join(root, '.hestai', 'audit', 'audit.jsonl'), '')).toThrow(/symlink/);
    expect(outside.snapshot()).toEqual({ bashrc: 'export PS1=original\n' });
  });

  it('refuses a .hestai that is itself a symlink, and a directory where a file should be', () => {
    const root = tempDir();
    const outside = outsideDir();
    fs.symlinkSync(outside.dir, path.join(root, '.hestai'));
    expect(() => writeFileAtomic(path.join(root, '.hestai', 'x'), 'x')).toThrow(/symlink/);
    const other = tempDir();
    fs.mkdirSync(path.join(other, '.hestai', 'audit', 'audit.jsonl'), { recursive: true });
    expect(() => appendJsonl(path.join(other, '.hestai', 'audit', 'audit.jsonl'), {})).toThrow(/not a regular file/);
    expect(outside.snapshot()).toEqual({ bashrc: 'export PS1=original\n' });
  });
});
