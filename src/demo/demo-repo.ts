import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built CLI next to this file (dist/demo → dist/cli/bin.js). */
export const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), '../cli/bin.js');

export interface Step {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * A throw-away repository for the demo: its own HOME and git identity, so nothing on the machine is
 * touched, removed by `cleanup()`.
 */
export class DemoRepo {
  readonly base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-demo-')));
  readonly dir = path.join(this.base, 'repo');
  readonly env: NodeJS.ProcessEnv;

  constructor() {
    const home = path.join(this.base, 'home');
    fs.mkdirSync(home);
    fs.mkdirSync(this.dir);
    fs.writeFileSync(
      path.join(home, '.gitconfig'),
      '[user]\n\tname = Demo\n\temail = demo@hestai.invalid\n[commit]\n\tgpgsign = false\n[init]\n\tdefaultBranch = main\n',
    );
    this.env = {
      ...process.env,
      HOME: home,
      GIT_CONFIG_GLOBAL: path.join(home, '.gitconfig'),
      GIT_CONFIG_NOSYSTEM: '1',
      NO_COLOR: '1',
    };
    this.git(['init', '-q', '-b', 'main']);
  }

  git(args: string[], env: NodeJS.ProcessEnv = {}): Step {
    return this.run('git', args, env);
  }

  hestai(args: string[], env: NodeJS.ProcessEnv = {}): Step {
    return this.run(process.execPath, [CLI, ...args], env);
  }

  /** Runs `command` through `sh -c` with `input` on stdin, as an agent runtime runs its hook commands. */
  shell(command: string, input: string, env: NodeJS.ProcessEnv = {}): Step {
    const result = spawnSync('sh', ['-c', command], {
      cwd: this.dir,
      env: { ...this.env, ...env },
      input,
      encoding: 'utf8',
    });
    return { status: result.status ?? -1, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
  }

  write(file: string, content: string): void {
    const full = path.join(this.dir, file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
  }

  read(file: string): string {
    return fs.readFileSync(path.join(this.dir, file), 'utf8');
  }

  cleanup(): void {
    fs.rmSync(this.base, { recursive: true, force: true });
  }

  private run(command: string, args: string[], env: NodeJS.ProcessEnv): Step {
    const result = spawnSync(command, args, { cwd: this.dir, env: { ...this.env, ...env }, encoding: 'utf8' });
    return { status: result.status ?? -1, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
  }
}

/** Prints a step: the command, its output indented, and the exit code; fails the demo on a surprise. */
export function show(title: string, command: string, step: Step, expectStatus: number): void {
  process.stdout.write(`\n── ${title}\n$ ${command}\n`);
  const output = `${step.stdout}${step.stderr}`.trimEnd();
  if (output !== '') process.stdout.write(`${output.replace(/^/gm, '  ')}\n`);
  process.stdout.write(`  → exit ${step.status}${step.status === expectStatus ? '' : ` (expected ${expectStatus})`}\n`);
  if (step.status !== expectStatus)
    throw new Error(`demo step "${title}" exited ${step.status}, expected ${expectStatus}`);
}
