/**
 * Every default of the workspace configuration, in one place, as plain data: the config of a repository
 * without `.hestai_workspace.yaml`. `schema.ts` uses the same objects as its defaults, and a unit test checks
 * that the schema's defaults equal these.
 */
export const DEFAULT_TEST_GLOBS = [
  // JavaScript / TypeScript (and any project with test/ or tests/ directories, at any depth)
  '**/test/**',
  '**/tests/**',
  '**/__tests__/**',
  '**/__tests_*__/**',
  '**/spec/**',
  '**/*.test.*',
  '**/*.spec.*',
  '**/*_spec.*',
  // TypeScript type tests (vitest, tsd: `*.test-d.ts`)
  '**/*.test-d.*',
  '**/*.spec-d.*',
  // Python
  '**/test_*.py',
  '**/*_test.py',
  '**/conftest.py',
  // Go
  '**/*_test.go',
  // Rust integration tests are **/tests/** (above); JVM (Maven/Gradle layout)
  '**/src/test/**',
] as const;

/** Folders of files tests read: tests only beside a test file of the same commit or package (src/tdd/commit.ts). */
export const DEFAULT_FIXTURE_GLOBS = ['**/testdata/**', '**/fixtures/**'] as const;

export const DEFAULTS = {
  context_paths: { additional: [] as string[], exclude: ['node_modules/', '.git/'] },
  github: { issue_search: true, pr_context: true, timeout_ms: 5_000 },
  // No ai defaults: a key this file does not name must leave ~/.hestai/config/ai.yaml's (src/ai/config.ts).
  ai: {} as { timeout_ms?: number },
  cleanup: { stale_session_hours: 72, archive_retention_days: 30 },
  freshness: { max_age_hours: 24 },
  tdd: {
    policy: 'paired' as 'paired' | 'scoped' | 'any' | 'same-commit',
    types: ['feat'],
    test_globs: [...DEFAULT_TEST_GLOBS] as string[],
    fixture_globs: [...DEFAULT_FIXTURE_GLOBS] as string[],
    /** Tests kept inside source files (src/tdd/inline-tests.ts): Rust's #[cfg(test)] modules and #[test] functions. */
    inline_tests: [{ files: '**/*.rs', start: '^\\s*#\\[(?:cfg\\(test\\)|(?:\\w+::)*test(?:\\(.*\\))?)\\]' }] as {
      files: string;
      start: string;
    }[],
    since: null as string | null,
    default_branch: 'main',
    test_command: 'npm test',
  },
  commit: {
    ignore: [] as string[],
    default_ignores: true,
    type_case: 'insensitive' as 'insensitive' | 'lower',
    body_separator: 'error' as 'error' | 'warn' | 'off',
    /** `Assisted-by` on an agent runtime's commits (issue 42): off (not added), warn or required by verify. */
    attribution: 'warn' as 'off' | 'warn' | 'required',
  },
  anchor: {
    required: true,
    strictness: 'default' as 'quick' | 'default' | 'deep',
    handshake_ttl_minutes: 60,
    /** How long after validation an anchor (and its published proof record) covers commits: refreshes do not extend it. */
    valid_hours: 72,
    constitutions: 'install' as 'install' | 'strict',
  },
  hooks: { pre_commit: true, commit_msg: true, trailers: true },
  // CI is the judge: a commit made past the hooks (no trailers: --no-verify), a bypass and an exemption are
  // errors unless the base's policy lowers them (issue 24).
  verify: {
    trailers: 'error' as 'off' | 'warn' | 'error',
    bypass: 'error' as 'warn' | 'error',
    unrelated_histories: 'error' as 'error' | 'allow',
    anchors: 'error' as 'off' | 'warn' | 'error',
    exempt: 'error' as 'allow' | 'warn' | 'error',
    /** A git server's receipts (src/receive/receipts.ts) judge when a commit and its anchor's record arrived. */
    receipts: 'off' as 'off' | 'warn' | 'required',
    /** Globs of paths a merge may regenerate (lockfiles): where it differs from git's re-merge is a warning. */
    merge_regenerated: [] as string[],
    /** Who published the evidence: anchors commits signed by a key of the base's .hestai/allowed_signers (issue 39). */
    signatures: 'off' as 'off' | 'warn' | 'required',
  },
  anchors: { publish: true },
  protocol: { enforce: false, force_limit: 3, history_limit: 50, verify: 'warn' as 'off' | 'warn' | 'error' },
  // Tools an agent may call before its anchor as reads, beyond the built-in list (READ_TOOLS, src/util/agent-tools.ts).
  agents: { stop_gate: true, read_tools: [] as string[] },
  quality_gates: [] as { name: string; command: string; timeout_ms: number }[],
};
