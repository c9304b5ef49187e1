// The product as the bench sees it: which CLI commands are built, and the repositories the cases run in
// (hooks installed, a session clocked in and anchored) made through the real CLI.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, CONVENTIONAL, HUSKY, ROOT, git, isolatedEnv, run, tempDir, write } from './env.mjs';

const helpCache = new Map();
/**
 * Whether the built CLI has the command: `hestai <words...> --help` must exit 0 and print that command's own
 * usage line (commander answers an unknown command's --help with the program's help, also exit 0).
 */
export function hasCommand(...words) {
  const key = words.join(' ');
  if (!helpCache.has(key)) {
    const result = fs.existsSync(CLI)
      ? spawnSync(process.execPath, [CLI, ...words, '--help'], { encoding: 'utf8' })
      : null;
    helpCache.set(key, result?.status === 0 && result.stdout.includes(`Usage: hestai ${words[0]} `));
  }
  return helpCache.get(key);
}

/** A "not built yet" reason when any of the commands is missing, else null. */
export function missing(...commands) {
  for (const words of commands) {
    if (!hasCommand(...words)) return `not built yet: \`hestai ${words.join(' ')}\` is not in dist/`;
  }
  return null;
}

/** Runs the built CLI and returns stdout (parsed when `--json` is among the args). */
export function hestai(cwd, env, args, options = {}) {
  const out = run(process.execPath, [CLI, ...args], { cwd, env, ...options });
  return args.includes('--json') ? JSON.parse(out) : out;
}

/** The role the bench binds as: implementation-lead when `hestai init` installed it, else the first role. */
export function pickRole(repo) {
  const dir = path.join(repo, '.hestai-sys/agents');
  const roles = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.oct.md'))
        .map((f) => f.slice(0, -7))
    : [];
  return roles.includes('implementation-lead') || roles.length === 0 ? 'implementation-lead' : roles.sort()[0];
}

/** The `## BIND` payload for the context stage. */
export function bindPayload(role) {
  return `## BIND (Identity Lock)\nROLE::${role}\nCOGNITION::LOGOS::ATHENA\nAUTHORITY::RESPONSIBLE[bench implementation]\n`;
}

/** The `## TENSION` + `## COMMIT` payload for the proof stage (three lines with line ranges: valid at deep). */
export function proofPayload() {
  return [
    '## TENSION (Cognitive Proof - AGENT GENERATED)',
    'L1::[TDD_MANDATE]⇌CTX:src/app.ts:1-2[no failing test yet]→TRIGGER[write the failing test first]',
    'L2::[MINIMAL_INTERVENTION]⇌CTX:README.md:1-1[documents the app]→TRIGGER[keep the contract stable]',
    'L3::[ATOMIC_COMMITS]⇌CTX:test/app.test.ts:1-1[one behaviour per test]→TRIGGER[commit the test before the feat]',
    '## COMMIT (Falsifiable Contract)',
    'ARTIFACT::src/app.ts',
    'GATE::npm test',
    '',
  ].join('\n');
}

/** The whole RAPH v4.0 vector (BIND, ARM, TENSION, COMMIT) for the one-shot/in-process validation. */
export function fullVector(role, arm) {
  return [
    '===RAPH_VECTOR::v4.0===',
    bindPayload(role).trimEnd(),
    '## ARM (Context Proof - SERVER INJECTED)',
    `PHASE::${arm.phase}`,
    `BRANCH::${arm.branch}`,
    `FILES::${arm.files}`,
    `FOCUS::${arm.focus}`,
    proofPayload().trimEnd(),
    '===END_RAPH_VECTOR===',
    '',
  ].join('\n');
}

/**
 * A fresh repository on branch feat/bench (off main) with src/, test/ and README, for commit cases.
 * `hooks`: 'noop' (both hooks run `node -e 0`), 'husky' (husky 9 + lint-staged 16 + commitlint 20 as their
 * docs set them up), 'hestai' (`hestai init --no-husky`), or 'none'.
 */
