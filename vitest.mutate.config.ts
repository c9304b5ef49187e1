import { defineConfig } from 'vitest/config';

// `npm run mutate` (StrykerJS): the unit tests of the pure modules, without the global setup's build
// (mutants run in a sandbox copy; pure rules need no dist/).
export default defineConfig({
  test: {
    globalSetup: ['test/helpers/run-dir.ts'],
    setupFiles: ['test/helpers/setup.ts'],
    include: [
      'test/unit/tdd/**/*.test.ts',
      'test/unit/verify/**/*.test.ts',
      'test/unit/anchor/**/*.test.ts',
      'test/unit/session/**/*.test.ts',
      'test/corpus/**/*.test.ts',
    ],
    testTimeout: 20_000,
  },
});
