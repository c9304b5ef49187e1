import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, inject } from 'vitest';
import { isolatedEnv, removeFileTempDirs, removeTempDirs } from './git-repo.js';

// Library calls made inside the test process (not only child processes) must not see the developer's
// global git config, HOME or HESTAI_* variables: give the test process an isolated environment too.
// Vitest runs this file before every test file, also in a worker that runs several files one after another
// (no project isolates its files): each file gets a fresh home and the environment is reset. The homes live in
// the run's directory (test/helpers/run-dir.ts, a global setup), which the run removes when it ends.
const runDir = inject('testRunDir');
if (runDir === undefined) throw new Error('no test run directory: add test/helpers/run-dir.ts to globalSetup');
const home = fs.mkdtempSync(path.join(runDir, 'home-'));
// What the worker started with, kept from its first file: a variable an earlier file set does not reach this one.
const ORIGINAL = Symbol.for('hestai.test-original-env');
const state = globalThis as { [ORIGINAL]?: NodeJS.ProcessEnv };
const original = (state[ORIGINAL] ??= { ...process.env });
for (const key of Object.keys(process.env)) delete process.env[key];
Object.assign(process.env, original);
const env = isolatedEnv(home);
for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
Object.assign(process.env, env);

afterEach(removeTempDirs);
afterAll(removeFileTempDirs);
