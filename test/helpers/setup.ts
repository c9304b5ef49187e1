import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, inject } from 'vitest';
import { isolatedEnv, removeFileTempDirs, removeTempDirs } from './git-repo.js';

// Library calls made inside the test process (not only child processes) must not see the developer's
// global git config, HOME or HESTAI_* variables: give the test process an isolated environment too.
// Vitest runs this file before every test file, also in a worker that does not isolate its files (the unit
// project): one home per process, the environment reset for each file. The home lives in the run's directory
// (test/helpers/run-dir.ts, a global setup), which the run removes when it ends.
const HOME = Symbol.for('hestai.test-home');
const state = globalThis as { [HOME]?: string };
if (state[HOME] === undefined) {
  const runDir = inject('testRunDir');
  if (runDir === undefined) throw new Error('no test run directory: add test/helpers/run-dir.ts to globalSetup');
  state[HOME] = fs.mkdtempSync(path.join(runDir, 'home-'));
}
const env = isolatedEnv(state[HOME]);
for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
Object.assign(process.env, env);

afterEach(removeTempDirs);
afterAll(removeFileTempDirs);
