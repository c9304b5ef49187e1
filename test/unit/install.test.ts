import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/git-repo.js';

// Issue 38, item 6: a light install. The agent runtimes are not dependencies (the tests install them at
// test time, test/helpers/runtimes.ts), and every install script npm would run in a fresh clone is
// reviewed in package.json's `allowScripts` (npm 11 warns about the others; a later npm refuses them).

const manifest = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package-lock.json'), 'utf8'));

describe('the install', () => {
  it('has no agent runtime among its dependencies', () => {
    const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
    expect(names.filter((name) => /claude-code|codex|gemini-cli/.test(name))).toEqual([]);
  });

  it('lists every package with an install script in allowScripts', () => {
    const scripted = Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)
      .filter(([, entry]) => entry.hasInstallScript === true)
      .map(([where]) => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(scripted.length).toBeGreaterThan(0);
    for (const name of scripted) expect(manifest.allowScripts?.[name], `${name} in allowScripts`).toBe(true);
  });

  it('.ci/run sets CI=true, so a runtime the tests cannot install fails CI instead of being skipped', () => {
    const run = fs.readFileSync(path.join(PROJECT_ROOT, '.ci/run'), 'utf8');
    const at = run.search(/^export CI="\$\{CI:-true\}"$/m);
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(run.indexOf('npm test'));
  });
});
