// Warm MCP calls on connected servers, interleaved over real stdio clients: `hestai mcp` answering
// anchor_status and resources/read session://state, against the SDK's own minimal server answering a
// trivial tool and a trivial resource (issue 14: at most 1.5× the minimal server on the same SDK).
import fs from 'node:fs';
import path from 'node:path';
import { CLI, ROOT } from '../lib/env.mjs';
import { makeRepo, missing } from '../lib/hestai.mjs';
import { callTool, connect } from '../lib/mcp-client.mjs';
import { measureInProcess } from '../lib/measure.mjs';

const SDK_SERVER = path.join(ROOT, 'bench/mcp/sdk-minimal-server.mjs');

export function mcpCallsGroup() {
  let repo;
  let hestai;
  let minimal;
  const connectAll = async () => {
    repo ??= makeRepo('hestai');
    if (!hestai) {
      hestai = await connect({ command: process.execPath, args: [CLI, 'mcp'], cwd: repo.repo, env: repo.env });
      // The connection's own session: anchor_status and session://state read its record and anchor state.
      await callTool(hestai, 'clock_in', { working_dir: repo.repo, role: repo.role, focus: 'bench' });
    }
    minimal ??= await connect({ command: process.execPath, args: [SDK_SERVER], cwd: repo.repo, env: repo.env });
  };
  return {
    id: 'mcp-calls',
    title: 'MCP warm calls on connected servers (interleaved stdio clients)',
    // A call takes well under a millisecond: enough warm-ups for the JIT to have compiled both servers' paths
    // (10 left the hestai side, which runs more code, half-optimised), and enough pairs for a stable median.
    warmups: (opts) => (opts.quick ? 3 : 100),
    iterations: (opts) => (opts.quick ? 10 : 300),
    members: [
      {
        id: 'sdk-minimal-tool',
        label: 'SDK minimal server: tools/call ping',
        kind: 'baseline',
        prepare: connectAll,
        measure: () => measureInProcess(() => callTool(minimal, 'ping')),
      },
      {
        id: 'hestai-anchor-status',
        label: 'hestai mcp: tools/call anchor_status',
        kind: 'case',
        skip: () => missing(['mcp']),
        prepare: connectAll,
        measure: () => measureInProcess(() => callTool(hestai, 'anchor_status', { working_dir: repo.repo })),
      },
      {
        id: 'sdk-minimal-resource',
        label: 'SDK minimal server: resources/read',
        kind: 'baseline',
        prepare: connectAll,
        measure: () => measureInProcess(() => minimal.client.readResource({ uri: 'bench://static' })),
      },
      {
        id: 'hestai-state',
        label: 'hestai mcp: resources/read session://state',
        kind: 'case',
        skip: () => missing(['mcp']),
        prepare: connectAll,
        measure: () => measureInProcess(() => hestai.client.readResource({ uri: 'session://state' })),
        async cleanup() {
          await hestai?.client.close();
          await minimal?.client.close();
          if (repo) fs.rmSync(repo.base, { recursive: true, force: true });
          hestai = minimal = repo = undefined;
        },
      },
    ],
    ratios: [
      { case: 'hestai-anchor-status', baseline: 'sdk-minimal-tool', metric: 'wall', budget: { op: '<=', limit: 1.5 } },
      { case: 'hestai-state', baseline: 'sdk-minimal-resource', metric: 'wall', budget: { op: '<=', limit: 1.5 } },
    ],
  };
}
