import { claudeAct } from './claude-act.js';
import { DemoRepo, show } from './demo-repo.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Adds everything and commits through the installed hooks (an empty commit is allowed). */
function commitAll(repo: DemoRepo, message: string, env: NodeJS.ProcessEnv = {}) {
  repo.git(['add', '-A']);
  return repo.git(['commit', '-q', '--allow-empty', '-m', message], env);
}

/** A repository that adopts hestai: a first commit, `hestai init --no-husky`, and the adoption commit. */
function adopt(repo: DemoRepo): void {
  repo.write('README.md', '# demo\n');
  // src/ is in the first commit: the anchor's ARTIFACT (src/greet.js) is a new file in a directory that exists.
  repo.write('src/index.js', "export { greet } from './greet.js';\n");
  commitAll(repo, 'chore: initial commit');
  show(
    'install the hooks (plain git hooks, no husky)',
    'hestai init --no-husky',
    repo.hestai(['init', '--no-husky']),
    0,
  );
  repo.write(
    '.hestai_workspace.yaml',
    `${repo.read('.hestai_workspace.yaml')}github:\n  issue_search: false\n  pr_context: false\n`,
  );
  // Adopting is a commit of its own: the role constitutions and the config are then in git, where CI checks anchors against them.
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
}

/** The BIND and proof payloads every handshake of the demo submits (files outside the repository). */
interface Payloads {
  bind: string;
  proof: string;
}

