// The Claude Code hook (`hooks/claude-code`, what `hestai init --agent claude-code` writes into
// .claude/settings.json) as Claude Code runs it before a tool call: the PreToolUse JSON on stdin, in a
// repository whose agent session was bound by the SessionStart hook and anchored through the CLI, and a
// second agent's session bound but not anchored. The budgets: an allowed Edit, and a shell call refused
// before the anchor (issue 37), each cost at most 1.5 × `node -e 0`.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, run } from '../lib/env.mjs';
import { anchorMissing, anchorStage, makeRepo, missing } from '../lib/hestai.mjs';
import { measureSpawn } from '../lib/measure.mjs';
import { nodeNoop } from './members.mjs';

const HOOK = path.join(ROOT, 'hooks/claude-code');
const RUNTIME_SESSION = 'bench-2f8e1c3a-claude-code';
const UNANCHORED_SESSION = 'bench-7d41b09e-unanchored';

export default function agentGroup() {
  let repo;
  let env;
  const payload = (toolName, toolInput, session = RUNTIME_SESSION) =>
    JSON.stringify({
      session_id: session,
      transcript_path: '/dev/null',
      cwd: repo.repo,
      hook_event_name: 'PreToolUse',
      tool_name: toolName,
      tool_input: toolInput,
    });
  const skip = () =>
    (fs.existsSync(HOOK) && fs.existsSync(path.join(ROOT, 'dist/hooks/claude-code.cjs'))
      ? null
      : 'not built yet: hooks/claude-code') ??
    missing(['init']) ??
    anchorMissing();
  const shared = {
    skip,
    async prepare() {
      if (repo) return;
      repo = makeRepo('hestai');
      env = { ...repo.env, CLAUDE_PROJECT_DIR: repo.repo, CLAUDE_ENV_FILE: path.join(repo.base, 'claude-env') };
      // SessionStart binds each runtime session to a new hestai session; the CLI ceremony anchors the first.
      for (const [session, envFile] of [
        [UNANCHORED_SESSION, 'claude-env-unanchored'],
        [RUNTIME_SESSION, 'claude-env'],
      ])
        run(process.execPath, [HOOK], {
          cwd: repo.repo,
          env: { ...env, CLAUDE_ENV_FILE: path.join(repo.base, envFile) },
          input: JSON.stringify({ session_id: session, hook_event_name: 'SessionStart', source: 'startup' }),
        });
      const token = /HESTAI_SESSION=(\S+)/.exec(fs.readFileSync(env.CLAUDE_ENV_FILE, 'utf8'))[1];
      for (const stage of ['identity', 'context', 'proof']) anchorStage(repo.repo, repo.env, stage, token, repo.role);
    },
    cleanup: () => repo && fs.rmSync(repo.base, { recursive: true, force: true }),
  };
  return {
    id: 'agent',
    title: 'agent-runtime hooks',
    members: [
      nodeNoop(),
      {
        id: 'claude-edit-allowed',
        label: 'hooks/claude-code PreToolUse Edit (anchored: allowed)',
        kind: 'case',
        ...shared,
        measure: () =>
          measureSpawn(process.execPath, [HOOK], {
            cwd: repo.repo,
            env,
            input: payload('Edit', { file_path: path.join(repo.repo, 'src/app.ts'), old_string: 'a', new_string: 'b' }),
          }),
      },
      {
        id: 'claude-bash-refused',
        label: 'hooks/claude-code PreToolUse Bash `git status` (unanchored: refused)',
        kind: 'case',
        ...shared,
        measure: () =>
          measureSpawn(process.execPath, [HOOK], {
            cwd: repo.repo,
            env,
            input: payload('Bash', { command: 'git status --short' }, UNANCHORED_SESSION),
            expect: 2,
          }),
      },
    ],
    ratios: [
      { case: 'claude-edit-allowed', baseline: 'node-e-0', metric: 'wall', budget: { op: '<=', limit: 1.5 } },
      { case: 'claude-bash-refused', baseline: 'node-e-0', metric: 'wall', budget: { op: '<=', limit: 1.5 } },
    ],
  };
}
