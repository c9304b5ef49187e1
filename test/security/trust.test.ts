import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspacePaths } from '../../src/paths.js';
import { isTrusted, trustState, trustWorkspace } from '../../src/trust/index.js';
import { CLI, makeRepo, tempDir, type RunResult, type TempRepo } from '../helpers/git-repo.js';
import { hestai, noStack } from './helpers.js';

// Issue 12, item 2: what a repository can make the tool do. Commands (quality_gates) and data sent out
// (ai.base_url, ai.api_key_env, a committed .env) are inert until the user trusts that exact content
// with `hestai trust`; the record lives outside the repository, and a changed file needs trust again.

function cloned(yaml: string, files: Record<string, string> = {}): TempRepo {
  const repo = makeRepo();
  repo.commit('chore: prepared by someone else', { '.hestai_workspace.yaml': yaml, ...files });
  return repo;
}

const gate = (marker: string) => `quality_gates:\n  - name: lint\n    command: touch '${marker}'\n`;

/** The CLI run asynchronously, so an HTTP server in this process can answer it. */
function hestaiAsync(repo: TempRepo, args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: repo.dir,
      env: { ...repo.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status: status ?? -1, stdout, stderr }));
  });
}

/** A server standing in for the attacker's endpoint: records every request's authorization header. */
async function listen(): Promise<{
  url: string;
  seen: { url: string; authorization: string | null }[];
  close: () => Promise<void>;
}> {
  const seen: { url: string; authorization: string | null }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization ?? null });
    req.resume();
    req.on('end', () => {
      res.writeHead(500).end('no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('trust: repository commands are inert until trusted', () => {
  it('clock-in does not run quality_gates of an untrusted workspace file, and says how to trust it', () => {
    const marker = path.join(tempDir(), 'pwned');
    const repo = cloned(gate(marker));
    const result = hestai(repo, ['clock-in', '--role', 'implementation-lead']);
    noStack(result);
    expect(result.status).toBe(0);
    expect(fs.existsSync(marker)).toBe(false);
    expect(result.stdout + result.stderr).toMatch(/not trusted.*hestai trust/s);
  });

  it('after `hestai trust` the gates run; a changed file is untrusted again', () => {
    const dir = tempDir();
    const repo = cloned(gate(path.join(dir, 'first')));
    const trusted = hestai(repo, ['trust']);
    expect(trusted.status).toBe(0);
    expect(trusted.stdout).toContain(`touch '${path.join(dir, 'first')}'`);
    expect(hestai(repo, ['clock-in', '--role', 'implementation-lead']).status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'first'))).toBe(true);
    repo.commit('chore: another gate', { '.hestai_workspace.yaml': gate(path.join(dir, 'second')) });
    const again = hestai(repo, ['clock-in', '--role', 'implementation-lead', '--on-conflict', 'continue']);
    expect(again.status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'second'))).toBe(false);
    expect(again.stdout + again.stderr).toMatch(/changed since you trusted it/);
  });

  it('records trust outside the repository (git status stays clean), under HOME', () => {
    const repo = cloned(gate('/nonexistent/x'));
    expect(hestai(repo, ['trust']).status).toBe(0);
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
    expect(fs.readdirSync(path.join(repo.home, '.hestai', 'trust'))).toHaveLength(1);
    const paths = workspacePaths(repo.dir);
    expect(isTrusted(paths, repo.env)).toBe(true);
    expect(isTrusted(paths, { ...repo.env, HOME: tempDir() })).toBe(false);
    expect(hestai(repo, ['trust', '--revoke']).status).toBe(0);
    expect(isTrusted(paths, repo.env)).toBe(false);
  });

  it('the trust covers .hestai/protocol.yaml as well (its gates can run commands)', () => {
    const repo = cloned(gate('/nonexistent/x'), { '.hestai/protocol.yaml': 'version: 1\n' });
    const paths = workspacePaths(repo.dir);
    trustWorkspace(paths, repo.env, new Date('2026-11-23T10:00:00Z'));
    expect(trustState(paths, repo.env).status).toBe('trusted');
    fs.writeFileSync(paths.protocol, 'version: 1\n# edited\n');
    expect(trustState(paths, repo.env).status).toBe('changed');
  });

  it('gate commands get a minimal documented environment, never the caller secrets', () => {
    const dir = tempDir();
    const out = path.join(dir, 'env.txt');
    const repo = cloned(`quality_gates:\n  - name: env\n    command: env > '${out}'\n`);
    expect(hestai(repo, ['trust']).status).toBe(0);
    expect(
      hestai(repo, ['clock-in', '--role', 'implementation-lead'], {
        GITHUB_TOKEN: 'ghp_secret',
        AWS_SECRET_ACCESS_KEY: 'aws',
      }).status,
    ).toBe(0);
    const env = fs.readFileSync(out, 'utf8');
    expect(env).toMatch(/^PATH=/m);
    expect(env).not.toContain('ghp_secret');
    expect(env).not.toContain('AWS_SECRET_ACCESS_KEY');
  });

  it('status and doctor say what is untrusted and how to trust it', () => {
    const repo = cloned(`${gate('/nonexistent/x')}ai:\n  base_url: http://127.0.0.1:9/v1\n`);
    const status = hestai(repo, ['status']);
    expect(status.status).toBe(0);
    expect(status.stdout).toMatch(/not trusted/);
    expect(status.stdout).toMatch(/quality_gates/);
    expect(status.stdout).toMatch(/ai\.base_url/);
    expect(status.stdout).toMatch(/hestai trust/);
    const json = JSON.parse(hestai(repo, ['status', '--json']).stdout) as {
      trust: { status: string; inert: string[] };
    };
    expect(json.trust.status).toBe('untrusted');
    expect(json.trust.inert).toEqual(expect.arrayContaining(['quality_gates', 'ai.base_url']));
    const doctor = hestai(repo, ['doctor']);
    expect(doctor.stdout).toMatch(/trust.*not trusted/);
    expect(doctor.stdout).toMatch(/hestai trust/);
  });
});

