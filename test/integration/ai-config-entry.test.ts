import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, makeRepo } from '../helpers/git-repo.js';
import { chatServer, completion, pathWithoutGh } from '../helpers/session-fixtures.js';

// Issue 30, item 6: the provider settings in ~/.hestai/config/ai.yaml reach the bundled CLI (dist/), not
// only the library: a clock-in through the built CLI against a loopback AI endpoint takes the AI path.

/** Runs the built CLI without blocking this process (the loopback server answers from it). */
function runCli(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('provider settings from every entry point', () => {
  it('the built CLI reads ~/.hestai/config/ai.yaml and selects the context through its endpoint', async () => {
    const repo = makeRepo();
    const server = await chatServer(() => completion('{"selected":["README.md"]}'));
    fs.mkdirSync(path.join(repo.home, '.hestai/config'), { recursive: true });
    fs.writeFileSync(
      path.join(repo.home, '.hestai/config/ai.yaml'),
      `base_url: ${server.url}\nmodel: home-model\napi_key: sk-home\n`,
    );
    const env = { ...repo.env, PATH: pathWithoutGh() };
    expect((await runCli(['init', '--no-husky'], repo.dir, env)).status).toBe(0);
    const res = await runCli(['clock-in', '--role', 'implementation-lead', '--focus', 'ai', '--json'], repo.dir, env);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stderr).not.toContain('is not valid YAML');
    expect(JSON.parse(res.stdout)).toMatchObject({ selection: { method: 'ai', model: 'home-model' } });
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests[0]!.headers['authorization']).toBe('Bearer sk-home');
  });
});
