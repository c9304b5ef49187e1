import fs from 'node:fs';
import path from 'node:path';

export interface ProcessResult {
  /** Exit code, or null when killed or not started. */
  status: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Set when the program could not be started (e.g. ENOENT). */
  startError?: string;
}

/**
 * Runs a program (argument array, no shell) with a timeout; on timeout its whole process group is killed.
 * Never rejects: a failure is in the result.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; maxOutput?: number },
): Promise<ProcessResult> {
  const max = options.maxOutput ?? 1024 * 1024;
  return new Promise((resolve) => {
    let settled = false;
    let timedOut = false;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    // node:child_process is loaded on the first call: the hooks bundle this module but rarely run it.
    const child = process.getBuiltinModule('node:child_process').spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      if (size < max) into.push(chunk);
      size += chunk.length;
    };
    child.stdout.on('data', collect(out));
    child.stderr.on('data', collect(err));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, options.timeoutMs);
    const finish = (result: ProcessResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    child.on('error', (error) =>
      finish({
        status: null,
        stdout: '',
        stderr: '',
        timedOut: false,
        startError: (error as NodeJS.ErrnoException).code ?? error.message,
      }),
    );
    child.on('close', (code) =>
      finish({
        status: timedOut ? null : code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        timedOut,
      }),
    );
  });
}

/** The absolute path of an executable found on `PATH`, or null (no process is started). */
export function findOnPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env['PATH'] ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      /* not here */
    }
  }
  return null;
}
