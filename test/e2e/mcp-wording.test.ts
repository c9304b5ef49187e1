import { describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { CEREMONY_FILES, CEREMONY_ROLE, connectStdio, textOf, type ToolResult } from '../helpers/mcp.js';

// Agent-first wording (issue 14, item 6): an agent over MCP has no shell. Results name tools and
// arguments, never CLI flags (a remedy only a human can apply may quote the human's command); one name
// per concept; descriptions say the order of the ceremony, the retry limit and what terminal means; the
// whole tools/list response stays within 10 KB.

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
  it('keeps the whole tools/list response within 10 KB and describes the ceremony order, the retry limit and what terminal means', async () => {
    const repo = initRepo();
    const mcp = await connectStdio(repo.dir, repo.env);
    // The bytes an agent reads: the whole JSON-RPC response to tools/list as it came over stdio (all twelve
    // tools, the ceremony's and the session protocol's, with their input and output schemas).
    const transport = mcp.client.transport!;
    const deliver = transport.onmessage!;
    const responses: string[] = [];
    transport.onmessage = (message, extra) => {
      if ('result' in message && Array.isArray((message.result as { tools?: unknown }).tools))
        responses.push(JSON.stringify(message));
      deliver(message, extra);
    };
    const list = await mcp.client.listTools();
    expect(responses).toHaveLength(1);
    expect(list.tools.map((t) => t.name).sort()).toEqual(
      [
        'clock_in',
        'anchor',
        'odyssean_anchor',
        'anchor_status',
        'clock_out',
        'resolve_conflict',
        'session_start',
        'validate_gate',
        'advance_phase',
        'record_evidence',
        'get_blocked_reason',
        'session_end',
      ].sort(),
    );
    expect(Buffer.byteLength(responses[0]!)).toBeLessThanOrEqual(10 * 1024);
    const anchor = list.tools.find((t) => t.name === 'anchor')!;
    expect(anchor.description).toMatch(/identity.*context.*proof/s);
    expect(anchor.description).toMatch(/2 retries|3 failed/);
    expect(anchor.description).toMatch(/terminal/i);
    expect(anchor.description).toMatch(/human/);
    expect(list.tools.find((t) => t.name === 'anchor_status')!.description).toMatch(/TERMINAL/);
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
