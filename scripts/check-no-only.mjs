// lint-staged task: refuse staged test files that focus tests (`.only(`), which would silently skip the rest.
import { readFileSync } from 'node:fs';

let failed = false;
for (const file of process.argv.slice(2)) {
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (/\b(it|describe|test)\.only\(/.test(line)) {
      console.error(`${file}:${i + 1}: focused test (.only) would skip every other test; remove ".only".`);
      failed = true;
    }
  });
}
process.exit(failed ? 1 : 0);
