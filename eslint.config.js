// ESLint (flat config): the recommended JavaScript and typescript-eslint rules over src/, test/, bench/ and
// scripts/, plus "no focused tests" (an `it.only` left in a commit would silently skip the rest of a file).
// Pure JavaScript packages only: the lockfile stays installable by `npm ci` on every platform.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const focusedTests = ['describe', 'it', 'test'].map((object) => ({
  object,
  property: 'only',
  message: 'A focused test skips the rest of the suite: remove .only.',
}));
// Issue 17, item 8: nothing in src/ waits by blocking its thread. The MCP server shares src/ with the CLI, and a
// blocking wait there stops it answering every other request; wait with timers (state/store.ts `withLock`).
const blockingWaits = [
  {
    object: 'Atomics',
    property: 'wait',
    message: 'Atomics.wait blocks the event loop (the MCP server stops answering): await a timer instead.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'bench/.fixtures/**',
      'bench/results/**',
      'reports/**',
      '.stryker-tmp/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setImmediate: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        AbortController: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        performance: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        globalThis: 'readonly',
      },
    },
    rules: {
      'no-restricted-properties': ['error', ...focusedTests],
      // Control characters are what several validators look for on purpose.
      'no-control-regex': 'off',
      // Unused names are the compiler's job (noUnusedLocals, noUnusedParameters); `_`-prefixed are intended.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  { files: ['src/**'], rules: { 'no-restricted-properties': ['error', ...focusedTests, ...blockingWaits] } },
  { files: ['test/**', 'bench/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  { files: ['**/*.cjs', 'hooks/**'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
