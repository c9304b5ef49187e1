import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect } from 'vitest';
import { makeRepo, PROJECT_ROOT, tempDir, type RunResult, type TempRepo } from './git-repo.js';
import {
  startModelEndpoint,
  type DIALECTS,
  type ModelEndpoint,
  type ModelRequest,
  type Step,
  type ToolResult,
  type Turn,
} from './model-endpoint.js';
import { toolCache } from './npm-tool.js';
import {
  copilotCache,
  RUNTIMES,
  runRuntime,
  runtimeBin,
  runtimeEnv,
  type RuntimeName,
  type RuntimeRun,
} from './runtimes.js';

// One runner for the real agent runtimes' end-to-end cases (issue 29): a repository adopted with
// `hestai init --agent <runtime>`, the runtime's program run once against a scripted model endpoint, and the
// assertions every case shares (the program ends well, the script was played, what the hooks refused and
// why, the session the runtime bound, a commit that passes `hestai verify` in a fresh clone).

/** One model turn that calls one tool. */
export const toolCall = (name: string, input: Record<string, unknown>): Turn => ({ tools: [{ name, input }] });

/** The content of src/app.ts in every adopted repository. */
export const APP = 'export const app = 1;\n';

/** How each runtime is run headless against the endpoint, nothing of the developer's own setup leaking in. */
interface Driver {
  api: keyof typeof DIALECTS;
  /** Writes the runtime's user settings for the endpoint; returns the environment the program runs in. */
  configure(repo: TempRepo, endpoint: ModelEndpoint): NodeJS.ProcessEnv;
  /** The program's arguments for one prompt. */
  args: string[];
  /**
   * The directory under the project where the runtime installs its plugin's dependencies at start (OpenCode's
   * `.opencode/`: npm installs `@opencode-ai/plugin` there, tens of seconds): kept in the tool cache after a
   * run and put back before the next, as a project where the runtime ran before has them.
   */
  projectDeps?: string;
  /** How long one run may take (default 60 s). */
  timeoutMs?: number;
}

const DRIVERS: Record<RuntimeName, Driver> = {
  // ANTHROPIC_BASE_URL is the endpoint; acceptEdits so Claude Code's own permission flow lets edits through.
  'claude-code': {
    api: 'anthropic',
    configure: (repo, endpoint) =>
      runtimeEnv(repo.env, { ANTHROPIC_BASE_URL: endpoint.url, ANTHROPIC_API_KEY: 'test' }),
    args: ['-p', 'change src/app.ts', '--permission-mode', 'acceptEdits', '--model', 'claude-sonnet-4-5'],
  },
  // A CODEX_HOME whose model provider's base_url is the endpoint (Responses API), the repository trusted.
  // `codex exec` runs only hooks a person has trusted (the TUI's /hooks review writes a per-hook hash into
  // the user's config.toml) and has no review of its own: --dangerously-bypass-hook-trust stands for that
  // review (docs/agents.md).
  codex: {
    api: 'openai-responses',
    configure(repo, endpoint) {
      const home = path.join(repo.home, '.codex');
      fs.mkdirSync(home, { recursive: true });
      fs.writeFileSync(
        path.join(home, 'config.toml'),
        [
          'model = "gpt-5"',
          'model_provider = "scripted"',
          '[model_providers.scripted]',
          'name = "scripted"',
          `base_url = "${endpoint.url}/v1"`,
          'wire_api = "responses"',
          'env_key = "SCRIPTED_API_KEY"',
          `[projects."${repo.dir}"]`,
          'trust_level = "trusted"',
          '',
        ].join('\n'),
      );
      return runtimeEnv(repo.env, { CODEX_HOME: home, SCRIPTED_API_KEY: 'test' });
    },
    args: ['exec', '--dangerously-bypass-hook-trust', 'change src/app.ts'],
  },
  // GOOGLE_GEMINI_BASE_URL is the endpoint. Headless Gemini CLI needs the folder trusted
  // (GEMINI_CLI_TRUST_WORKSPACE) and an auth type in the user's settings; `-m` names a model so no routing
  // call is made; usage statistics are off (no traffic but ours).
  gemini: {
    api: 'gemini',
    configure(repo, endpoint) {
      fs.mkdirSync(path.join(repo.home, '.gemini'), { recursive: true });
      fs.writeFileSync(
        path.join(repo.home, '.gemini/settings.json'),
        JSON.stringify({
          security: { auth: { selectedType: 'gemini-api-key' } },
          privacy: { usageStatisticsEnabled: false },
        }),
      );
      return runtimeEnv(repo.env, {
        GOOGLE_GEMINI_BASE_URL: endpoint.url,
        GEMINI_API_KEY: 'test',
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        GEMINI_CLI_NO_RELAUNCH: 'true',
      });
    },
    args: ['-p', 'change src/app.ts', '--approval-mode', 'yolo', '-m', 'gemini-2.5-flash'],
  },
  // Offline, with a model provider of its own (BYOK: no GitHub login) at the endpoint's Chat Completions API.
  // It runs the repository's hooks and MCP servers only in a trusted folder: --trust-folder trusts this one.
  copilot: {
    api: 'openai-chat',
    configure: (repo, endpoint) =>
      runtimeEnv(repo.env, {
        COPILOT_OFFLINE: 'true',
        COPILOT_PROVIDER_BASE_URL: `${endpoint.url}/v1`,
        COPILOT_PROVIDER_API_KEY: 'test',
        COPILOT_MODEL: 'gpt-4.1',
        COPILOT_AUTO_UPDATE: 'false',
        XDG_CACHE_HOME: copilotCache(),
      }),
    args: ['-p', 'change src/app.ts', '--allow-all-tools', '--trust-folder'],
  },
  // OPENAI_BASE_URL is the endpoint (Chat Completions); yolo runs the tools without asking.
  qwen: {
    api: 'openai-chat',
    configure: (repo, endpoint) =>
      runtimeEnv(repo.env, {
        OPENAI_BASE_URL: `${endpoint.url}/v1`,
        OPENAI_API_KEY: 'test',
        OPENAI_MODEL: 'gpt-4.1',
        QWEN_CODE_NO_RELAUNCH: 'true',
      }),
    args: ['-p', 'change src/app.ts', '--auth-type', 'openai', '--approval-mode', 'yolo'],
  },
  opencode: openCodeDriver('opencode'),
  kilo: openCodeDriver('kilo'),
};

