import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { staleBuild } from '../helpers/global-setup.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tree(files: Record<string, number>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-stale-build-'));
  dirs.push(root);
  for (const [file, mtime] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), '');
    fs.utimesSync(path.join(root, file), mtime, mtime);
  }
  // Directories get the oldest time, so only files decide.
  for (const dir of ['src', 'src/deep', 'dist', 'dist/cli'])
    if (fs.existsSync(path.join(root, dir))) fs.utimesSync(path.join(root, dir), 1, 1);
  return root;
}

describe('staleBuild (the test run never tests an old dist/)', () => {
  it('asks for a build when there is none', () => {
    expect(staleBuild(tree({ 'src/a.ts': 100 }))).toBe('dist/ has not been built');
  });

  it('asks for a build when a source file, however deep, is newer than the build', () => {
    expect(staleBuild(tree({ 'src/a.ts': 100, 'src/deep/b.ts': 300, 'dist/cli/bin.js': 200 }))).toBe(
      'src changed after the last build',
    );
    expect(staleBuild(tree({ 'src/a.ts': 100, 'package.json': 300, 'dist/cli/bin.js': 200 }))).toBe(
      'package.json changed after the last build',
    );
  });

  it('accepts a build newer than every input', () => {
    expect(
      staleBuild(tree({ 'src/a.ts': 100, 'src/deep/b.ts': 150, 'package.json': 120, 'dist/cli/bin.js': 200 })),
    ).toBeNull();
  });
});