function writePayloads(repo: DemoRepo): Payloads {
  const bind = path.join(repo.base, 'bind.oct');
  const proof = path.join(repo.base, 'proof.oct');
  fs.writeFileSync(
    bind,
    [
      '## BIND (Identity Lock)',
      'ROLE::implementation-lead',
      'COGNITION::LOGOS::HEPHAESTUS+ATHENA',
      'AUTHORITY::RESPONSIBLE[greeting feature]',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(
    proof,
    [
      '## TENSION (Cognitive Proof - AGENT GENERATED)',
      'L1::[TDD_MANDATE]<->CTX:README.md:1-1[no tests yet]->TRIGGER[commit the failing test before the feature]',
      'L2::[DOCUMENTED_BEHAVIOUR]<->CTX:README.md[the readme names the demo]->TRIGGER[keep the greeting as documented]',
      '## COMMIT (Falsifiable Contract)',
      'ARTIFACT::src/greet.js',
      'GATE::node test/greet.test.js',
      '',
    ].join('\n'),
  );
  return { bind, proof };
}

/** One stage of the anchor handshake, shown under its title. */
function stage(repo: DemoRepo, args: string[], title: string, command: string): void {
  const step = repo.hestai(['--json', 'anchor', ...args]);
  const result = JSON.parse(step.stdout) as { success: boolean; next_step: string; errors: string[] };
  show(
    title,
    command,
    {
      ...step,
      stdout: `success: ${result.success}${result.errors.length ? `, errors: ${result.errors.join('; ')}` : ''}\nnext: ${result.next_step}\n`,
    },
    0,
  );
}

/** The three stages of the handshake for a session, each shown under its title. */
function anchorAll(repo: DemoRepo, payloads: Payloads, id: string, titles: readonly [string, string, string]): void {
  stage(
    repo,
    ['--stage', 'identity', '--role', 'implementation-lead', '--token', id],
    titles[0],
    `hestai anchor --stage identity --role implementation-lead --token ${id.slice(0, 8)}…`,
  );
  stage(
    repo,
    ['--stage', 'context', '--token', id, '--payload-file', payloads.bind],
    titles[1],
    'hestai anchor --stage context --token … --payload-file bind.oct',
  );
  stage(
    repo,
    ['--stage', 'proof', '--token', id, '--payload-file', payloads.proof],
    titles[2],
    'hestai anchor --stage proof --token … --payload-file proof.oct',
  );
}

/** 1. A commit needs a session, then an anchor, and carries their trailers; returns the time it passed (step 3 counts from it). */
function sessionSteps(repo: DemoRepo, payloads: Payloads): Date {
  repo.write('docs/usage.md', 'Say hello.\n');
  show('1. a commit without a session is blocked', 'git commit -m "docs: usage"', commitAll(repo, 'docs: usage'), 1);
  const clockIn = repo.hestai(['--json', 'clock-in', '--role', 'implementation-lead', '--focus', 'greeting feature']);
  const token = (JSON.parse(clockIn.stdout) as { session_id: string }).session_id;
  show(
    '   clock in',
    'hestai clock-in --role implementation-lead --focus "greeting feature"',
    { ...clockIn, stdout: `session ${token}\n` },
    0,
  );
  show(
    '   still blocked: the session is not anchored yet',
    'git commit -m "docs: usage"',
    commitAll(repo, 'docs: usage'),
    1,
  );
  anchorAll(repo, payloads, token, [
    '   anchor, stage 1: identity (the role constitution)',
    '   anchor, stage 2: context (BIND in, server-authoritative ARM out)',
    '   anchor, stage 3: proof (TENSION + COMMIT; anchor.json promoted)',
  ]);
  const now = new Date();
  show(
    '   ... and passes once the session is anchored',
    'git commit -m "docs: usage"',
    commitAll(repo, 'docs: usage'),
    0,
  );
  show(
    '   the commit carries the session and anchor trailers',
    'git log -1 --format=%B',
    repo.git(['log', '-1', '--format=%B']),
    0,
  );
  return now;
}

/** 2. Test-first: a feat without a preceding test commit is blocked; the test commit, then the feat, pass. */
function testFirstSteps(repo: DemoRepo): void {
  repo.git(['checkout', '-q', '-b', 'feat/greeting']);
  // JavaScript source written into the demo repository (a template literal inside a string)
  repo.write('src/greet.js', 'export const greet = (name) => `hello ${name}`;\n');
  show(
    '2. a feat without a preceding test commit is blocked',
    'git commit -m "feat(greet): greet by name"',
    commitAll(repo, 'feat(greet): greet by name'),
    1,
  );
  repo.git(['reset', '-q']);
  repo.git(['stash', '-q', '--include-untracked']);
  repo.write(
    'test/greet.test.js',
    "import { greet } from '../src/greet.js';\nif (greet('ann') !== 'hello ann') throw new Error('red');\n",
  );
  show(
    '   commit the failing test first',
    'git commit -m "test(greet): greet by name"',
    commitAll(repo, 'test(greet): greet by name'),
    0,
  );
  repo.git(['stash', 'pop', '-q']);
  show(
    '   then the feat passes',
    'git commit -m "feat(greet): greet by name"',
    commitAll(repo, 'feat(greet): greet by name'),
    0,
  );
}

/** 3. Stale context (an injected clock 25 hours later) blocks until acknowledged. */
function staleContextSteps(repo: DemoRepo, now: Date): void {
  const later = new Date(now.getTime() + 25 * 3_600_000);
  const clock = { HESTAI_NOW: later.toISOString() };
  repo.write('docs/usage.md', 'Say hello by name.\n');
  show(
    '3. 25 hours later (HESTAI_NOW) the context is stale: blocked',
    'HESTAI_NOW=<+25h> git commit -m "docs: names"',
    commitAll(repo, 'docs: names', clock),
    1,
  );
  show(
    '   acknowledge it (audited)',
    'hestai ack --reason "reviewed the context: still accurate"',
    repo.hestai(['ack', '--reason', 'reviewed the context: still accurate'], clock),
    0,
  );
  show(
    '   ... and the commit passes',
    'HESTAI_NOW=<+25h> git commit -m "docs: names"',
    commitAll(repo, 'docs: names', clock),
    0,
  );
}

/** 4. CI: hestai verify passes the branch, and catches a feat committed with --no-verify. */
function ciSteps(repo: DemoRepo): void {
  show('4. the CI step checks the whole branch', 'hestai verify', repo.hestai(['verify']), 0);
  repo.write('src/shout.js', 'export const shout = (s) => s.toUpperCase();\n');
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'feat(shout): shout']);
  show(
    '   a feat committed with --no-verify is caught in CI',
    'hestai verify --format github',
    repo.hestai(['verify', '--format', 'github']),
    1,
  );
}

