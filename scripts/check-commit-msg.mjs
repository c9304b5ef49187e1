// This repository's commit-msg check until the product's own hook is built: a Conventional Commit header.
import { readFileSync } from 'node:fs';

const file = process.argv[2];
const header =
  readFileSync(file, 'utf8')
    .split('\n')
    .find((line) => line.trim() !== '' && !line.startsWith('#')) ?? '';
const ok =
  /^(Merge |Revert |fixup! |squash! )/.test(header) ||
  /^(feat|fix|test|refactor|perf|docs|chore|build|ci|style|revert)(\([^()\s]+\))?!?: \S.*$/.test(header);
if (!ok) {
  console.error(
    `commit-msg: "${header}" is not a Conventional Commit header.\nhint: write "type(scope): subject", e.g. "test(cli): add failing test for --json".`,
  );
  process.exit(1);
}
