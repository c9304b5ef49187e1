// The CLI as tsc emitted it (dist/cli/main.js and its ~100 ES modules, dependencies from node_modules),
// started the way the shipped bin starts it: the baseline that shows what bundling the CLI with esbuild buys.
import fs from 'node:fs';
import path from 'node:path';
import { FIXTURES_DIR, ROOT } from './env.mjs';

const TSC_MAIN = path.join(ROOT, 'dist/cli/main.js');

/** Writes the wrapper once and returns its path; null when dist/cli/main.js is not built. */
export function unbundledCli() {
  if (!fs.existsSync(TSC_MAIN)) return null;
  fs.mkdirSync(FIXTURES_DIR, { recursive: true });
  const wrapper = path.join(FIXTURES_DIR, 'unbundled-cli.mjs');
  fs.writeFileSync(
    wrapper,
    `import { main } from ${JSON.stringify(TSC_MAIN)};\nprocess.exitCode = await main(process.argv);\n`,
  );
  return wrapper;
}
