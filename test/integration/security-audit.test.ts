import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspacePaths } from '../../src/paths.js';
import { readJsonl } from '../../src/state/store.js';
import { usageError } from '../../src/errors.js';
import { auditPathTraversal } from '../../src/security.js';
import { makeRepo, runCli, tempDir, type TempRepo } from '../helpers/git-repo.js';
import { connectInProcess, textOf } from '../helpers/mcp.js';

// Seed §8: "Path traversal attempt → block and log security event". The refused path is never trusted
// as a place to write; the event goes to the audit log of the workspace the request came from (the MCP
// server's directory, the CLI's current directory) when that workspace has adopted hestai.

interface SecurityLine {
  event: string;
  session_id: string | null;
  via: string;
  code: string;
  message: string;
  at: string;
}

function adopted(): TempRepo {
  const repo = makeRepo();
  fs.mkdirSync(workspacePaths(repo.dir).hestai, { recursive: true });
  return repo;
}

const securityLines = (repo: TempRepo) => {
  const log = workspacePaths(repo.dir).auditLog;
  return fs.existsSync(log)
    ? (readJsonl(log) as SecurityLine[]).filter((line) => line.event === 'security.path_traversal')
    : [];
};

describe('path traversal attempts are blocked and logged as security events', () => {
  it('MCP: a traversal in working_dir is refused and recorded in the server directory audit log', async () => {
    const repo = adopted();
    const mcp = await connectInProcess({ cwd: repo.dir, clock: () => new Date('2026-11-23T10:00:00Z') });
    const result = await mcp.call('clock_in', { role: 'implementation-lead', working_dir: `${repo.dir}/../../etc` });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toContain('code: PATH_TRAVERSAL');
    const [line, ...more] = securityLines(repo);
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      session_id: null,
      via: 'mcp:clock_in',
      code: 'PATH_TRAVERSAL',
      at: '2026-11-23T10:00:00.000Z',
    });
    expect(line!.message).toContain(JSON.stringify(`${repo.dir}/../../etc`));
    expect(textOf(result)).toContain(`recorded as a security event in ${workspacePaths(repo.dir).auditLog}`);
    expect(mcp.logs.join('\n')).toMatch(/security: path traversal refused \(mcp:clock_in\)/);
    const { violations } = (await mcp.read('hestai://audit')) as { violations: Array<{ kind: string; event: string }> };
    expect(violations).toContainEqual(expect.objectContaining({ kind: 'violation', event: 'security.path_traversal' }));
  });

  it('CLI: control characters in --cwd are refused (exit 2) and recorded, JSON-escaped, with the command', () => {
    const repo = adopted();
    const result = repo.hestai(['--cwd', `${repo.dir}/a\nb`, 'clock-in', '--role', 'implementation-lead']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('recorded as a security event');
    const [line] = securityLines(repo);
    expect(line).toMatchObject({ via: 'cli:clock-in', code: 'PATH_TRAVERSAL' });
    expect(line!.message).toContain('\\n');
    expect(fs.readFileSync(workspacePaths(repo.dir).auditLog, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('CLI: a session directory symlinked outside the worktree is refused, recorded, and nothing is written outside', () => {
    const repo = adopted();
    const outside = tempDir();
    fs.symlinkSync(outside, workspacePaths(repo.dir).sessions);
    const result = repo.hestai(['clock-in', '--role', 'implementation-lead']);
    expect(result.status).toBe(2);
    expect(securityLines(repo)).toEqual([expect.objectContaining({ via: 'cli:clock-in', code: 'PATH_TRAVERSAL' })]);
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('never writes through an audit directory that itself escapes the worktree', () => {
    const repo = adopted();
    const outside = tempDir();
    fs.symlinkSync(outside, workspacePaths(repo.dir).audit);
    const result = repo.hestai(['--cwd', `${repo.dir}/a\u0007b`, 'status']);
    expect(result.status).toBe(2);
    expect(result.stderr).not.toContain('recorded as a security event');
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('never writes through an audit directory symlinked inside the worktree (the same guard as every write)', () => {
    const repo = adopted();
    fs.mkdirSync(path.join(repo.dir, 'docs'));
    fs.writeFileSync(path.join(repo.dir, 'docs/keep.md'), 'keep\n');
    fs.rmSync(workspacePaths(repo.dir).audit, { recursive: true, force: true });
    fs.symlinkSync('../docs', workspacePaths(repo.dir).audit);
    const result = repo.hestai(['--cwd', `${repo.dir}/a\u0007b`, 'status']);
    expect(result.status).toBe(2);
    expect(result.stderr).not.toContain('recorded as a security event');
    expect(fs.readdirSync(path.join(repo.dir, 'docs'))).toEqual(['keep.md']);
  });

  it('never appends through an audit.jsonl that is a symlink (a cloned repository could point it at ~/.bashrc)', () => {
    const repo = adopted();
    const outside = path.join(tempDir(), 'bashrc');
    fs.writeFileSync(outside, 'export PATH=$PATH\n');
    fs.mkdirSync(workspacePaths(repo.dir).audit, { recursive: true });
    fs.symlinkSync(outside, workspacePaths(repo.dir).auditLog);
    const result = repo.hestai(['--cwd', `${repo.dir}/a\u0007b`, 'status']);
    expect(result.status).toBe(2);
    expect(result.stderr).not.toContain('recorded as a security event');
    expect(fs.readFileSync(outside, 'utf8')).toBe('export PATH=$PATH\n');
  });

  it('logs for a workspace that has .hestai/ but no git repository', async () => {
    const dir = tempDir();
    fs.mkdirSync(workspacePaths(dir).hestai, { recursive: true });
    const mcp = await connectInProcess({ cwd: dir });
    const result = await mcp.call('clock_in', { role: 'implementation-lead', working_dir: `${dir}/../etc` });
    expect(result.isError).toBe(true);
    expect((readJsonl(workspacePaths(dir).auditLog) as SecurityLine[]).map((l) => l.event)).toEqual([
      'security.path_traversal',
    ]);
  });

  it('keeps the refusal when the caller directory cannot be read (recording never masks the error)', () => {
    const refusal = usageError('working directory "/a/../b" contains ".." (path traversal is refused)', {
      code: 'PATH_TRAVERSAL',
    });
    const audited = auditPathTraversal(
      refusal,
      () => {
        throw Object.assign(new Error('ENOENT: process.cwd failed'), { code: 'ENOENT' });
      },
      'cli:status',
      () => new Date(),
    );
    expect(audited).toEqual({ error: refusal, auditLog: null });
  });

  it('writes nowhere when the caller is not in a hestai workspace, and still refuses with exit 2', () => {
    const dir = tempDir();
    const result = runCli(['--cwd', '/tmp/a\u0001b', 'clock-in', '--role', 'implementation-lead'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/control characters/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
