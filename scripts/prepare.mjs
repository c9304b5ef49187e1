// npm's `prepare`: runs on `npm install` in a checkout of this repository, on `npm pack`, and for a git
// dependency (npm clones, installs the devDependencies, runs prepare, then packs). In a checkout (a `.git`
// here) it builds dist/ when it is missing (what a git dependency ships) and sets up this repository's own
// husky hooks when husky is installed. Anywhere else (an unpacked tarball, a consumer's node_modules) it
// does nothing: hestai-hooks has no install-time script for the projects that use it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);
if (!existsSync(new URL('.git', root))) process.exit(0);

function run(args) {
  const result = spawnSync(process.execPath, args, { cwd: fileURLToPath(root), stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!existsSync(new URL('dist/cli/bin.js', root))) run([fileURLToPath(new URL('scripts/build.mjs', root))]);
let husky = null;
try {
  husky = (await import('husky')).default;
} catch {
  /* devDependencies not installed: no hooks to set up */
}
if (husky !== null) {
  process.chdir(fileURLToPath(root));
  const message = husky();
  if (message) process.stdout.write(`${message}\n`);
}