/** 5. The same rules at edit time: Claude Code's hooks, run exactly as .claude/settings.json says, then by the real Claude Code. */
async function agentSteps(repo: DemoRepo, payloads: Payloads): Promise<void> {
  show(
    '5. at edit time: install the Claude Code hooks',
    'hestai init --no-husky --agent claude-code',
    repo.hestai(['init', '--no-husky', '--agent', 'claude-code']),
    0,
  );
  const settings = JSON.parse(repo.read('.claude/settings.json')) as {
    hooks: { PreToolUse: { hooks: { command: string }[] }[] };
  };
  const hook = settings.hooks.PreToolUse[0]!.hooks[0]!.command;
  const agent = { CLAUDE_PROJECT_DIR: repo.dir, CLAUDE_ENV_FILE: path.join(repo.base, 'claude-env') };
  const payload = (fields: Record<string, unknown>) =>
    JSON.stringify({ session_id: 'demo-claude-session', cwd: repo.dir, ...fields });
  show(
    '   a Claude Code session starts: SessionStart clocks the agent in and binds it',
    `{"hook_event_name":"SessionStart",...} | ${hook}`,
    repo.shell(hook, payload({ hook_event_name: 'SessionStart', source: 'startup' }), agent),
    0,
  );
  const agentToken = /HESTAI_SESSION=(\S+)/.exec(fs.readFileSync(agent.CLAUDE_ENV_FILE, 'utf8'))![1]!;
  const editGreet = payload({
    hook_event_name: 'PreToolUse',
    tool_name: 'Edit',
    tool_input: { file_path: path.join(repo.dir, 'src/greet.js'), old_string: 'hello', new_string: 'hi' },
  });
  show(
    "   the agent's Edit is refused (exit 2: Claude Code blocks it and shows the reason)",
    `{"tool_name":"Edit",...} | ${hook}`,
    repo.shell(hook, editGreet, agent),
    2,
  );
  anchorAll(repo, payloads, agentToken, ['   the agent anchors: identity', '   context', '   proof']);
  show(
    '   ... and the same Edit is allowed',
    `{"tool_name":"Edit",...} | ${hook}`,
    repo.shell(hook, editGreet, agent),
    0,
  );
  // 5b. The same hooks run by the real Claude Code, when the project's devDependency is installed.
  await claudeAct(repo, (id) =>
    anchorAll(repo, payloads, id, ['   its agent anchors (as its shell would): identity', '   context', '   proof']),
  );
}

/** 6. The audit trail of everything above, kept after the repository is removed; returns the page's path. */
function reportStep(repo: DemoRepo): string {
  const keep = fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-demo-report-'));
  const report = path.join(keep, 'hestai-report.html');
  show(
    '6. the audit trail to look at: the branch of step 4 as one HTML page (verdicts, sessions, anchors)',
    `hestai report --out ${report}`,
    repo.hestai(['report', '--out', report]),
    0,
  );
  return report;
}

/**
 * `npm start`: the built-in demo. In a temporary repository with the hooks installed by
 * `hestai init --no-husky`, real `git commit`s show each rule blocking and then passing: no session,
 * test-first, stale context (injected clock), `hestai verify` as CI would run it, and an agent's edit
 * refused and then allowed by the Claude Code hooks, then by the real Claude Code when it is installed (a
 * scripted model on 127.0.0.1, src/demo/claude-act.ts); it ends by writing `hestai report` of that history
 * (outside the repository) and printing its path. It exits 0 when
 * every step behaved as shown, and always cleans up.
 */
async function demo(): Promise<void> {
  const repo = new DemoRepo();
  process.stdout.write(`hestai demo in ${repo.dir}\n`);
  try {
    adopt(repo);
    const payloads = writePayloads(repo);
    const now = sessionSteps(repo, payloads);
    testFirstSteps(repo);
    staleContextSteps(repo, now);
    ciSteps(repo);
    await agentSteps(repo, payloads);
    const report = reportStep(repo);
    process.stdout.write('\ndemo complete: every step behaved as shown.\n');
    process.stdout.write(`report: ${report}\n`);
  } finally {
    repo.cleanup();
  }
}

demo().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
