// Build: compile src/ to dist/ with tsc (JavaScript + type declarations), mark the bin executable, and
// bundle the two hook entries with esbuild into one CommonJS file each (dist/hooks/{pre-commit,commit-msg}.cjs):
// a hook starts on every commit, and one pre-parsed file starts faster than ~20 ES modules. The full
// config validation (yaml + zod) stays out of the bundles: it is loaded from dist/config/load.js only
// when the workspace file changed since it was last validated.
import { spawnSync } from 'node:child_process';
import { chmodSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
const tsc = require.resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
chmodSync(new URL('../dist/cli/bin.js', import.meta.url), 0o755);

const esbuild = await import('esbuild');
const keepFullConfigLoadOut = {
  name: 'keep-full-config-load-out',
  setup(build) {
    build.onResolve({ filter: /^\.\/load\.js$/ }, () => ({ path: '../config/load.js', external: true }));
  },
};
for (const hook of ['pre-commit', 'commit-msg']) {
  await esbuild.build({
    entryPoints: [`src/hooks/entry/${hook}.ts`],
    outfile: `dist/hooks/${hook}.cjs`,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minifySyntax: true,
    minifyWhitespace: true,
    legalComments: 'none',
    plugins: [keepFullConfigLoadOut],
    logLevel: 'warning',
  });
}
