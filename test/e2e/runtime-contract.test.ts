import { execFile, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { copilotCache, RUNTIMES, runtimeBin, type RuntimeName } from '../helpers/runtimes.js';

// The contract per runtime (issue 29, item 6): the end-to-end tests (runtime-<name>.test.ts) run the pinned
// program and fail when a payload field hestai reads changes; here the installed program must be the
// pinned one (RUNTIMES in test/helpers/runtimes.ts), and the latest release the registry serves is named when
// it differs (a warning, never a failure: bump the pin and run the end-to-end tests to adopt it). Offline,
// both are skipped with a message.

const versionOf: Record<RuntimeName, (out: string) => string | undefined> = {
  'claude-code': (out) => /^(\d+\.\d+\.\d+)/.exec(out.trim())?.[1],
  codex: (out) => /(\d+\.\d+\.\d+)/.exec(out)?.[1],
  gemini: (out) => /^(\d+\.\d+\.\d+)/.exec(out.trim())?.[1],
  copilot: (out) => /GitHub Copilot CLI (\d+\.\d+\.\d+)/.exec(out)?.[1],
  qwen: (out) => /^(\d+\.\d+\.\d+)/.exec(out.trim())?.[1],
  opencode: (out) => /^(\d+\.\d+\.\d+)/.exec(out.trim())?.[1],
  kilo: (out) => /(\d+\.\d+\.\d+)/.exec(out)?.[1],
};

const NAMES = Object.keys(RUNTIMES) as RuntimeName[];

/** `npm view <pkg> version` for every runtime at once (network bound: one round trip, not three). */
const latest: Promise<Record<RuntimeName, string | null>> = (async () => {
  const views = await Promise.all(
    NAMES.map(
      (runtime) =>
        new Promise<string | null>((resolve) =>
          execFile('npm', ['view', RUNTIMES[runtime].pkg, 'version'], { timeout: 20_000 }, (error, stdout) =>
            resolve(error === null ? stdout.trim() : null),
          ),
        ),
    ),
  );
  return Object.fromEntries(NAMES.map((runtime, i) => [runtime, views[i]!])) as Record<RuntimeName, string | null>;
})();

const BINS = await Promise.all(NAMES.map((runtime) => runtimeBin(runtime)));

describe.each(NAMES)('the %s contract', (runtime) => {
  const bin = BINS[NAMES.indexOf(runtime)] ?? null;
  it.skipIf(bin === null)('the installed program is the pinned version', () => {
    const run = spawnSync(bin!, ['--version'], {
      encoding: 'utf8',
      timeout: 30_000,
      // Gemini CLI relaunches itself in a second node process unless told not to
      env: {
        ...process.env,
        NO_COLOR: '1',
        GEMINI_CLI_NO_RELAUNCH: 'true',
        QWEN_CODE_NO_RELAUNCH: 'true',
        XDG_CACHE_HOME: copilotCache(),
        COPILOT_AUTO_UPDATE: 'false',
      },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(versionOf[runtime](run.stdout)).toBe(RUNTIMES[runtime].version);
  });

  it('names the latest release when it is not the pinned one (a warning)', async () => {
    const newest = (await latest)[runtime];
    if (newest === null) {
      process.stderr.write(`[contract] ${RUNTIMES[runtime].pkg}: the registry did not answer; latest not checked\n`);
      return;
    }
    expect(newest).toMatch(/^\d+\.\d+\.\d+/);
    if (newest !== RUNTIMES[runtime].version)
      process.stderr.write(
        `[contract] warning: ${RUNTIMES[runtime].pkg} ${newest} is out; pinned ${RUNTIMES[runtime].version}. To adopt it: set its version in test/helpers/runtimes.ts, then npx vitest run test/e2e/runtime-*.test.ts\n`,
      );
  });
});
