import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, inject } from 'vitest';
import { isolatedEnv, removeFileTempDirs, removeTempDirs } from './git-repo.js';

// Library calls made inside the test process (not only child processes) must not see the developer's
// global git config, HOME or HESTAI_* variables: give the test process an isolated environment too.
// Vitest runs this file before every test file, also in a worker that runs several files one after another
// (no project isolates its files): each file gets a fresh home and the environment is reset. The homes live in
// the run's directory (test/helpers/run-dir.ts, a global setup), which the run removes when it ends. A runner
// that skips global setups gets a home in the system's temporary directory, removed after the file.
const runDir = inject('testRunDir');
const home = fs.mkdtempSync(
  runDir === undefined ? path.join(os.tmpdir(), 'hestai-test-home-') : path.join(runDir, 'home-'),
);
if (runDir === undefined) afterAll(() => fs.rmSync(home, { recursive: true, force: true }));
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
