import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { isolatedEnv, removeFileTempDirs, removeTempDirs } from './git-repo.js';

// Library calls made inside the test process (not only child processes) must not see the developer's
// global git config, HOME or HESTAI_* variables: give the test process an isolated environment too.
// Vitest runs this file before every test file, also in a worker that does not isolate its files (the unit
// project): one home per process, the environment reset for each file.
const HOME = Symbol.for('hestai.test-home');
const state = globalThis as { [HOME]?: string };
if (state[HOME] === undefined) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-test-home-'));
  state[HOME] = home;
  process.on('exit', () => fs.rmSync(home, { recursive: true, force: true }));
}
const env = isolatedEnv(state[HOME]);
for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
Object.assign(process.env, env);

afterEach(removeTempDirs);
afterAll(removeFileTempDirs);
