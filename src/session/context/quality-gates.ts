import { gateEnvironment } from '../../trust/index.js';
import { runProcess } from '../../util/run-process.js';

export interface QualityGate {
  name: string;
  command: string;
  timeout_ms: number;
}

/** The state of one configured quality gate at clock-in. */
export interface QualityGateResult {
  name: string;
  command: string;
  status: 'pass' | 'fail' | 'timeout' | 'error';
  exit_code: number | null;
  duration_ms: number;
  /** The last lines of its output (stdout and stderr), trimmed. */
  output: string;
}

function tail(text: string, lines = 20): string {
  return text.trim().split('\n').slice(-lines).join('\n').slice(-4000);
}

/**
 * Runs the configured gates concurrently (`sh -c` in the worktree root), each with its own timeout and the
 * minimal environment of `gateEnvironment` (never the caller's tokens). The caller runs only trusted gates.
 */
export async function runQualityGates(
  gates: readonly QualityGate[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<QualityGateResult[]> {
  return Promise.all(
    gates.map(async (gate) => {
      const started = Date.now();
      const r = await runProcess('sh', ['-c', gate.command], {
        cwd,
        env: gateEnvironment(env),
        timeoutMs: gate.timeout_ms,
        maxOutput: 256 * 1024,
      });
      const status = r.startError ? 'error' : r.timedOut ? 'timeout' : r.status === 0 ? 'pass' : 'fail';
      return {
        name: gate.name,
        command: gate.command,
        status,
        exit_code: r.status,
        duration_ms: Date.now() - started,
        output: r.startError
          ? `could not start: ${r.startError}`
          : tail(`${r.stdout}${r.stderr ? `\n${r.stderr}` : ''}`),
      };
    }),
  );
}
