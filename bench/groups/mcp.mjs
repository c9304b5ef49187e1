// MCP over stdio: cold start to the first tool result for `hestai mcp` against the SDK's own minimal
// server, and a warm proof-stage call on a connected `hestai mcp`.
import fs from 'node:fs';
import path from 'node:path';
import { CLI, ROOT } from '../lib/env.mjs';
import { bindPayload, makeRepo, missing, proofPayload } from '../lib/hestai.mjs';
import { callTool, coldRoundTrip, connect } from '../lib/mcp-client.mjs';
import { measureInProcess } from '../lib/measure.mjs';

const SDK_SERVER = path.join(ROOT, 'bench/mcp/sdk-minimal-server.mjs');
/** The first tool a cold client calls on `hestai mcp`: the read-only gating check. */
export const HESTAI_COLD_TOOL = { name: 'anchor_status', args: (repo) => ({ working_dir: repo }) };

function text(result) {
  return result.structuredContent ?? JSON.parse(result.content?.find((c) => c.type === 'text')?.text ?? '{}');
}

export function mcpColdGroup() {
  let repo;
  return {
    id: 'mcp-cold',
    title: 'MCP cold start to first tool result',
    members: [
      {
        id: 'sdk-minimal',
        label: 'SDK minimal stdio server: spawn, initialize, one tool call',
        kind: 'baseline',
        prepare() {
          repo ??= makeRepo('none');
        },
        measure: () => coldRoundTrip({ command: process.execPath, args: [SDK_SERVER], cwd: repo.repo, env: repo.env }, 'ping'),
      },
      {
        id: 'hestai-mcp-cold',
        label: `hestai mcp: spawn, initialize, ${HESTAI_COLD_TOOL.name}`,
        kind: 'case',
        skip: () => missing(['mcp']),
        prepare() {
          repo ??= makeRepo('none');
        },
        measure: () =>
          coldRoundTrip({ command: process.execPath, args: [CLI, 'mcp'], cwd: repo.repo, env: repo.env }, HESTAI_COLD_TOOL.name, HESTAI_COLD_TOOL.args(repo.repo)),
        cleanup: () => repo && fs.rmSync(repo.base, { recursive: true, force: true }),
      },
    ],
    ratios: [
      { case: 'hestai-mcp-cold', baseline: 'sdk-minimal', metric: 'wall', budget: { op: '<', limit: 1.5 } },
      { case: 'hestai-mcp-cold', baseline: 'sdk-minimal', metric: 'rss' },
    ],
  };
}

export function mcpWarmGroup() {
  let repo;
  let session;
  let token;
  return {
    id: 'mcp-warm',
    title: 'MCP warm proof-stage call',
    warmups: (opts) => (opts.quick ? 2 : 5),
    iterations: (opts) => (opts.quick ? 5 : 30),
    members: [
      {
        id: 'mcp-warm-proof',
        label: 'hestai mcp: anchor proof stage on a connected server',
        kind: 'case',
        async skip() {
          const reason = missing(['mcp']);
          if (reason) return reason;
          const probe = makeRepo('none');
          const s = await connect({ command: process.execPath, args: [CLI, 'mcp'], cwd: probe.repo, env: probe.env });
          const names = (await s.client.listTools()).tools.map((t) => t.name);
          await s.client.close();
          fs.rmSync(probe.base, { recursive: true, force: true });
          const absent = ['clock_in', 'anchor'].filter((n) => !names.includes(n));
          return absent.length ? `not built yet: hestai mcp has no ${absent.join(', ')} tool` : null;
        },
        async prepare() {
          repo = makeRepo('hestai');
          session = await connect({ command: process.execPath, args: [CLI, 'mcp'], cwd: repo.repo, env: repo.env });
        },
        // Untimed: clock_in, identity and context stages, so the timed call is the proof stage alone.
        async setup() {
          const clocked = text(await callTool(session, 'clock_in', { working_dir: repo.repo, role: repo.role, focus: 'bench' }));
          token = clocked.session_id;
          await callTool(session, 'anchor', { working_dir: repo.repo, stage: 'identity', role: repo.role, token });
          await callTool(session, 'anchor', { working_dir: repo.repo, stage: 'context', token, payload: bindPayload(repo.role) });
        },
        measure: () => measureInProcess(() => callTool(session, 'anchor', { working_dir: repo.repo, stage: 'proof', token, payload: proofPayload() })),
        async cleanup() {
          await session?.client.close();
          if (repo) fs.rmSync(repo.base, { recursive: true, force: true });
        },
      },
    ],
    absolute: [{ case: 'mcp-warm-proof', metric: 'wall', budget: { op: '<', limit: 20 } }],
  };
}
