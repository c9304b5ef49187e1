// npm's `prepare`: runs on `npm install` in a checkout of this repository, on `npm pack`, and for a git
// dependency (npm clones, installs the devDependencies, runs prepare, then packs). In a checkout (a `.git`
// here) it builds dist/ when it is missing (what a git dependency ships) and sets up this repository's own
// husky hooks when husky is installed. Anywhere else it does nothing. The tarball ships no script at all
// (scripts/pack-manifest.mjs strips them), so the projects that install hestai-hooks run none.
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
