import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// Integration and e2e tests run the shipped build in dist/. A plain `vitest` after an edit must never test
// old code: when any build input is newer than the build, rebuild first (and stop the run if that fails).
const ROOT = path.resolve(import.meta.dirname, '../..');
const INPUTS = ['src', 'scripts/build.mjs', 'package.json', 'tsconfig.json', 'templates', 'prompts', 'hooks'];
const STAMP = path.join(ROOT, 'dist/cli/bin.js');

function newestMtime(file: string): number {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (stat === undefined) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(file)) newest = Math.max(newest, newestMtime(path.join(file, entry)));
  return newest;
}

/** Why dist/ must be rebuilt, or null when it is newer than every build input. */
export function staleBuild(root = ROOT): string | null {
  const built = fs.statSync(path.join(root, 'dist/cli/bin.js'), { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) return 'dist/ has not been built';
  const changed = INPUTS.find((input) => newestMtime(path.join(root, input)) > built);
  return changed === undefined ? null : `${changed} changed after the last build`;
}

export default function setup(): void {
  const reason = staleBuild();
  if (reason === null) return;
  process.stderr.write(`[global-setup] rebuilding dist/: ${reason}\n`);
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`the build failed (exit ${build.status}): fix it, then run the tests again`);
  if (!fs.existsSync(STAMP)) throw new Error('the build left no dist/cli/bin.js');
}
