import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/git-repo.js';
import { installPinned, type PinnedTool } from '../helpers/npm-tool.js';

// Issue 38, item 6: programs the tests run but the project does not depend on (the agent runtimes, lefthook)
// are installed by npm at their pinned version into a cache shared by test files and runs, once; where the
// registry cannot be reached, their tests skip with a message saying why (in CI that is an error).

// In the lockfile, so in the npm cache `npm ci` filled: installed without the network.
const SEMVER: PinnedTool = { pkg: 'semver', version: '7.8.6', bin: 'semver' };

/** A registry on 127.0.0.1 that answers 404 to everything (reached, but it has no such package). */
let emptyRegistry = '';
let server: http.Server;
beforeAll(async () => {
  server = http.createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  emptyRegistry = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A port nothing listens on: a registry there cannot be reached. */
async function closedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** npm with no cache of its own (nothing to fall back on) and no retries. */
const bareNpm = (registry: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  npm_config_registry: registry,
  npm_config_cache: tempDir('hestai-npm-cache-'),
  npm_config_fetch_retries: '0',
  CI: 'false',
  ...extra,
});

describe('installPinned', () => {
  it('installs the pinned version once, for callers at the same time and later ones, and gives its program', async () => {
    const cache = tempDir('hestai-tools-');
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    const [a, b] = await Promise.all([installPinned(SEMVER, { cache, log }), installPinned(SEMVER, { cache, log })]);
    const c = await installPinned(SEMVER, { cache, log });
    expect(a).toBe(path.join(cache, 'semver@7.8.6', 'node_modules', '.bin', 'semver'));
    expect([b, c]).toEqual([a, a]);
    expect(lines.filter((line) => line.includes('installing semver@7.8.6'))).toHaveLength(1);
    const run = spawnSync(a!, ['1.2.3', '-r', '>=1'], { encoding: 'utf8' });
    expect(run.stdout.trim(), run.stderr).toBe('1.2.3');
    const manifest = JSON.parse(
      fs.readFileSync(path.join(cache, 'semver@7.8.6/node_modules/semver/package.json'), 'utf8'),
    );
    expect(manifest.version).toBe('7.8.6');
    // nothing half-done is left beside it: no staging directory, no lock
    expect(fs.readdirSync(cache)).toEqual(['semver@7.8.6']);
  });

  it('removes what an install killed halfway left (its staging directory) before installing', async () => {
    const cache = tempDir('hestai-tools-');
    fs.mkdirSync(path.join(cache, 'semver@7.8.6.tmp-0badf00d/node_modules'), { recursive: true });
    const bin = await installPinned(SEMVER, { cache, log: () => {} });
    expect(bin).toBe(path.join(cache, 'semver@7.8.6', 'node_modules', '.bin', 'semver'));
    expect(fs.readdirSync(cache)).toEqual(['semver@7.8.6']);
  });

  it('skips with a clear message (null) when the registry cannot be reached, and leaves nothing behind', async () => {
    const cache = tempDir('hestai-tools-');
    const lines: string[] = [];
    const env = bareNpm(`http://127.0.0.1:${await closedPort()}/`);
    const bin = await installPinned(SEMVER, { cache, env, log: (line) => lines.push(line) });
    expect(bin).toBeNull();
    const message = lines.join('');
    expect(message).toMatch(/semver@7\.8\.6.*cannot reach the npm registry/);
    expect(message).toContain('its tests are skipped');
    expect(fs.readdirSync(cache)).toEqual([]);
  });

  it('in CI (CI=true) an unreachable registry is an error, not a skip', async () => {
    const env = bareNpm(`http://127.0.0.1:${await closedPort()}/`, { CI: 'true' });
    await expect(installPinned(SEMVER, { cache: tempDir('hestai-tools-'), env, log: () => {} })).rejects.toThrow(
      /semver@7\.8\.6.*cannot reach the npm registry.*CI/s,
    );
  });

  it('a registry that answers but has no such package is an error, not a skip', async () => {
    const cache = tempDir('hestai-tools-');
    const missing: PinnedTool = { pkg: 'hestai-no-such-package', version: '1.0.0', bin: 'x' };
    await expect(installPinned(missing, { cache, env: bareNpm(emptyRegistry), log: () => {} })).rejects.toThrow(
      /npm install hestai-no-such-package@1\.0\.0 failed.*E404/s,
    );
    expect(fs.readdirSync(cache)).toEqual([]);
  });
});
