import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT, tempDir } from '../helpers/git-repo.js';

// `npm run lint` runs dependency-cruiser with .dependency-cruiser.cjs over src/. These tests run the same
// binary and config over a small src/ tree, to show what the config refuses.
const DEPCRUISE = path.join(PROJECT_ROOT, 'node_modules/.bin/depcruise');

function cruise(files: Record<string, string>): { status: number | null; output: string } {
  const dir = tempDir('hestai-layers-');
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' }, include: ['src'] }),
  );
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  const run = spawnSync(DEPCRUISE, ['src', '--config', path.join(PROJECT_ROOT, '.dependency-cruiser.cjs')], {
    cwd: dir,
    encoding: 'utf8',
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

// Three sibling use-case folders, each file importing the next folder's file: no file imports itself back.
const chain = {
  'src/session/clock-in.ts': "import { arm } from '../setup/armed.js';\nexport const clockIn = () => arm();\n",
  'src/setup/armed.ts': "import { read } from '../report/read.js';\nexport const arm = () => read();\n",
  'src/report/read.ts': 'export const read = () => 1;\n',
};

describe('the layers of src/ (.dependency-cruiser.cjs)', () => {
  it('passes folders that import each other in one direction', () => {
    const run = cruise(chain);
    expect(run.output).toContain('no dependency violations found');
    expect(run.status).toBe(0);
  });

  it('refuses a cycle through folders even when no file imports itself back', () => {
    const run = cruise({
      ...chain,
      'src/report/read.ts': "import { start } from '../session/start.js';\nexport const read = () => start();\n",
      'src/session/start.ts': 'export const start = () => 1;\n',
    });
    expect(run.output).toContain('no-folder-cycle');
    expect(run.output).not.toMatch(/error no-circular/);
    expect(run.status).not.toBe(0);
  });
});
