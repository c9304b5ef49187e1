import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adoptClaudeCode, bashCall, newAgent, runClaudeHook } from '../helpers/claude-hook.js';
import { CLI, makeRepo } from '../helpers/git-repo.js';
import { connectStdio } from '../helpers/mcp.js';
import { pathWithoutGh } from '../helpers/session-fixtures.js';

// Issue 37, item 1: a remedy hestai prints to an agent before its anchor is a command its own agent hook lets
// through. In a local install (node_modules/.bin/hestai, no hestai on PATH) the MCP server's CLI step was
// `npx hestai ...`, which the pre-anchor rule refuses. Here the anchor step session://violations returns over the SDK's real
// stdio client is fed as a Bash call to the hook `init --agent claude-code` wrote, then run for real.

describe('the remedies an agent is given before its anchor run through its own hook', () => {
  it('MCP session://violations in a local install: the recovery of a forced advance names no `npx hestai`; the Claude Code hook allows it, and it runs', async () => {
    const repo = makeRepo();
    fs.mkdirSync(path.join(repo.dir, 'node_modules/.bin'), { recursive: true });
    fs.symlinkSync(CLI, path.join(repo.dir, 'node_modules/.bin/hestai'));
    fs.appendFileSync(path.join(repo.dir, '.gitignore'), 'node_modules/\n');
    const { command } = adoptClaudeCode(repo);
    fs.appendFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'protocol:\n  enforce: true\n');
    const env = { ...repo.env, PATH: pathWithoutGh() };
    expect(spawnSync('sh', ['-c', 'command -v hestai'], { env, encoding: 'utf8' }).status).not.toBe(0);
    const clock = repo.hestai(['--json', 'clock-in', '--role', 'implementation-lead'], { env });
    expect(clock.status, clock.stderr).toBe(0);
    const session = (JSON.parse(clock.stdout) as { session_id: string }).session_id;

    const mcp = await connectStdio(repo.dir, { ...env, HESTAI_SESSION: session });
    const started = await mcp.call('session_start', { working_dir: repo.dir, objective: 'remedies' });
    expect(started.isError, JSON.stringify(started.content)).toBeFalsy();
    // A forced advance records each skipped requirement with its recovery, worded for the CLI (session://violations).
    const forced = await mcp.call('advance_phase', { working_dir: repo.dir, force: true });
    expect(forced.structuredContent, JSON.stringify(forced.content)).toMatchObject({ success: true });
    const text = JSON.stringify(await mcp.read('session://violations'));
    const cli = /((?:npx |node )?[^\s"]+) anchor --stage identity --role implementation-lead --token /.exec(text)?.[1];
    expect(cli, text).toBeDefined();
    expect(cli).not.toMatch(/npx/);

    const step = `${cli} anchor --stage identity --role implementation-lead --token ${session}`;
    const agent = newAgent('remedy');
    const refused = runClaudeHook(repo, command, agent, bashCall('ls'), { ...env, HESTAI_SESSION: session });
    expect(refused.status, 'before the anchor, another command is refused').toBe(2);
    const allowed = runClaudeHook(repo, command, agent, bashCall(step), { ...env, HESTAI_SESSION: session });
    expect(allowed.status, `${step}\n${allowed.stderr}`).toBe(0);
    expect(allowed.stdout).not.toContain('"deny"');
    const ran = spawnSync('sh', ['-c', step], { cwd: repo.dir, env: { ...env, HESTAI_SESSION: session } });
    expect(ran.status, `${step}\n${String(ran.stderr)}`).toBe(0);
    expect(String(ran.stdout)).toContain('BIND');
  });
});
