// MCP over stdio: cold start to the first tool result for `hestai mcp` against the SDK's own minimal
// server, and a warm proof-stage call on a connected `hestai mcp`.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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
    // At least 25 pairs: the budget (≤ 1.0×) sits a few per cent above the measured ratio, so the median must
    // not move with one slow spawn on a shared machine.
    iterations: (opts) => (opts.quick ? opts.iterations : Math.max(opts.iterations, 25)),
    members: [
      {
        id: 'sdk-minimal',
        label: 'SDK minimal stdio server: spawn, initialize, one tool call',
        kind: 'baseline',
        prepare() {
          repo ??= makeRepo('none');
        },
        measure: () =>
          coldRoundTrip({ command: process.execPath, args: [SDK_SERVER], cwd: repo.repo, env: repo.env }, 'ping'),
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
          coldRoundTrip(
            { command: process.execPath, args: [CLI, 'mcp'], cwd: repo.repo, env: repo.env },
            HESTAI_COLD_TOOL.name,
            HESTAI_COLD_TOOL.args(repo.repo),
          ),
        cleanup: () => repo && fs.rmSync(repo.base, { recursive: true, force: true }),
      },
    ],
    ratios: [
      // Issue 14: cold start stays at most as slow as the SDK's own minimal server.
      { case: 'hestai-mcp-cold', baseline: 'sdk-minimal', metric: 'wall', budget: { op: '<=', limit: 1.0 } },
      { case: 'hestai-mcp-cold', baseline: 'sdk-minimal', metric: 'rss' },
    ],
  };
}

export function mcpWarmGroup() {
  let lib;
  let libRepo;
  let libToken;
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
          const clocked = text(
            await callTool(session, 'clock_in', { working_dir: repo.repo, role: repo.role, focus: 'bench' }),
          );
          token = clocked.session_id;
          await callTool(session, 'anchor', {
            working_dir: repo.repo,
            stage: 'identity',
            role: repo.role,
            session_id: token,
          });
          await callTool(session, 'anchor', {
            working_dir: repo.repo,
            stage: 'context',
            session_id: token,
            payload: bindPayload(repo.role),
          });
        },
        measure: () =>
          measureInProcess(() =>
            callTool(session, 'anchor', {
              working_dir: repo.repo,
              stage: 'proof',
              session_id: token,
              payload: proofPayload(),
            }),
          ),
        async cleanup() {
          await session?.client.close();
          if (repo) fs.rmSync(repo.base, { recursive: true, force: true });
        },
      },
      {
        id: 'lib-proof',
        label: 'anchor proof stage, library call in-process (the floor under the MCP call)',
        kind: 'baseline',
        async skip() {
          const entry = path.join(ROOT, 'dist/index.js');
          lib = fs.existsSync(entry) ? await import(pathToFileURL(entry).href) : {};
          return typeof lib.anchor === 'function' ? null : 'not built yet: dist/index.js exports no anchor()';
        },
        prepare() {
          libRepo = makeRepo('hestai');
        },
        // Untimed: identity (which clocks in without a token) and context.
        async setup() {
          const id = await lib.anchor(
            { stage: 'identity', working_dir: libRepo.repo, role: libRepo.role },
            { env: libRepo.env },
          );
          if (!id.success) throw new Error(`identity failed: ${id.errors.join('; ')}`);
          libToken = id.token;
          const ctx = await lib.anchor({
            stage: 'context',
            working_dir: libRepo.repo,
            token: libToken,
            payload: bindPayload(libRepo.role),
          });
          if (!ctx.success) throw new Error(`context failed: ${ctx.errors.join('; ')}`);
        },
        measure: () =>
          measureInProcess(async () => {
            const r = await lib.anchor({
              stage: 'proof',
              working_dir: libRepo.repo,
              token: libToken,
              payload: proofPayload(),
            });
            if (!r.success) throw new Error(`proof failed: ${r.errors.join('; ')}`);
          }),
        cleanup: () => libRepo && fs.rmSync(libRepo.base, { recursive: true, force: true }),
      },
    ],
    absolute: [
      { case: 'mcp-warm-proof', metric: 'wall', budget: { op: '<', limit: 20 } },
      { case: 'lib-proof', metric: 'wall' },
    ],
  };
}
