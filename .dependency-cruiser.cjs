// The layers of src/, top to bottom (README "Architecture"). A module may import its own layer's folders
// or any layer below; an import that runs upward fails `npm run lint` (and so .ci/run).
const LAYERS = [
  ['cli', 'mcp', 'agent', 'demo', 'index\\.ts'], //             adapters (agent: the agent runtimes' hooks)
  ['setup', 'session', 'anchor', 'report', 'receive', 'security\\.ts'], // use cases
  ['hooks', 'verify', 'protocol'], //                            commit-time, CI and session-protocol decisions
  ['records', 'evidence', 'config', 'trust', 'workspace\\.ts', 'audit\\.ts'], // the files of a workspace; hestai/anchors (evidence)
  ['git', 'state', 'octave', 'clock\\.ts'], //                  git, atomic state, formats, time
  ['tdd', 'ai', 'util', 'paths\\.ts', 'errors\\.ts', 'version\\.ts'], // pure rules and leaves
];
const path = (names) => `^src/(${names.join('|')})(/|$)`;
const forbidden = LAYERS.slice(1).map((layer, i) => ({
  name: `layer-${i + 1}-imports-upward`,
  comment: `${layer.join(', ')} may not import from a layer above it (${LAYERS.slice(0, i + 1)
    .flat()
    .join(', ')})`,
  severity: 'error',
  from: { path: path(layer) },
  to: { path: path(LAYERS.slice(0, i + 1).flat()) },
}));
// Use cases are siblings, not layers of each other: anchor/ and session/ never import each other (anchor
// receives clock_in through its deps), and nothing imports the adapters' internals.
forbidden.push(
  { name: 'anchor-imports-session', severity: 'error', from: { path: '^src/anchor/' }, to: { path: '^src/session/' } },
  { name: 'session-imports-anchor', severity: 'error', from: { path: '^src/session/' }, to: { path: '^src/anchor/' } },
  { name: 'cli-and-mcp-apart', severity: 'error', from: { path: '^src/mcp/' }, to: { path: '^src/cli/' } },
  {
    name: 'no-unlayered-folder',
    comment: 'every folder of src/ belongs to a layer: add a new one to LAYERS',
    severity: 'error',
    from: { path: '^src/' },
    to: { path: '^src/', pathNot: path(LAYERS.flat()) },
  },
  { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  {
    name: 'no-folder-cycle',
    comment:
      'folders import each other in one direction only (a cycle through several folders is one layer in disguise)',
    severity: 'error',
    scope: 'folder',
    from: {},
    to: { circular: true },
  },
);
module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
