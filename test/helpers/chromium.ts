import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir } from './git-repo.js';

// Headless Chromium (Debian's `chromium` package; `.ci/run` installs it) opening a page from a file, for
// the report's browser test and bench. No network: background networking, component updates, sync and
// first-run work are off, and each run gets a fresh profile.

export const CHROMIUM = process.env['HESTAI_CHROMIUM'] ?? '/usr/bin/chromium';

export interface BrowserRun {
  status: number;
  stdout: string;
  stderr: string;
  /** The page's console messages (`CONSOLE` lines of Chromium's log): errors, warnings, logs, CSP reports. */
  console: string[];
}

/** Opens `file` in headless Chromium with `args` (e.g. `--dump-dom`, `--screenshot=FILE`). */
export function chromium(file: string, args: string[]): BrowserRun {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} not found: install Debian's chromium (apt-get install -y chromium) or set HESTAI_CHROMIUM`,
    );
  const profile = tempDir('hestai-chromium-');
  const result = spawnSync(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      `--user-data-dir=${path.join(profile, 'profile')}`,
      '--enable-logging=stderr',
      '--v=0',
      '--window-size=1200,900',
      ...args,
      pathToFileURL(file).href,
    ],
    { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.error) throw result.error;
  const stderr = result.stderr ?? '';
  return {
    status: result.status ?? -1,
    stdout: result.stdout ?? '',
    stderr,
    console: stderr.split('\n').filter((l) => /:CONSOLE[:(\]]/.test(l)),
  };
}
