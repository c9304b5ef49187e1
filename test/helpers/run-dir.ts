import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A directory made for this run of vitest (one per project), removed when the run ends. */
    testRunDir: string;
  }
}

// A global setup (it runs in vitest's main process): each test process makes its private HOME under this
// directory (test/helpers/setup.ts), and the run removes it at the end. A test process cannot clean up after
// itself: vitest ends its workers without running their 'exit' handlers, which left one home per test file
// behind in the system's temporary directory.
export default function setup(project: TestProject): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-test-run-'));
  project.provide('testRunDir', dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
