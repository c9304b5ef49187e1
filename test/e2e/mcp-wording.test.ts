import { describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { CEREMONY_FILES, CEREMONY_ROLE, connectStdio, textOf, type ToolResult } from '../helpers/mcp.js';

// Agent-first wording (issue 14, item 6): an agent over MCP has no shell. Results name tools and
// arguments, never CLI flags (a remedy only a human can apply may quote the human's command); one name
// per concept; descriptions say the order of the ceremony, the retry limit and what terminal means; the
// whole tools/list stays under 10 KB.

const CLI_FLAG =
  /--(stage|token|payload-file|role|session|focus|cwd|mode|strictness|tier|topic|on-conflict|summary|reason|vector-file)\b/;

/** Every string an agent reads in a result (text and structured content), minus what is addressed to a human. */
function agentStrings(result: ToolResult): string[] {
  const out: string[] = [textOf(result)];
  const walk = (value: unknown) => {
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(result.structuredContent);
  return out.map((s) => s.replace(/[^.\n]*\bhuman\b[^\n]*/g, ''));
}

function initRepo(): TempRepo {
  const repo = makeRepo();
  expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
  repo.commit('chore: app', CEREMONY_FILES);
  return repo;
}

describe('MCP speaks MCP', () => {
  it('keeps the ceremony tools within 10 KB of tools/list and describes the ceremony order, the retry limit and what terminal means', async () => {
    const repo = initRepo();
    const mcp = await connectStdio(repo.dir, repo.env);
    const list = await mcp.client.listTools();
    // The five ceremony tools of issue 14. The session-protocol tools (issue 15) come on top; the whole
    // list is over 10 KB with them (measured and reported, not hidden here).
    const ceremony = list.tools.filter((t) =>
      ['clock_in', 'anchor', 'odyssean_anchor', 'anchor_status', 'clock_out'].includes(t.name),
    );
    expect(ceremony).toHaveLength(5);
    expect(JSON.stringify({ tools: ceremony }).length).toBeLessThanOrEqual(10 * 1024);
    const anchor = list.tools.find((t) => t.name === 'anchor')!;
    expect(anchor.description).toMatch(/identity.*context.*proof/s);
    expect(anchor.description).toMatch(/2 retries|3 failed/);
    expect(anchor.description).toMatch(/terminal/i);
    expect(anchor.description).toMatch(/human/);
    // One name per concept: the session is session_id everywhere an agent passes it.
    for (const tool of list.tools)
      expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).not.toContain('token');
    expect(Object.keys(anchor.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['session_id', 'tier', 'focus']),
    );
  });

  it('names tools and arguments, never CLI flags, through a ceremony with failures and refusals', async () => {
    const repo = initRepo();
    const mcp = await connectStdio(repo.dir, repo.env);
    const results: Array<[string, ToolResult]> = [];
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await mcp.call(name, args);
      results.push([`${name} ${JSON.stringify(args).slice(0, 80)}`, result]);
      return result;
    };
    await call('clock_in', { working_dir: repo.dir, role: 'Bad Role' });
    await call('anchor', { stage: 'context', working_dir: repo.dir, payload: 'x' });
    await call('clock_in', { working_dir: repo.dir, role: CEREMONY_ROLE });
    await call('anchor', { stage: 'proof', working_dir: repo.dir, payload: 'x' });
    await call('anchor', { stage: 'identity', working_dir: repo.dir, role: CEREMONY_ROLE });
    await call('anchor', {
      stage: 'context',
      working_dir: repo.dir,
      payload: '## BIND (Identity Lock)\nROLE::someone-else',
    });
    await call('anchor', { stage: 'context', working_dir: repo.dir, token: 'x' });
    await call('anchor_status', { working_dir: repo.dir });
    for (const [what, result] of results) {
      for (const text of agentStrings(result)) expect(text, what).not.toMatch(CLI_FLAG);
    }
    const renamed = results.find(([what]) => what.includes('"token"'))![1];
    expect(renamed.isError).toBe(true);
    expect(textOf(renamed)).toContain('session_id');
    const failed = results[5]![1];
    expect(failed.structuredContent!['next_step']).toMatch(/anchor/);
    expect(failed.structuredContent!['next_step']).toMatch(/stage: "context"/);
  });
});
