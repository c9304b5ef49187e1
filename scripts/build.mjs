// Build: compile src/ to dist/ with tsc (the library: JavaScript + type declarations), then bundle the
// entrypoints that start a process with esbuild (see "Performance" in the README for what each bought):
// - the CLI, dist/cli/bin.js (overwriting tsc's), one ES module code-split at its lazy imports into
//   dist/cli/chunk-*.js: `hestai` loads one file plus the chunk of the command it runs, not ~100 modules
//   and commander/zod/yaml/the MCP SDK from node_modules. The packed CLI needs no node_modules at all.
// - the two hooks, dist/hooks/{pre-commit,commit-msg}.cjs, one CommonJS file each: a hook starts on every
//   commit. yaml and zod stay out of them (see the hooks build below).
// Chunks sit two levels under the package root like tsc's files, so the few modules that find assets from
// import.meta.url (prompts/, templates/, hooks/) resolve the same in both layouts; the version, read from
// ../package.json by dist/version.js, is inlined into the bundle instead.
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
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
// zod exports its ~40 translations of error messages (`z.locales`, ~350 KB: a quarter of what `hestai mcp` parses
// at start) from one index module; hestai speaks English only (zod's default, `en`, set by zod's schemas module
// itself), so the CLI bundle keeps only that one and `z.locales` holds `en` alone.
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir)
        ? { path: 'zod-locales-en', namespace: 'hestai-zod' }
        : undefined,
    );
    build.onLoad({ filter: /^zod-locales-en$/, namespace: 'hestai-zod' }, () => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: path.dirname(require.resolve('zod/v4/locales/en.js')),
      loader: 'js',
    }));
  },
};
// The MCP SDK's Node shim (`@modelcontextprotocol/server/_shims`) imports ajv and ajv-formats (~270 KB, evaluated
// at import: ~10% of `hestai mcp`'s cold start) for its default JSON Schema validator, which a server uses only
// for fromJsonSchema and the answers to form elicitations: hestai calls neither. In the CLI bundle the shim's
// validator requires ajv on its first use instead, from its own bundle dist/cli/mcp-ajv.cjs (the SDK's own
// AjvJsonSchemaValidator: same behaviour), so the server neither evaluates nor parses it at start.
const lazyAjv = {
  name: 'lazy-ajv',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({
      path: 'mcp-shims',
      namespace: 'hestai-mcp',
    }));
    build.onResolve({ filter: /^\.\/mcp-ajv\.cjs$/ }, (args) => ({ path: args.path, external: true }));
    build.onLoad({ filter: /^mcp-shims$/, namespace: 'hestai-mcp' }, () => ({
      contents: [
        "import process from 'node:process';",
        'export class DefaultJsonSchemaValidator {',
        '  constructor(ajv) { this.ajv = ajv; this.validator = undefined; }',
        '  getValidator(schema) {',
        "    const { AjvJsonSchemaValidator } = require('./mcp-ajv.cjs');",
        '    this.validator ??= new AjvJsonSchemaValidator(this.ajv);',
        '    return this.validator.getValidator(schema);',
        '  }',
        '}',
        'export { process };',
      ].join('\n'),
      resolveDir: process.cwd(),
      loader: 'js',
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
  plugins: [inlineVersion, englishOnlyZod, lazyAjv],
  logLevel: 'warning',
});
chmodSync(new URL('../dist/cli/bin.js', import.meta.url), 0o755);
await esbuild.build({
  entryPoints: ['node_modules/@modelcontextprotocol/server/dist/validators/ajv.cjs'],
  outfile: 'dist/cli/mcp-ajv.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
});

// The hooks bundle everything they run on every commit, but not the full config validation (yaml + zod,
// ~750 KB): load.ts reads a plain workspace file with its YAML subset reader and zod-free mirror of the schema
// and imports ./validate.js lazily for anything else; here that import becomes a require of its own bundle,
// dist/hooks/config-validate.cjs.
const keepConfigValidationOut = {
  name: 'keep-config-validation-out',
  setup(build) {
    build.onResolve({ filter: /^\.\/validate\.js$/ }, (args) =>
      /[\\/]src[\\/]config$/.test(args.resolveDir)
        ? { path: './config-validate.cjs', external: true }
        : /[\\/]src[\\/]protocol$/.test(args.resolveDir)
          ? { path: './protocol-validate.cjs', external: true }
          : undefined,
    );
  },
};
const hookBundle = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'none',
  logLevel: 'warning',
  // A named import the bundled module does not have (a builtin's stand-in below exports only what it lists) would
  // be undefined at run time: the build fails instead.
  logOverride: { 'import-is-undefined': 'error' },
};
// node:crypto costs ~7 ms to load and the hook paths rarely call it (a state write names its temporary
// file with randomBytes; the protocol's trust check hashes the trusted files only when a gate is unmet): the bundle gets a stand-in that loads it on first use (as `crypto`,
// which this plugin does not catch).
const lazyCrypto = {
  name: 'lazy-crypto',
  setup(build) {
    build.onResolve({ filter: /^node:crypto$/ }, () => ({ path: 'lazy-crypto', namespace: 'hestai-lazy' }));
    build.onLoad({ filter: /^lazy-crypto$/, namespace: 'hestai-lazy' }, async () => ({
      contents: Object.keys(await import('node:crypto'))
        .filter((key) => key !== 'default')
        .map(
          (key) =>
            `Object.defineProperty(exports, ${JSON.stringify(key)}, { enumerable: true, get: () => require('crypto')[${JSON.stringify(key)}] });`,
        )
        .join('\n'),
      loader: 'js',
    }));
  },
};
// esbuild bundles every `import fs from 'node:fs'` of an ES module as its own `__toESM(require("node:fs"), 1)`,
// which copies every property of the module into a new object: 33 copies in the pre-commit bundle, about 1.4 ms
// and garbage on every commit. This plugin makes node:fs and node:path one ES module each inside the bundle,
// required once; a named import that is not listed here fails the build ("No matching export").
const builtinsOnce = {
  name: 'builtins-once',
  setup(build) {
    const named = { fs: ['existsSync', 'readFileSync'], path: [] };
    build.onResolve({ filter: /^node:(fs|path)$/ }, (args) =>
      // The stand-in's own require is node's module itself; so is a dynamic import(), whose namespace the
      // stand-in (a default export and the listed names) would not fill.
      args.namespace === 'hestai-builtin' || args.kind === 'dynamic-import'
        ? { path: args.path, external: true }
        : { path: args.path.slice(5), namespace: 'hestai-builtin' },
    );
    build.onLoad({ filter: /.*/, namespace: 'hestai-builtin' }, (args) => ({
      contents: [
        `const m = require('node:${args.path}');`,
        'export default m;',
        ...named[args.path].map((key) => `export const ${key} = m.${key};`),
      ].join('\n'),
      loader: 'js',
    }));
  },
};
// The launchers in hooks/ require these four bundles by path (Node's own compile cache on where the running Node
// has module.enableCompileCache). Their lazy imports of sibling bundles are plain require() calls
// (`supported: { 'dynamic-import': false }`): a CommonJS bundle loads its siblings synchronously.
const launchedHook = { ...hookBundle, supported: { 'dynamic-import': false } };
for (const hook of ['pre-commit', 'commit-msg', 'pre-push']) {
  await esbuild.build({
    ...launchedHook,
    entryPoints: [`src/hooks/entry/${hook}.ts`],
    outfile: `dist/hooks/${hook}.cjs`,
    plugins: [keepConfigValidationOut, lazyCrypto, builtinsOnce],
  });
}
await esbuild.build({
  ...hookBundle,
  entryPoints: ['src/config/validate.ts'],
  outfile: 'dist/hooks/config-validate.cjs',
});
// The same for the session protocol (protocol.enforce): a protocol.yaml outside the YAML subset or the mirror of
// its schema (src/protocol/fast.ts) is validated from this bundle.
await esbuild.build({
  ...hookBundle,
  entryPoints: ['src/protocol/validate.ts'],
  outfile: 'dist/hooks/protocol-validate.cjs',
});

