/** The vocabulary of the RAPH vector v4.0 (docs/design.md §5). Plain data; no I/O. */
import type { Strictness } from '../records/anchor.js';

export const VECTOR_OPEN = '===RAPH_VECTOR::v4.0===';
export const VECTOR_CLOSE = '===END_RAPH_VECTOR===';

/** The four sections, in canonical order, with the titles the canonical anchor prints. */
export const SECTIONS = ['BIND', 'ARM', 'TENSION', 'COMMIT'] as const;
export type SectionName = (typeof SECTIONS)[number];
export const SECTION_TITLES: Record<SectionName, string> = {
  BIND: 'Identity Lock',
  ARM: 'Context Proof - SERVER INJECTED',
  TENSION: 'Cognitive Proof - AGENT GENERATED',
  COMMIT: 'Falsifiable Contract',
};
/** Sections of older schemas, named in the error so the agent knows why they are refused. */
export const LEGACY_SECTIONS = ['SOURCES', 'HAZARD', 'FLUKE', 'SHANK'] as const;

export const COGNITION_TYPES = ['ETHOS', 'LOGOS', 'PATHOS'] as const;
export const ARCHETYPES = [
  'ZEUS',
  'ATHENA',
  'APOLLO',
  'HERMES',
  'HEPHAESTUS',
  'ARES',
  'ARTEMIS',
  'POSEIDON',
  'DEMETER',
  'DIONYSUS',
  'ODYSSEUS',
  'SISYPHUS',
  'PROMETHEUS',
  'ICARUS',
  'PANDORA',
  'ATLAS',
  'ARGUS',
  'THEMIS',
  'DAEDALUS',
] as const;

/** Constraint names that say nothing about this work. */
export const GENERIC_CONSTRAINTS = [
  'CONSTRAINT',
  'RULE',
  'POLICY',
  'REQUIREMENT',
  'TODO',
  'TBD',
  'FIXME',
  'XXX',
  'PLACEHOLDER',
  'EXAMPLE',
] as const;

/** COMMIT artifacts that are not falsifiable: the conversation itself. */
export const ABSTRACT_ARTIFACTS = [
  'response',
  'result',
  'output',
  'completion',
  'answer',
  'reply',
  'thoughts',
  'thought',
  'responses',
  'results',
  'answers',
  'replies',
] as const;

/**
 * Programs a GATE may start with (its first word, or the base name of a path to it): test runners, build
 * tools, package managers and shells. A GATE that starts with anything else must be a script path that
 * exists, or a named check (`check:NAME`).
 */
export const GATE_RUNNERS = [
  // JavaScript / TypeScript
  'npm',
  'npx',
  'pnpm',
  'pnpx',
  'yarn',
  'bun',
  'bunx',
  'node',
  'deno',
  'tsx',
  'ts-node',
  'tsc',
  'vitest',
  'jest',
  'mocha',
  'ava',
  'tap',
  'playwright',
  'cypress',
  'eslint',
  'prettier',
  'biome',
  'stryker',
  'turbo',
  'nx',
  'lerna',
  // Python
  'python',
  'python3',
  'pytest',
  'tox',
  'nox',
  'uv',
  'uvx',
  'poetry',
  'pipx',
  'hatch',
  'pdm',
  'ruff',
  'mypy',
  'pyright',
  'coverage',
  // Build tools, other languages
  'make',
  'cmake',
  'ctest',
  'just',
  'task',
  'bazel',
  'buck2',
  'pants',
  'ninja',
  'meson',
  'cargo',
  'rustc',
  'go',
  'gofmt',
  'mvn',
  'mvnw',
  'gradle',
  'gradlew',
  'sbt',
  'lein',
  'clojure',
  'dotnet',
  'msbuild',
  'swift',
  'xcodebuild',
  'mix',
  'rebar3',
  'stack',
  'cabal',
  'dart',
  'flutter',
  'zig',
  'ruby',
  'bundle',
  'rake',
  'rspec',
  'php',
  'phpunit',
  'composer',
  'perl',
  'prove',
  'Rscript',
  'julia',
  'elm',
  'nix',
  // Shells, containers, VCS, this tool
  'sh',
  'bash',
  'zsh',
  'fish',
  'pwsh',
  'env',
  'docker',
  'podman',
  'kubectl',
  'helm',
  'terraform',
  'git',
  'gh',
  'hestai',
  'shellcheck',
  'actionlint',
  'pre-commit',
  'lefthook',
] as const;

export const MIN_TENSIONS: Record<Strictness, number> = { quick: 1, default: 2, deep: 3 };

/** Failed submissions allowed after the first one, per stage (seed 001): the third failure is terminal. */
export const MAX_RETRIES = 2;

/** Values that are template text rather than an answer: `TODO`, `TBD`, `{name}`, `<name>`, `...`, `N/A`. */
export function isPlaceholder(value: string): boolean {
  const v = value.trim();
  if (v === '') return true;
  if (/\{[A-Za-z_ ][^}]*\}/.test(v) || /^<[^>]*>$/.test(v) || /^\.{2,}$|^…$/.test(v)) return true;
  return /^(TODO|TBD|FIXME|XXX|PLACEHOLDER|EXAMPLE|N\/A|NONE|NULL|UNKNOWN|\?+)$/i.test(v);
}
