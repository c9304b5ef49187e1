import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/**
 * Another process holding a lock of the state store, as store.ts takes one: the lock directory made with
 * mkdir(2) and an `owner` file naming a live process (pid, start time and this machine's boot). Released on `release()`.
 */
export async function holdLock(lockPath: string): Promise<{ release: () => Promise<void> }> {
  const script = `
    const fs = require('node:fs');
    const path = require('node:path');
    const lock = ${JSON.stringify(lockPath)};
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    fs.mkdirSync(lock);
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    let boot = '';
    try { boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(); } catch {}
    fs.writeFileSync(path.join(lock, 'owner'), process.pid + (start ? ' start:' + start : '') + (boot ? ' boot:' + boot : '') + '\\n');
    process.stdout.write('held\\n');
    process.stdin.once('data', () => {
      fs.rmSync(lock, { recursive: true, force: true });
      process.stdout.write('released\\n');
      process.exit(0);
    });`;
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['-e', script], { stdio: 'pipe' });
  let out = '';
  const saw = (word: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (out.includes(word)) resolve();
      };
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        check();
      });
      child.on('exit', () => (out.includes(word) ? resolve() : reject(new Error(`lock holder exited: ${out}`))));
      check();
    });
  await saw('held');
  return {
    async release() {
      child.stdin.write('release\n');
      await saw('released');
    },
  };
}
