// Entry of `hooks/claude-code`, bundled by scripts/build.mjs into dist/hooks/claude-code.cjs (one CommonJS
// file without commander or the MCP SDK: it runs before every file-changing tool call). The SessionStart
// handler, which clocks in, is imported only then.
import fs from 'node:fs';
import { runClaudeHook } from '../claude-code.js';
import { ADAPTERS } from '../adapters/index.js';
import { writeFd } from '../../util/fd-write.js';

/**
 * All of stdin, read with fs.read on descriptor 0: no stream or net module to load (process.stdin would
 * cost more than the whole decision). Falls back to the stream where fd 0 cannot be read that way.
 */
function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const buffer = Buffer.alloc(65_536);
    const viaStream = () => {
      process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
      process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      process.stdin.on('error', reject);
    };
    const step = () =>
      fs.read(0, buffer, 0, buffer.length, null, (error, bytes) => {
        if (error)
          return error.code === 'EAGAIN' || error.code === 'EISDIR'
            ? viaStream()
            : error.code === 'EOF'
              ? resolve(Buffer.concat(chunks).toString('utf8'))
              : reject(error);
        if (bytes === 0) return resolve(Buffer.concat(chunks).toString('utf8'));
        chunks.push(Buffer.from(buffer.subarray(0, bytes)));
        step();
      });
    step();
  });
}

/**
 * The SessionStart payload `--session-start <runtime session id>` stands for (the step a refusal names when a
 * runtime session is bound to no hestai session: a plain command the agent may run before its anchor).
 */
function sessionStartPayload(runtime: string, id: string): string {
  if (runtime === 'cursor') return JSON.stringify({ hook_event_name: 'sessionStart', conversation_id: id });
  if (runtime === 'opencode' || runtime === 'kilo')
    return JSON.stringify({ hook_event_name: 'session.start', input: { sessionID: id } });
  if (runtime === 'cline') return JSON.stringify({ hookName: 'agent_start', taskId: id });
  return JSON.stringify({ hook_event_name: 'SessionStart', session_id: id, source: 'startup' });
}

/**
 * Runs the hook of `runtime` (default Claude Code; `hooks/agent-hook <runtime>` for the others) for the
 * event on stdin, or SessionStart with `--session-start <id>`; resolves to the exit code. An unknown runtime
 * is refused (exit 2: nothing unchecked passes).
 */
export function run(packageRoot: string, runtime = 'claude-code', args: readonly string[] = []): Promise<number> {
  const adapter = Object.hasOwn(ADAPTERS, runtime) ? ADAPTERS[runtime as keyof typeof ADAPTERS] : undefined;
  if (adapter === undefined) {
    writeFd(
      2,
      `hestai hook failed: unknown agent runtime ${JSON.stringify(runtime)} (known: ${Object.keys(ADAPTERS).join(', ')})\n`,
    );
    return Promise.resolve(2);
  }
  const start = args[0] === '--session-start' && args.length === 2 ? args[1]! : null;
  return runClaudeHook({
    adapter,
    event: start === null && args.length === 1 ? args[0]! : null,
    stdin: start === null ? readStdin : () => Promise.resolve(sessionStartPayload(runtime, start)),
    stdout: (text) => writeFd(1, text),
    stderr: (text) => writeFd(2, text),
    env: process.env,
    cwd: process.cwd(),
    packageRoot,
    loadSessionStart: () => import('../session-start.js'),
  });
}
