import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isolatedEnv } from './git-repo.js';

// Library calls made inside the test process (not only child processes) must not see the developer's
// global git config, HOME or HESTAI_* variables: give the test process an isolated environment too.
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-test-home-'));
const env = isolatedEnv(home);
for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
Object.assign(process.env, env);
process.on('exit', () => fs.rmSync(home, { recursive: true, force: true }));
