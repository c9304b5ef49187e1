import path from 'node:path';
import type { Command } from 'commander';
import { ExitCode } from '../../errors.js';
import { action } from '../run.js';
import type { InitResult } from '../../setup/init.js';

/** True when init wrote files of a repository that has not adopted yet (then the adoption commit comes first). */
function uncommittedAdoption(result: InitResult): boolean {
  return (
    result.adoption === undefined &&
    result.actions.some((a) => a.action === 'created' && a.path === '.hestai_workspace.yaml')
  );
}

export function registerInit(program: Command): void {
  program
    .command('init')
    .description(
      'create .hestai/, git-ignore runtime state, install the pre-commit, prepare-commit-msg, commit-msg and pre-push hooks (idempotent)',
    )
    .option('--husky', 'add the hook lines to .husky/ (the default when the project uses husky)')
    .option(
      '--no-husky',
      'install plain git hooks instead, where git runs them (core.hooksPath, else the common git dir)',
    )
    .option(
      '--server <bare repository>',
      "a git server's bare repository: write its pre-receive and post-receive hooks (hestai receive) and config (docs/server.md)",
    )
    .option('--mcp', 'write .mcp.json registering `hestai mcp` for Claude Code')
    .option(
      '--agent <runtime>',
      'install the edit-time hooks of an agent runtime: claude-code (.claude/settings.json; implies --mcp), codex (.codex/hooks.json), gemini (.gemini/settings.json), cursor (.cursor/hooks.json), copilot (.github/hooks/hestai.json), qwen (.qwen/settings.json), droid (.factory/hooks.json), opencode (.opencode/plugins/hestai.js), kilo (.kilo/plugins/hestai.js) or cline (.clinerules/hooks/PreToolUse)',
    )
    .option(
      '--commit',
      'commit what init wrote as the adoption commit (hooks skipped: no session can be anchored before it), so clock-in and the anchor start from a commit that has the constitutions',
    )
    .action(
      action(
        async (ctx, options: { husky?: boolean; mcp?: boolean; agent?: string; commit?: boolean; server?: string }) => {
          if (options.server !== undefined) {
            const { initServer } = await import('../../setup/server-init.js');
            const server = initServer(path.resolve(ctx.cwd, options.server));
            const text = [
              `hestai init --server ${server.repository}`,
              ...server.hooks.map((h) => `  ${h.action.padEnd(9)} ${h.path}`),
              ...Object.entries(server.config).map(([k, v]) => `  config    ${k} = ${v}`),
              'next: push to it; a refused push prints each failing commit with its rule and remedy (docs/server.md)',
            ].join('\n');
            return { exitCode: ExitCode.Ok, json: server, text };
          }
          const [{ initWorkspace }, { workspacePaths }, { clockInHint }, { availableRoles }] = await Promise.all([
            import('../../setup/init.js'),
            import('../../paths.js'),
            import('../../records/resolve.js'),
            import('../../records/roles.js'),
          ]);
          const result = initWorkspace({
            working_dir: ctx.cwd,
            ...(options.husky === undefined ? {} : { husky: options.husky }),
            mcp: options.mcp === true,
            ...(options.agent === undefined ? {} : { agent: options.agent }),
            commit: options.commit === true,
          });
          const adoption = result.adoption;
          const changed = result.actions.filter((a) => a.action !== 'unchanged');
          const text = [
            `hestai init in ${result.root} (${result.mode === 'husky' ? 'husky: lines in .husky/pre-commit, .husky/prepare-commit-msg, .husky/commit-msg and .husky/pre-push' : result.lefthook !== null ? `lefthook: hestai's commands in ${result.lefthook}` : 'plain git hooks'})`,
            ...(changed.length === 0
              ? ['  nothing to change: already initialised']
              : changed.map((a) => `  ${a.action.padEnd(9)} ${a.path}`)),
            ...(result.refused === null
              ? [`  hooks call ${result.hooks_dir}/{pre-commit,commit-msg}`, `  ${result.armed.message}`]
              : [
                  `hooks: the ${result.refused.manager} framework runs this repository's pre-commit and commit-msg hooks, so hestai did not edit them. Add these lines to ${result.refused.file} ${result.refused.where}:`,
                  '',
                  ...result.refused.lines,
                  '',
                  `then run: ${result.refused.then}`,
                  'and check with: hestai doctor',
                ]),
            ...(result.default_branch === null
              ? []
              : [
                  `  tdd.default_branch: ${result.default_branch.branch} (${result.default_branch.source}; change it in .hestai_workspace.yaml if that is not the branch you merge into)`,
                ]),
            ...result.hints.map((h) => `hint: ${h}`),
            ...(adoption === undefined
              ? []
              : adoption.committed
                ? [
                    `committed ${adoption.sha.slice(0, 7)} ${adoption.message} (${adoption.files.length} file(s), hooks skipped: hestai verify recognizes the adoption commit)`,
                  ]
                : [`not committed: ${adoption.reason}`]),
            ...(adoption?.committed === true || !uncommittedAdoption(result)
              ? []
              : ['next: make the adoption commit first: hestai init --commit (README "Getting started")']),
            `next: ${clockInHint('hook', availableRoles(workspacePaths(result.root)))} (README "Getting started")`,
          ].join('\n');
          const armed = result.armed.armed && result.refused === null;
          return { exitCode: armed ? ExitCode.Ok : ExitCode.Blocked, json: result, text };
        },
      ),
    );
}