describe('trust: a repository cannot send data or a key to a server it names', () => {
  it('an untrusted ai.base_url with ai.api_key_env GITHUB_TOKEN is never contacted', async () => {
    const server = await listen();
    try {
      const repo = cloned(`ai:\n  base_url: ${server.url}\n  api_key_env: GITHUB_TOKEN\n  model_override: m\n`);
      const result = await hestaiAsync(repo, ['clock-in', '--role', 'implementation-lead'], {
        GITHUB_TOKEN: 'ghp_secret',
      });
      expect(result.status).toBe(0);
      expect(server.seen).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("an untrusted repository cannot reuse the key variable the user's own ai.yaml names", async () => {
    const server = await listen();
    try {
      const repo = cloned(`ai:\n  base_url: ${server.url}\n  api_key_env: MY_AI_KEY\n  model_override: m\n`);
      fs.mkdirSync(path.join(repo.home, '.hestai', 'config'), { recursive: true });
      fs.writeFileSync(
        path.join(repo.home, '.hestai', 'config', 'ai.yaml'),
        'base_url: http://127.0.0.1:9/v1\napi_key_env: MY_AI_KEY\nmodel: m\n',
      );
      const result = await hestaiAsync(repo, ['clock-in', '--role', 'implementation-lead'], { MY_AI_KEY: 'sk-user' });
      expect(result.status).toBe(0);
      expect(server.seen).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('a committed .env naming an endpoint is repository content too: inert until trusted', async () => {
    const server = await listen();
    try {
      const repo = cloned('github:\n  issue_search: false\n', {
        '.env': `HESTAI_AI_BASE_URL=${server.url}\nHESTAI_AI_MODEL=m\n`,
      });
      const result = await hestaiAsync(repo, ['clock-in', '--role', 'implementation-lead']);
      expect(result.status).toBe(0);
      expect(server.seen).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('once trusted, the key goes only to the endpoint of the same trusted file', async () => {
    const server = await listen();
    try {
      const repo = cloned(`ai:\n  base_url: ${server.url}\n  api_key_env: TEAM_AI_KEY\n  model_override: m\n`);
      expect(hestai(repo, ['trust']).status).toBe(0);
      const result = await hestaiAsync(repo, ['clock-in', '--role', 'implementation-lead'], { TEAM_AI_KEY: 'sk-team' });
      expect(result.status).toBe(0);
      // Two calls (context selection and FAST-layer synthesis), both to the trusted endpoint with its key.
      expect(server.seen).toEqual([
        { url: '/v1/chat/completions', authorization: 'Bearer sk-team' },
        { url: '/v1/chat/completions', authorization: 'Bearer sk-team' },
      ]);
    } finally {
      await server.close();
    }
  });
});
