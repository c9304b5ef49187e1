// What a process pays before it does any work: node itself, each heavy dependency the hook path must not
// load, and the CLI skeleton (`hestai --version`). Explains the other groups' ratios; no budgets here.
import { CLI, ROOT } from '../lib/env.mjs';
import { measureSpawn } from '../lib/measure.mjs';
import { unbundledCli } from '../lib/unbundled.mjs';
import { nodeNoop } from './members.mjs';

function importer(pkg) {
  return {
    id: `import-${pkg}`,
    label: `node -e "await import('${pkg}')"`,
    kind: 'baseline',
    measure: () =>
      measureSpawn(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(pkg)})`], {
        cwd: ROOT,
      }),
  };
}

export default function startupGroup() {
  let unbundled;
  return {
    id: 'startup',
    title: 'process start-up costs',
    members: [
      nodeNoop(),
      importer('commander'),
      importer('zod'),
      importer('yaml'),
      importer('@modelcontextprotocol/server'),
      {
        id: 'git-rev-parse',
        label: 'git rev-parse --show-toplevel (one git process)',
        kind: 'baseline',
        measure: () => measureSpawn('git', ['rev-parse', '--show-toplevel'], { cwd: ROOT }),
      },
      {
        id: 'hestai-version',
        label: 'hestai --version (CLI skeleton, as shipped: esbuild bundle)',
        kind: 'case',
        measure: () => measureSpawn(process.execPath, [CLI, '--version'], { cwd: ROOT }),
      },
      {
        id: 'hestai-version-unbundled',
        label: 'hestai --version, tsc output unbundled (what bundling bought)',
        kind: 'case',
        skip: () => (unbundledCli() ? null : 'not built yet: dist/cli/main.js'),
        prepare() {
          unbundled = unbundledCli();
        },
        measure: () => measureSpawn(process.execPath, [unbundled, '--version'], { cwd: ROOT }),
      },
    ],
    ratios: [
      'git-rev-parse',
      'import-commander',
      'import-zod',
      'import-yaml',
      'import-@modelcontextprotocol/server',
      'hestai-version',
      'hestai-version-unbundled',
    ]
      .flatMap((id) => [
        { case: id, baseline: 'node-e-0', metric: 'wall' },
        { case: id, baseline: 'node-e-0', metric: 'rss' },
      ])
      .concat([{ case: 'hestai-version-unbundled', baseline: 'hestai-version', metric: 'wall' }]),
  };
}
