import { defineConfig } from 'vitest/config';

// Four projects: unit (pure, fast), integration (real git in temp repos, library calls and the built
// CLI), security (attacks from a repository prepared by someone else), e2e
// (installed hooks, real `git commit`s, the MCP server over stdio). `npm test` runs all four.
export default defineConfig({
  test: {
    // Rebuilds dist/ first when src/ (or another build input) is newer: the integration and e2e tests run it.
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/setup.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 20_000 } },
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
