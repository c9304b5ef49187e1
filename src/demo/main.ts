import { DemoRepo, show } from './demo-repo.js';

/**
 * `npm start`: the built-in demo. In a temporary repository it shows the CLI, the installation check and
 * the workspace config check; it exits 0 when every step behaved as shown, and always cleans up.
 */
async function demo(): Promise<void> {
  const repo = new DemoRepo();
  process.stdout.write(`hestai demo in ${repo.dir}\n`);
  try {
    repo.write('README.md', '# demo\n');
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '-m', 'chore: initial commit']);
    show('the CLI', 'hestai --help', repo.hestai(['--help']), 0);
    show('check the installation', 'hestai doctor', repo.hestai(['doctor']), 0);
    repo.write('.hestai_workspace.yaml', 'freshness:\n  max_age_hour: 12\ntdd:\n  policy: strict\n');
    show('a broken workspace config is named by file, key and line', 'hestai doctor', repo.hestai(['doctor']), 1);
    repo.write('.hestai_workspace.yaml', 'freshness:\n  max_age_hours: 12\ntdd:\n  policy: scoped\n');
    show('fixed', 'hestai doctor --json', repo.hestai(['doctor', '--json']), 0);
    show('a typo in a command is a usage error (exit 2)', 'hestai docter', repo.hestai(['docter']), 2);
    process.stdout.write('\ndemo complete: every step behaved as shown.\n');
  } finally {
    repo.cleanup();
  }
}

demo().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
