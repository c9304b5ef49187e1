// Bench-side experiment: the built CLI bundled with esbuild (ESM, code-split at dynamic imports), to
// measure what bundling buys on start-up without changing the product's build.
import path from 'node:path';
import fs from 'node:fs';
import { CLI, FIXTURES_DIR, ROOT } from './env.mjs';

/** version.js reads ../package.json next to dist/; in a bundle the version is inlined instead. */
const inlineVersion = {
  name: 'inline-version',
  setup(build) {
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    build.onLoad({ filter: /[\\/]dist[\\/]version\.js$/ }, () => ({ contents: `export const VERSION = ${JSON.stringify(version)};`, loader: 'js' }));
  },
};

/** Bundles dist/cli/bin.js into bench/.fixtures/bundle/ and returns the entry path (rebuilt every run). */
export async function bundleCli() {
  const { build } = await import('esbuild');
  const outdir = path.join(FIXTURES_DIR, 'bundle');
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: { bin: CLI },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    plugins: [inlineVersion],
    logLevel: 'error',
  });
  return path.join(outdir, 'bin.mjs');
}
