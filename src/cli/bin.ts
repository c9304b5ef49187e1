#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

// Fast path: `hestai check pre-commit` / `hestai check commit-msg FILE` started in a worktree root run the
// bundled hook directly, without loading commander (the hook budget: see README "Speed").
const [command, hook, ...rest] = process.argv.slice(2);
if (command === 'check' && (hook === 'pre-commit' || hook === 'commit-msg') && rest.length <= 1 && !rest.some((a) => a.startsWith('-')) && existsSync('.git')) {
  const bundle = createRequire(import.meta.url)(`../hooks/${hook}.cjs`) as { run: (args: readonly string[]) => Promise<number> };
  process.exitCode = await bundle.run(rest);
} else {
  const { main } = await import('./main.js');
  main(process.argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`hestai: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