/**
 * OpenCode and Kilo Code (its fork): the user's config (`opencode.json`, `kilo.json` under XDG_CONFIG_HOME)
 * names a provider speaking OpenAI's chat API at the endpoint; nothing is fetched (models, updates, LSPs).
 */
function openCodeDriver(runtime: 'opencode' | 'kilo'): Driver {
  const prefix = runtime === 'kilo' ? 'KILO' : 'OPENCODE';
  return {
    api: 'openai-chat',
    configure(repo, endpoint) {
      const dir = path.join(repo.home, '.config', runtime);
      fs.mkdirSync(dir, { recursive: true });
      const provider = {
        npm: '@ai-sdk/openai-compatible',
        name: 'scripted',
        options: { baseURL: `${endpoint.url}/v1`, apiKey: 'test' },
        models: { model: { name: 'model', tool_call: true } },
      };
      fs.writeFileSync(
        path.join(dir, `${runtime}.json`),
        // snapshot off: no git snapshot of the worktree at every step (its undo history), seconds a step here
        JSON.stringify({ provider: { scripted: provider }, autoupdate: false, share: 'disabled', snapshot: false }),
      );
      const off = ['DISABLE_AUTOUPDATE', 'DISABLE_MODELS_FETCH', 'DISABLE_LSP_DOWNLOAD', 'DISABLE_SHARE'];
      // it takes its project from PWD (the test runner's own directory otherwise), not the process's cwd
      const flags = Object.fromEntries(off.map((flag) => [`${prefix}_${flag}`, 'true']));
      return runtimeEnv(repo.env, { ...flags, PWD: repo.dir });
    },
    args: ['run', '-m', 'scripted/model', 'change src/app.ts'],
    projectDeps: `.${runtime}`,
    timeoutMs: 100_000, // 10 to 40 s before its first model call
  };
}

/** What a runtime installs under its project directory (its `.gitignore` names them all). */
const DEPS = ['node_modules', 'package.json', 'package-lock.json', '.gitignore'];