export function makeRepo(hooks) {
  const base = tempDir(`hestai-bench-${hooks}-`);
  const repo = path.join(base, 'repo');
  fs.mkdirSync(repo);
  const env = isolatedEnv(path.join(base, 'home'));
  git(repo, env, ['init', '-q', '-b', 'main']);
  write(repo, 'README.md', '# bench app\n');
  write(repo, 'src/app.ts', 'export const app = 1;\nexport const name = "bench";\n');
  write(repo, 'test/app.test.ts', '// tests for src/app.ts\n');
  // By absolute path: the repository lives in the system temp dir, outside this package's node_modules.
  write(repo, 'commitlint.config.mjs', `export default { extends: [${JSON.stringify(CONVENTIONAL)}] };\n`);
  write(repo, '.hestai/context/PROJECT-CONTEXT.oct.md', '===PROJECT_CONTEXT===\nPHASE::B1\nFOCUS::bench\n===END===\n');
  write(repo, '.hestai_workspace.yaml', 'github:\n  issue_search: false\n  pr_context: false\n');
  git(repo, env, ['add', '-A']);
  git(repo, env, ['commit', '-q', '--no-verify', '-m', 'chore: initial commit']);
  git(repo, env, ['checkout', '-q', '-b', 'feat/bench']);
  const hooksDir = path.join(repo, '.git/hooks');
  if (hooks === 'noop') {
    for (const name of ['pre-commit', 'commit-msg']) {
      fs.writeFileSync(path.join(hooksDir, name), `#!/bin/sh\nexec "${process.execPath}" -e 0\n`, { mode: 0o755 });
    }
  } else if (hooks === 'husky') {
    // husky + lint-staged + commitlint as their docs set them up: husky's own installer (core.hooksPath .husky/_
    // and its runner), `.husky/pre-commit` running `npx lint-staged` and `.husky/commit-msg` running
    // `npx --no -- commitlint --edit "$1"`, in a project whose node_modules holds all three (this package's,
    // linked). lint-staged's task is `node -e 0`: the tools' own cost, no linter's.
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(repo, 'node_modules'), 'dir');
    write(repo, '.gitignore', 'node_modules\n');
    write(
      repo,
      'package.json',
      `${JSON.stringify({ name: 'bench-app', private: true, type: 'module', 'lint-staged': { '*': 'node -e 0' } })}\n`,
    );
    run(
      process.execPath,
      ['--input-type=module', '-e', `process.stdout.write((await import(${JSON.stringify(HUSKY)})).default())`],
      {
        cwd: repo,
        env,
      },
    );
    write(repo, '.husky/pre-commit', 'npx lint-staged\n');
    write(repo, '.husky/commit-msg', 'npx --no -- commitlint --edit "$1"\n');
    git(repo, env, ['add', '-A']);
    git(repo, env, ['commit', '-q', '--no-verify', '-m', 'chore: husky, lint-staged and commitlint']);
    // npm's once-a-day registry check for a newer npm would put a network request into some samples.
    env.NPM_CONFIG_UPDATE_NOTIFIER = 'false';
  } else if (hooks === 'hestai') {
    if (hasCommand('init')) hestai(repo, env, ['init', '--no-husky']);
    // Until `hestai init` is built: the shipped hook entrypoints by path, as init installs them.
    else git(repo, env, ['config', 'core.hooksPath', path.join(ROOT, 'hooks')]);
    // The default constitutions where init did not install them (init and anchor were built apart).
    const agents = path.join(ROOT, 'templates/agents');
    if (fs.existsSync(agents) && !fs.existsSync(path.join(repo, '.hestai-sys/agents'))) {
      fs.cpSync(agents, path.join(repo, '.hestai-sys/agents'), { recursive: true });
    }
    git(repo, env, ['add', '-A']);
    git(repo, env, ['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
  }
  return { base, repo, env, role: pickRole(repo) };
}

/** Whether an anchored session can be made: through the CLI, or seeded through the built library. */
export function anchorMissing() {
  if (hasCommand('clock-in') && hasCommand('anchor')) return null;
  const seedable = ['anchor/record.js', 'session/record.js', 'state/store.js', 'paths.js'].every((f) =>
    fs.existsSync(path.join(ROOT, 'dist', f)),
  );
  return seedable
    ? null
    : 'not built yet: neither `hestai clock-in` + `hestai anchor` nor the session/anchor records are in dist/';
}

/**
 * Until `clock-in` and `anchor` are built: an active session and a sealed anchor written through the built
 * library's own record writers (the on-disk format the CLI writes). Returns the token.
 */
async function seedAnchoredSession(repo, role) {
  const load = (f) => import(pathToFileURL(path.join(ROOT, 'dist', f)).href);
  const [{ sealAnchor, anchorFile }, { writeSession }, { writeJsonAtomic }, { workspacePaths }] = await Promise.all(
    ['anchor/record.js', 'session/record.js', 'state/store.js', 'paths.js'].map(load),
  );
  const paths = workspacePaths(repo);
  const token = randomUUID();
  const at = new Date().toISOString();
  writeSession(paths, {
    version: 1,
    session_id: token,
    role,
    focus: 'bench',
    focus_source: 'explicit',
    branch: 'feat/bench',
    working_dir: repo,
    model: null,
    started_at: at,
    context_generated_at: at,
    last_activity: at,
    state: 'ACTIVE',
    starting_commit: null,
    ownership_log: [],
    acknowledgments: [],
  });
  const arm = {
    phase: 'B1',
    branch: 'feat/bench',
    ahead: 0,
    behind: 0,
    files_count: 0,
    top_files: [],
    focus: 'bench',
    context_hash: 'bench',
  };
  writeJsonAtomic(
    anchorFile(paths, token),
    sealAnchor({
      version: 1,
      token,
      validated: true,
      role,
      mode: 'full',
      tier: 'default',
      source: 'anchor',
      validated_at: at,
      arm,
      canonical_anchor: '===RAPH_VECTOR::v4.0===\n===END_RAPH_VECTOR===',
    }),
  );
  return token;
}

/** Clocks in and completes the three anchor stages through the CLI (or seeds them, see above); returns the token. */
export async function anchorSession(repo, env, role) {
  if (!(hasCommand('clock-in') && hasCommand('anchor'))) return seedAnchoredSession(repo, role);
  const token = clockIn(repo, env, role);
  anchorStage(repo, env, 'identity', token, role);
  anchorStage(repo, env, 'context', token, role);
  anchorStage(repo, env, 'proof', token, role);
  return token;
}

/** `hestai clock-in --role R --json` → the session id. */
export function clockIn(repo, env, role, focus = 'bench') {
  const result = hestai(repo, env, ['--json', 'clock-in', '--role', role, '--focus', focus]);
  const token = result.session_id ?? result.sessionId ?? result.token;
  if (typeof token !== 'string')
    throw new Error(`clock-in returned no session_id: ${JSON.stringify(result).slice(0, 500)}`);
  return token;
}

/** The argument list of one anchor stage (payload files written next to the repository). */
export function anchorArgs(repo, stage, token, role) {
  if (stage === 'identity') return ['--json', 'anchor', '--stage', 'identity', '--role', role, '--token', token];
  const payload = stage === 'context' ? bindPayload(role) : proofPayload();
  const file = path.join(path.dirname(repo), `${stage}-payload.txt`);
  fs.writeFileSync(file, payload);
  return ['--json', 'anchor', '--stage', stage, '--token', token, '--payload-file', file];
}

/** Runs one anchor stage untimed (setup). */
export function anchorStage(repo, env, stage, token, role) {
  return hestai(repo, env, anchorArgs(repo, stage, token, role));
}

/** Untimed per-iteration setup of a commit case: a `test` commit (hooks skipped), then a staged source change. */
export function stageFeature(repo, env, i) {
  fs.appendFileSync(path.join(repo, 'test/app.test.ts'), `// case ${i}\n`);
  git(repo, env, ['add', 'test/app.test.ts']);
  git(repo, env, ['commit', '-q', '--no-verify', '-m', `test(app): cover case ${i}`]);
  fs.appendFileSync(path.join(repo, 'src/app.ts'), `export const case${i} = ${i};\n`);
  git(repo, env, ['add', 'src/app.ts']);
}

/** "not built yet" unless the shipped hook entrypoints (hooks/pre-commit, hooks/commit-msg) and their build exist. */
export function missingHooks() {
  for (const name of ['pre-commit', 'commit-msg']) {
    if (!fs.existsSync(path.join(ROOT, 'hooks', name))) return `not built yet: hooks/${name} is missing`;
  }
  return missing(['check', 'pre-commit'], ['check', 'commit-msg']);
}
