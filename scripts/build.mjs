// Build: compile src/ to dist/ with tsc (the library: JavaScript + type declarations), then bundle with esbuild
// what starts a process:
// - the CLI, dist/cli/bin.js (overwriting tsc's), one ES module code-split at its lazy imports into
//   dist/cli/chunk-*.js. The packed CLI needs no node_modules.
// - the hooks, dist/hooks/{pre-commit,prepare-commit-msg,commit-msg,pre-push,claude-code}.cjs, one CommonJS
//   file each, which the launchers in hooks/ require by path (with Node's compile cache where Node has it). A hook
//   starts on every commit or agent tool call. Lazy imports are bundles of their own beside it, so a call that
//   does not need them does not parse them: the agent hook's SessionStart (clock-in) and the base's read tools
//   (a refused unknown tool), the session protocol's gates (agent-protocol.cjs, commit-protocol.cjs: only with
//   protocol.enforce), and prepare-commit-msg's judge, which a plain `git commit` never loads. `yaml` and
//   `zod/mini` are bundles beside them (dist/hooks/vendor-*.cjs), shared by all.
// Bundles sit two levels under the package root like tsc's files, so the few modules that find assets from
// import.meta.url (prompts/, templates/, hooks/) resolve the same in both layouts; the version, read from
// ../package.json by dist/version.js, is inlined into the bundles instead.
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
const tsc = require.resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
chmodSync(new URL('../dist/cli/bin.js', import.meta.url), 0o755);

const esbuild = await import('esbuild');
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const inlineVersion = {
  name: 'inline-version',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]version\.ts$/ }, () => ({
      contents: `export const VERSION = ${JSON.stringify(version)};`,
      loader: 'ts',
    }));
  },
};
await esbuild.build({
  entryPoints: { 'cli/bin': 'src/cli/bin.ts' },
  outdir: 'dist',
  chunkNames: 'cli/chunk-[hash]',
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  legalComments: 'none',
  // Bundled CommonJS dependencies (commander) call require(); an ES module has none of its own.
  banner: {
    js: "import { createRequire as __hestaiRequire } from 'node:module';\nconst require = __hestaiRequire(import.meta.url);",
  },
  plugins: [inlineVersion],
  logLevel: 'warning',
});
chmodSync(new URL('../dist/cli/bin.js', import.meta.url), 0o755);

// CommonJS has no import.meta: each hook bundle's own file URL stands in for it. A named import the bundled
// module does not have would be undefined at run time: the build fails instead.
// Lazily imported modules that are bundles of their own: source file -> bundle in dist/hooks/.
const LAZY = {
  'src/agent/session-start.ts': 'agent-session-start',
  'src/agent/base-read-tools.ts': 'agent-read-tools',
  'src/hooks/entry/prepare-commit-msg-judge.ts': 'prepare-commit-msg-judge',
  // The session protocol's gates: only a workspace with protocol.enforce runs them.
  'src/protocol/agent-gate.ts': 'agent-protocol',
  'src/protocol/commit-gate.ts': 'commit-protocol',
};
const lazyBundles = {
  name: 'lazy-bundles',
  setup(build) {
    build.onResolve({ filter: /\.js$/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const source = path.relative(ROOT, path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')));
      const bundle = LAZY[source.split(path.sep).join('/')];
      return bundle === undefined ? undefined : { path: `./${bundle}.cjs`, external: true };
    });
  },
};
// `yaml` and `zod/mini` are bundles of their own beside the hooks (dist/hooks/vendor-*.cjs), shared by the hook
// and lazy bundles that use them: `yaml` is required only when a workspace file is validated (a call decided
// before the config, such as a shell call refused before the anchor, never parses its 140 KB), and a lazy
// bundle does not carry a second zod. `yaml` is built from its ES module files, which esbuild scope-hoists.
// What every CommonJS bundle beside the hooks is built with.
const HOOK_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'none',
  logLevel: 'warning',
};
const VENDOR = { 'zod/mini': 'mini', 'zod/v4/locales/en.js': 'en' };
const vendors = {
  name: 'vendors',
  setup(build) {
    build.onResolve({ filter: /^yaml$/ }, () => ({ path: './vendor-yaml.cjs', external: true }));
    build.onResolve({ filter: /^\.\/vendor-zod\.cjs$/ }, (args) => ({ path: args.path, external: true }));
    build.onResolve({ filter: /^zod\// }, (args) =>
      Object.hasOwn(VENDOR, args.path) ? { path: args.path, namespace: 'vendor-zod' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'vendor-zod' }, (args) => ({
      contents: `module.exports = require('./vendor-zod.cjs').${VENDOR[args.path]};`,
      loader: 'js',
    }));
  },
};
// vendor-zod holds the zod/mini functions src/ calls (`z.<name>`), so esbuild can leave the rest of zod out.
const zodMini = await import('zod/mini');
const zodNames = new Set();
for (const file of readdirSync(path.join(ROOT, 'src'), { recursive: true })) {
  if (!file.endsWith('.ts')) continue;
  const text = readFileSync(path.join(ROOT, 'src', file), 'utf8');
  if (!text.includes("from 'zod/mini'")) continue;
  // Only `import * as z` (or a type import) lets the scan below see every zod function a file calls.
  for (const [line] of text.matchAll(/^import (?!type )(?!\* as z from).*from 'zod\/mini';$/gm))
    throw new Error(`src/${file}: ${line}\nfix: import * as z from 'zod/mini' (vendor-zod holds the z.<name> calls)`);
  for (const [, name] of text.matchAll(/\bz\.([A-Za-z_$][\w$]*)\b(?!\.)/g))
    if (typeof zodMini[name] === 'function') zodNames.add(name);
}
const zodList = [...zodNames]
  .sort()
  .map((name) => `${name}: z.${name}`)
  .join(', ');
const yamlRoot = path.dirname(require.resolve('yaml/package.json'));
for (const [name, contents] of [
  ['vendor-yaml', `export * from ${JSON.stringify(path.join(yamlRoot, 'browser/dist/index.js'))};`],
  [
    'vendor-zod',
    `import * as z from 'zod/mini';\nexport const mini = { ${zodList} };\nexport { default as en } from 'zod/v4/locales/en.js';`,
  ],
]) {
  await esbuild.build({
    stdin: { contents, resolveDir: ROOT, sourcefile: `${name}.js` },
    outfile: `dist/hooks/${name}.cjs`,
    ...HOOK_BUNDLE,
  });
}
const hooks = {
  'pre-commit': 'src/hooks/entry/pre-commit.ts',
  'prepare-commit-msg': 'src/hooks/entry/prepare-commit-msg.ts',
  'commit-msg': 'src/hooks/entry/commit-msg.ts',
  'pre-push': 'src/hooks/entry/pre-push.ts',
  'claude-code': 'src/agent/entry/claude-code.ts',
  ...Object.fromEntries(Object.entries(LAZY).map(([source, bundle]) => [bundle, source])),
};
for (const [hook, entry] of Object.entries(hooks)) {
  const split =
    hook === 'claude-code' ||
    hook === 'prepare-commit-msg' ||
    hook === 'pre-commit' ||
    Object.values(LAZY).includes(hook);
  await esbuild.build({
    entryPoints: [entry],
    outfile: `dist/hooks/${hook}.cjs`,
    ...HOOK_BUNDLE,
    logOverride: { 'import-is-undefined': 'error' },
    // Lazy imports stay lazy as synchronous requires of the code inside the bundle.
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__hestaiFileUrl' },
    banner: { js: "const __hestaiFileUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: split ? [inlineVersion, vendors, lazyBundles] : [inlineVersion, vendors],
  });
}