// The Claude Code hook runs before every file-changing tool call: one bundle without the SessionStart
// handler (which clocks in: context gathering, the FAST layer), a require of its own bundle when needed.
const keepSessionStartOut = {
  name: 'keep-session-start-out',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/session-start\.js$/ }, (args) =>
      /[\\/]src[\\/]agent[\\/]entry$/.test(args.resolveDir)
        ? { path: './agent-session.cjs', external: true }
        : undefined,
    );
  },
};
// The session protocol (protocol.enforce only; it starts git for its facts) is its own bundle too.
const keepProtocolOut = {
  name: 'keep-protocol-out',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/protocol\/agent-gate\.js$/ }, (args) =>
      /[\\/]src[\\/]agent$/.test(args.resolveDir) ? { path: './agent-protocol.cjs', external: true } : undefined,
    );
  },
};
// The base policy's agents.read_tools (it starts git to resolve the base and read its file) is asked only for
// a tool hestai does not know that would be refused: its own bundle too.
const keepBaseReadToolsOut = {
  name: 'keep-base-read-tools-out',
  setup(build) {
    build.onResolve({ filter: /^\.\/base-read-tools\.js$/ }, (args) =>
      /[\\/]src[\\/]agent$/.test(args.resolveDir) ? { path: './agent-read-tools.cjs', external: true } : undefined,
    );
  },
};
await esbuild.build({
  ...launchedHook,
  entryPoints: ['src/agent/entry/claude-code.ts'],
  outfile: 'dist/hooks/claude-code.cjs',
  plugins: [
    keepConfigValidationOut,
    keepSessionStartOut,
    keepProtocolOut,
    keepBaseReadToolsOut,
    lazyCrypto,
    builtinsOnce,
  ],
});
await esbuild.build({
  ...hookBundle,
  entryPoints: ['src/agent/base-read-tools.ts'],
  outfile: 'dist/hooks/agent-read-tools.cjs',
  plugins: [keepConfigValidationOut, lazyCrypto, builtinsOnce],
});
await esbuild.build({
  ...hookBundle,
  entryPoints: ['src/protocol/agent-gate.ts'],
  outfile: 'dist/hooks/agent-protocol.cjs',
  plugins: [keepConfigValidationOut, lazyCrypto, builtinsOnce],
});
// It sits two levels under the package root like tsc's files, so modules finding prompts/ from their URL
// resolve the same; CommonJS has no import.meta, so the bundle's own file URL stands in for it.
await esbuild.build({
  ...hookBundle,
  entryPoints: ['src/agent/session-start.ts'],
  outfile: 'dist/hooks/agent-session.cjs',
  define: { 'import.meta.url': '__hestaiFileUrl' },
  banner: { js: "const __hestaiFileUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [keepConfigValidationOut, keepProtocolOut, inlineVersion, builtinsOnce],
});

// `hestai session start|gate|advance|evidence|blocked|end|show` (the protocol commands an agent runs on every
// gate check) take the CLI's fast path (src/cli/session-argv.ts) and run from one CommonJS bundle instead of
// ~35 ES-module chunks: no commander, yaml, zod or MCP SDK (protocol.yaml and the workspace config are
// validated from their own bundles when they are not plain, as in the hooks). Same file-URL stand-in as above.
await esbuild.build({
  ...hookBundle,
  entryPoints: ['src/cli/session-main.ts'],
  outfile: 'dist/hooks/cli-session.cjs',
  define: { 'import.meta.url': '__hestaiFileUrl' },
  banner: { js: "const __hestaiFileUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [keepConfigValidationOut, inlineVersion, lazyCrypto, builtinsOnce],
});

// Every other command (`hestai [--json] [--cwd DIR] <command> ...`, src/cli/command-argv.ts) runs from its own
// CommonJS bundle, dist/hooks/cli-command-<command>.cjs: the whole program (commander, every command's flags
// and help, so help and usage errors read the same) with only that command's handler code, instead of the ~35
// ES-module chunks `hestai status` loads otherwise (about 25 ms of CPU per run for status, 45 ms for verify).
// Another command's lazy import becomes a module that throws (bin.ts never starts a bundle for another
// command); commander and yaml are one bundle each that every command's requires (yaml on first use), config
// and protocol validation come from theirs.
const commandsDir = new URL('../src/cli/commands/', import.meta.url);
const bundledCommands = readdirSync(commandsDir)
  .filter((file) => file.endsWith('.ts') && file !== 'index.ts' && file !== 'mcp.ts')
  .map((file) => file.slice(0, -'.ts'.length));
const onlyCommand = (name) => ({
  name: 'only-command',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const other =
        args.path === '../mcp-main.js' ||
        (/[\\/]src[\\/]cli[\\/]commands$/.test(args.resolveDir) && path.basename(args.importer, '.ts') !== name);
      if (other) return { path: args.importer, namespace: 'hestai-other-command' };
      return /[\\/]src[\\/]verify$/.test(args.resolveDir) && args.path === '../protocol/validate.js'
        ? { path: './protocol-validate.cjs', external: true }
        : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'hestai-other-command' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`the bundle of hestai ${name} cannot run what ${path.relative(process.cwd(), args.path)} imports`)});`,
      loader: 'js',
    }));
  },
});
const sharedPackages = { commander: './cli-commander.cjs', yaml: './cli-yaml.cjs' };
const sharedPackageBundles = {
  name: 'shared-package-bundles',
  setup(build) {
    build.onResolve({ filter: /^(commander|yaml)$/ }, (args) => ({ path: sharedPackages[args.path], external: true }));
  },
};
for (const [name, file] of Object.entries(sharedPackages))
  await esbuild.build({ ...hookBundle, entryPoints: [require.resolve(name)], outfile: path.join('dist/hooks', file) });
await Promise.all(
  bundledCommands.map((name) =>
    esbuild.build({
      ...launchedHook,
      entryPoints: ['src/cli/main.ts'],
      outfile: `dist/hooks/cli-command-${name}.cjs`,
      define: { 'import.meta.url': '__hestaiFileUrl' },
      banner: { js: "const __hestaiFileUrl = require('node:url').pathToFileURL(__filename).href;" },
      plugins: [
        onlyCommand(name),
        keepConfigValidationOut,
        sharedPackageBundles,
        inlineVersion,
        lazyCrypto,
        builtinsOnce,
      ],
    }),
  ),
);
