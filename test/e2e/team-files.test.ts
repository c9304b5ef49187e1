import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/git-repo.js';

// Issue 28, item 6: the files init writes for agents (.mcp.json, .claude/settings.json) are files a team
// commits: no absolute path of the adopter's machine, and the MCP server starts from .mcp.json as written.

function localInstall(repo: TempRepo): void {
  fs.mkdirSync(path.join(repo.dir, 'node_modules/.bin'), { recursive: true });
  fs.symlinkSync(PROJECT_ROOT, path.join(repo.dir, 'node_modules/hestai-hooks'));
  fs.symlinkSync('../hestai-hooks/dist/cli/bin.js', path.join(repo.dir, 'node_modules/.bin/hestai'));
}

describe('files a team can commit', () => {
  it('.mcp.json and .claude/settings.json name no path of this machine, and the server starts from .mcp.json', async () => {
    const repo = makeRepo();
    localInstall(repo);
    const init = spawnSync('npx', ['hestai', 'init', '--agent', 'claude-code'], {
      cwd: repo.dir,
      env: repo.env,
      encoding: 'utf8',
    });
    expect(init.status, init.stdout + init.stderr).toBe(0);
    for (const file of ['.mcp.json', '.claude/settings.json']) {
      const text = fs.readFileSync(path.join(repo.dir, file), 'utf8');
      for (const machinePath of [repo.dir, PROJECT_ROOT, repo.home, path.dirname(repo.dir)])
        expect(text, `${file} names ${machinePath}`).not.toContain(machinePath);
      expect(text, file).not.toMatch(/(?<!\\)"\/(?!\/)/); // no JSON string starting with an absolute path
    }

    // Claude Code starts the server with the command and args of .mcp.json, in the project directory.
    const { mcpServers } = JSON.parse(fs.readFileSync(path.join(repo.dir, '.mcp.json'), 'utf8')) as {
      mcpServers: { hestai: { command: string; args: string[] } };
    };
    const transport = new StdioClientTransport({
      command: mcpServers.hestai.command,
      args: mcpServers.hestai.args,
      cwd: repo.dir,
      env: repo.env as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'team-files', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('clock_in');
    } finally {
      await client.close();
    }
  });
});