/** The runtime's plugin dependencies from the tool cache into the project, or (`save`) back into the cache. */
function shareProjectDeps(runtime: RuntimeName, repo: TempRepo, save: boolean): void {
  const dir = DRIVERS[runtime].projectDeps;
  if (dir === undefined) return;
  const pin = RUNTIMES[runtime];
  const cache = path.join(toolCache(), `${pin.pkg.replace('/', '+')}@${pin.version}.project`);
  const project = path.join(repo.dir, dir);
  if (save && !fs.existsSync(cache) && fs.existsSync(path.join(project, 'node_modules'))) {
    const staging = `${cache}.tmp-${process.pid}`;
    for (const name of DEPS.filter((n) => fs.existsSync(path.join(project, n))))
      fs.cpSync(path.join(project, name), path.join(staging, name), { recursive: true, verbatimSymlinks: true });
    fs.renameSync(staging, cache);
  } else if (!save && fs.existsSync(cache)) fs.cpSync(cache, project, { recursive: true, verbatimSymlinks: true });
}

export interface Adopted {
  repo: TempRepo;
  /** What `hestai init` printed (stdout and stderr). */
  init: string;
}

// The adopted repository of each runtime, made once per test file and copied for each case.
const templates = new Map<RuntimeName, { dir: string; init: string }>();
afterAll(() => {
  for (const { dir } of templates.values()) fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  templates.clear();
});

/**
 * A repository adopted as a user would: `hestai init --agent <runtime>` (and `--mcp` for Claude Code), GitHub look-ups off, src/app.ts,
 * committed (hooks skipped). With `enforce`, the session protocol is enforced too (a second commit).
 */
export function adopt(runtime: RuntimeName, options: { enforce?: boolean } = {}): Adopted {
  let template = templates.get(runtime);
  let repo: TempRepo;
  if (template === undefined) {
    repo = makeRepo();
    const mcp = runtime === 'claude-code' ? ['--mcp'] : []; // Claude Code reads .mcp.json
    const init = repo.hestai(['init', '--no-husky', '--agent', runtime, ...mcp]);
    expect(init.status, init.stderr).toBe(0);
    fs.appendFileSync(
      path.join(repo.dir, '.hestai_workspace.yaml'),
      'github:\n  issue_search: false\n  pr_context: false\n',
    );
    repo.write('src/app.ts', APP);
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-adopted-')), 'repo');
    fs.cpSync(repo.dir, dir, { recursive: true, verbatimSymlinks: true });
    template = { dir, init: init.stdout + init.stderr };
    templates.set(runtime, template);
  } else {
    repo = makeRepo({ initialCommit: false });
    fs.rmSync(repo.dir, { recursive: true });
    fs.cpSync(template.dir, repo.dir, { recursive: true, verbatimSymlinks: true });
  }
  if (options.enforce === true) {
    fs.appendFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'protocol:\n  enforce: true\n');
    repo.git(['commit', '-q', '--no-verify', '-am', 'chore: enforce the protocol']);
  }
  return { repo, init: template.init };
}

export interface AgentRun {
  run: RuntimeRun;
  endpoint: ModelEndpoint;
  /** Every tool result the runtime sent back to the model, in order. */
  results: ToolResult[];
}

/**
 * Runs the runtime's program once in the repository against a scripted endpoint playing `script`, and checks
 * what every case needs: the program ended with 0 and played the whole script. `before` runs with the
 * program's environment once the endpoint is up (to run a hint such as `codex mcp add`).
 */
export async function runAgent(
  runtime: RuntimeName,
  repo: TempRepo,
  script: Step[],
  options: { args?: string[]; before?: (env: NodeJS.ProcessEnv) => Promise<unknown> | void } = {},
): Promise<AgentRun> {
  const driver = DRIVERS[runtime];
  const endpoint = await startModelEndpoint({ api: driver.api, script });
  const env = driver.configure(repo, endpoint);
  await options.before?.(env);
  shareProjectDeps(runtime, repo, false);
  const run = await runRuntime((await runtimeBin(runtime))!, [...driver.args, ...(options.args ?? [])], {
    cwd: repo.dir,
    env,
    ...(driver.timeoutMs === undefined ? {} : { timeoutMs: driver.timeoutMs }),
  });
  shareProjectDeps(runtime, repo, true);
  expect(endpoint.failures).toEqual([]);
  expect(run.status, run.stderr + run.stdout).toBe(0);
  expect(endpoint.remaining(), run.stderr + run.stdout).toBe(0);
  return { run, endpoint, results: endpoint.toolResults() };
}

