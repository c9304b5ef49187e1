import os from 'node:os';
import { defineConfig } from 'vitest/config';

// Four projects: unit (pure, fast), integration (real git in temp repos, library calls and the built
// CLI), security (attacks from a repository prepared by someone else), e2e
// (installed hooks, real `git commit`s, the MCP server over stdio). `npm test` runs all four.
export default defineConfig({
  test: {
    // Rebuilds dist/ first when src/ (or another build input) is newer: the integration and e2e tests run it;
    // then makes the run's temporary directory, where each test process has its HOME (removed at the end).
    globalSetup: ['test/helpers/global-setup.ts', 'test/helpers/run-dir.ts'],
    setupFiles: ['test/helpers/setup.ts'],
    // A worker spends most of its time waiting on the git and node processes it spawns: one worker per core
    // (vitest's default leaves one core idle, which on a 2-core machine runs the whole suite serially).
    maxWorkers: Math.max(2, os.availableParallelism()),
    // A worker runs its files one after another in one process with one module registry (a fresh process and
    // registry per file cost more than many of the files): a test file must leave no module-level state,
    // `process` listener or environment change behind (test/helpers/setup.ts resets the environment and HOME).
    isolate: false,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 20_000 },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // Issue 12: every attack a cloned repository can mount, reproduced (see test/security/README.md).
          name: 'security',
          include: ['test/security/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