/** Runs a `hint:` line `hestai init` printed for the runtime (its first word is the runtime's program). */
export async function runHint(runtime: RuntimeName, init: string, hint: RegExp, env: NodeJS.ProcessEnv, cwd: string) {
  const line = hint.exec(init);
  expect(line, init).not.toBeNull();
  const [program, ...args] = line![1]!.trim().split(/\s+/);
  const bin = (await runtimeBin(runtime))!;
  expect(program).toBe(path.basename(bin));
  const run = await runRuntime(bin, args, { cwd, env });
  expect(run.status, run.stderr + run.stdout).toBe(0);
  return run;
}

/** The hestai session the runtime's SessionStart hook bound (its one binding file). */
export function boundSession(repo: TempRepo, runtime: RuntimeName): string {
  const bindings = path.join(repo.dir, '.hestai/sessions/bindings', runtime);
  const files = fs.readdirSync(bindings);
  expect(files).toHaveLength(1); // one agent, one session
  return JSON.parse(fs.readFileSync(path.join(bindings, files[0]!), 'utf8')).session_id;
}

/** The hestai session named in the SessionStart context the model reads (as an agent would learn it). */
export function sessionInContext(request: ModelRequest): string {
  const match = /bound to hestai session ([0-9a-f-]{36})/.exec(JSON.stringify(request.body));
  if (match === null) throw new Error('the SessionStart context with the bound session is not in the request');
  return match[1]!;
}

/**
 * The commit command a runtime without an env file is told in its SessionStart context (the session to
 * commit under, and for a runtime that turns git hooks off in its shell, the hooks to run), up to `commit`.
 */
export function commitCommand(request: ModelRequest): string {
  const match = /commit as `(HESTAI_SESSION=[0-9a-f-]{36} git(?: -c core\.hooksPath=\S+)?) commit \.\.\.`/.exec(
    JSON.stringify(request.body).replace(/\\"/g, '"'),
  );
  if (match === null) throw new Error('the SessionStart context names no commit command');
  return match[1]!;
}

/**
 * A refusal of an unanchored write: what was refused, under which session, and the one next step, naming
 * hestai's anchor tool as the runtime calls it (`anchorTool`; Claude Code and Codex: `mcp__hestai__anchor`).
 */
export function expectRefusedUnanchored(
  result: ToolResult | undefined,
  what: string,
  session: string,
  anchorTool = 'mcp__hestai__anchor',
): void {
  expect(result?.content).toContain(`hestai: ${what} blocked: session ${session}`);
  expect(result?.content).toContain('has no valid anchor');
  expect(result?.content).toContain(`fix: call the MCP tool anchor (${anchorTool}) with {"stage":"identity"`);
  expect(result?.content).toContain(`"session_id":"${session}"`);
}

/** The anchor tool the last refusal the model read names (`fix: call the MCP tool anchor (<name>)`), as it would call it. */
export function anchorToolInRefusal(request: ModelRequest): string {
  const names = [...JSON.stringify(request.body).matchAll(/fix: call the MCP tool anchor \((\S+)\)/g)];
  if (names.length === 0) throw new Error('no refusal the model read names the anchor tool');
  return names.at(-1)![1]!;
}

/** The anchor ceremony's payloads (the BIND section; TENSION and COMMIT), valid for an adopted repository. */
export const BIND = [
  '## BIND (Identity Lock)',
  'ROLE::implementation-lead',
  'COGNITION::LOGOS::ATHENA',
  'AUTHORITY::RESPONSIBLE[edit-time hooks]',
  '',
].join('\n');
export const PROOF = [
  '## TENSION (Cognitive Proof - AGENT GENERATED)',
  'L1::[TDD_MANDATE]<->CTX:src/app.ts:1-1[no test yet]->TRIGGER[commit the failing test first]',
  'L2::[MINIMAL_INTERVENTION]<->CTX:README.md[documents the app]->TRIGGER[keep the contract stable]',
  '## COMMIT (Falsifiable Contract)',
  'ARTIFACT::src/app.ts',
  'GATE::npm test',
  '',
].join('\n');

/**
 * The three anchor stages and `anchor_status` as MCP tool calls, in the runtime's naming of hestai's tools
 * (`call(tool, input)`), with the session the model read in its SessionStart context.
 */
export function anchorSteps(
  workingDir: string,
  call: (tool: string, input: Record<string, unknown>, request: ModelRequest) => Turn,
): Step[] {
  const stage =
    (input: (session: string) => Record<string, unknown>, tool = 'anchor'): Step =>
    (request) =>
      call(tool, input(sessionInContext(request)), request);
  return [
    stage((session) => ({
      working_dir: workingDir,
      stage: 'identity',
      role: 'implementation-lead',
      session_id: session,
    })),
    stage((session) => ({ working_dir: workingDir, stage: 'context', session_id: session, payload: BIND })),
    stage((session) => ({ working_dir: workingDir, stage: 'proof', session_id: session, payload: PROOF })),
    // no session_id: the server must know its runtime's session by itself
    stage(() => ({ working_dir: workingDir }), 'anchor_status'),
  ];
}

// hestai's MCP tools answer with JSON (structured content, what Claude Code and Codex show the model) and
// with words (the text content, what Gemini CLI shows): each check below accepts either form.

/** The results of the three anchor stages, each a success. */
export function expectStagesPassed(results: Array<ToolResult | undefined>): void {
  const verdict = (r: ToolResult | undefined) => {
    const json = /"success":(true|false),"stage":"(\w+)"/.exec(r?.content ?? '');
    if (json !== null) return `${json[2]}: ${json[1] === 'true' ? 'passed' : 'failed'}`;
    return /anchor (\w+: \w+)/.exec(r?.content ?? '')?.[1];
  };
  expect(results.map(verdict), JSON.stringify(results)).toEqual([
    'identity: passed',
    'context: passed',
    'proof: passed',
  ]);
}

/**
 * What `anchor_status` (called without a session_id) answers: the session the server took as its own from
 * its runtime's binding, anchored.
 */
export function expectUnlockedByConnection(result: ToolResult | undefined, session: string): void {
  const content = result?.content ?? '';
  if (content.includes('"unlocked"')) {
    expect(content).toContain(`{"session_id":"${session}","unlocked":true,"code":"UNLOCKED"`);
    expect(content).toContain('"selected_by":"connection"');
  } else expect(content).toContain(`session ${session}: unlocked (anchored as implementation-lead`);
}

/** A bare remote `origin` with main pushed, and the work on branch agent-work. */
export function withRemote(repo: TempRepo): string {
  const remote = path.join(tempDir('hestai-remote-'), 'origin.git');
  repo.git(['init', '-q', '--bare', remote]);
  repo.git(['remote', 'add', 'origin', remote]);
  repo.git(['push', '-q', 'origin', 'main']);
  repo.git(['checkout', '-q', '-b', 'agent-work']);
  return remote;
}

/**
 * The agent's last commit carries its own session's trailers (after any the runtime adds itself, such as Qwen
 * Code's Co-authored-by; with `runtime`, its Assisted-by), and after a real push (the pre-push hook publishes the anchor's proof record)
 * `hestai verify` (dist/) passes in a fresh clone of the remote.
 */
export function expectCommitVerified(
  repo: TempRepo,
  remote: string,
  session: string,
  header: string,
  runtime?: RuntimeName,
): RunResult {
  const message = repo.git(['log', '-1', '--format=%B']).stdout;
  // the runtime that started the session, and its model where it said one (issue 42)
  if (runtime !== undefined) expect(message).toMatch(new RegExp(`\nAssisted-by: ${runtime}(?::\\S+)?\n`));
  const escaped = header.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  expect(message).toMatch(
    new RegExp(
      `^${escaped}\n\n(?:Co-authored-by: .+\n)?HestAI-Session: ${session}\nHestAI-Anchor: sha256:[0-9a-f]{64}\n`,
    ),
  );
  repo.git(['push', '-q', 'origin', 'agent-work']);
  const clone = path.join(tempDir('hestai-ci-'), 'clone');
  repo.git(['clone', '-q', '--branch', 'agent-work', `file://${remote}`, clone]);
  const verify = repo.hestai(['verify'], { cwd: clone });
  expect(verify.status, verify.stdout + verify.stderr).toBe(0);
  expect(verify.stdout).toContain(header);
  return verify;
}

/**
 * The Stop-like hook with the protocol enforced: the agent ends its turn with a MUST end gate unmet, the
 * hook sends it back once with the gates and their fixes, and lets it stop on the second end.
 */
export async function expectSentBackOnce(runtime: RuntimeName): Promise<void> {
  const { repo } = adopt(runtime, { enforce: true });
  const { endpoint } = await runAgent(runtime, repo, [{ text: 'all done' }, { text: 'still done' }]);
  const turns = endpoint.turns();
  expect(turns).toHaveLength(2);
  const sentBack = JSON.stringify(endpoint.lastInput(turns[1]!));
  expect(sentBack).toContain('hestai: not done yet');
  expect(sentBack).toContain('fix: ');
}

/**
 * Another MCP server for a runtime to start (the attack of an MCP tool no edit or shell matcher names): its
 * one tool `save_note` writes `notes.md` into the repository. Returns how to start it and the file it writes.
 */
export function notesServer(repo: TempRepo): { command: string; args: string[]; notes: string } {
  const sdk = (file: string) =>
    pathToFileURL(path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm/server', file)).href;
  const server = path.join(repo.home, 'notes-server.mjs');
  fs.writeFileSync(
    server,
    [
      "import fs from 'node:fs';",
      `import { McpServer } from '${sdk('mcp.js')}';`,
      `import { StdioServerTransport } from '${sdk('stdio.js')}';`,
      "const server = new McpServer({ name: 'notes', version: '1.0.0' });",
      // not destructive, no open world: Codex's exec runs it without asking, as it runs hestai's anchor
      'const annotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };',
      "server.registerTool('save_note', { description: 'Writes a note', annotations }, async () => {",
      "  fs.writeFileSync(process.argv[2], 'a note\\n');",
      "  return { content: [{ type: 'text', text: 'note written' }] };",
      '});',
      'await server.connect(new StdioServerTransport());',
      '',
    ].join('\n'),
  );
  const notes = path.join(repo.dir, 'notes.md');
  return { command: process.execPath, args: [server, notes], notes };
}

/**
 * The end-to-end case OpenCode and its fork Kilo Code share (the plugin `hestai init --agent <runtime>` wrote,
 * an MCP tool named `hestai_<tool>`): an unanchored write and bash refused with the file untouched and the
 * anchor step named; anchored through the MCP server the runtime started, its write is allowed and its git
 * commit carries the session and passes verify in a fresh clone.
 */
export async function expectPluginRuntimeRun(runtime: 'opencode' | 'kilo'): Promise<void> {
  const { repo } = adopt(runtime);
  const remote = withRemote(repo);
  const wd = repo.dir;
  const { results, endpoint } = await runAgent(runtime, repo, [
    toolCall('write', { filePath: 'src/app.ts', content: 'export const app = 2;\n' }),
    toolCall('bash', { command: 'echo "export const app = 4;" > src/app.ts', description: 'change it' }),
    ...anchorSteps(wd, (tool, input, request) =>
      toolCall(tool === 'anchor' ? anchorToolInRefusal(request) : `hestai_${tool}`, input),
    ),
    toolCall('write', { filePath: path.join(wd, 'test/app.test.ts'), content: 'app is 2\n' }),
    toolCall('bash', {
      command: 'git add test/app.test.ts && git commit -q -m "test(app): app is 2"',
      description: 'commit the test',
    }),
  ]);
  const session = boundSession(repo, runtime);
  // SessionStart's context reached the model (the plugin puts it in the system prompt)
  expect(sessionInContext(endpoint.turns()[0]!)).toBe(session);
  expect(results, JSON.stringify(results)).toHaveLength(8); // one result per call of the script
  const [write, shell, identity, context, proof, status, test, commit] = results;
  expectRefusedUnanchored(write, 'Write', session, 'hestai_anchor');
  expectRefusedUnanchored(shell, 'Bash', session, 'hestai_anchor');
  expect(fs.readFileSync(path.join(wd, 'src/app.ts'), 'utf8')).toBe(APP);
  expectStagesPassed([identity, context, proof]);
  expectUnlockedByConnection(status, session); // one session: the server the runtime started took its hook's
  expect([test, commit].map((r) => r?.content).join('\n')).not.toContain('blocked');
  expect(fs.readFileSync(path.join(wd, 'test/app.test.ts'), 'utf8')).toBe('app is 2\n');
  expectCommitVerified(repo, remote, session, 'test(app): app is 2', runtime);
  expect(repo.git(['status', '--porcelain']).stdout).toBe('');
}
