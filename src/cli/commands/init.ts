import type { Command } from 'commander';
import { ExitCode } from '../../errors.js';
import { workspacePaths } from '../../paths.js';
import { clockInHint } from '../../records/resolve.js';
import { availableRoles } from '../../records/roles.js';
import { action } from '../run.js';

export function registerInit(program: Command): void {
  program
    .command('init')
    .description('create .hestai/, git-ignore runtime state, install the pre-commit and commit-msg hooks (idempotent)')
    .option('--husky', 'add the hook lines to .husky/ (the default when the project uses husky)')
    .option('--no-husky', 'install plain git hooks in the common git dir instead')
    .option('--mcp', 'write .mcp.json registering `hestai mcp` for Claude Code')
    .option(
      '--agent <runtime>',
      'install the edit-time hooks of an agent runtime: claude-code (.claude/settings.json; implies --mcp), codex (.codex/hooks.json), gemini (.gemini/settings.json) or cursor (.cursor/hooks.json)',
    )
    .action(
      action(async (ctx, options: { husky?: boolean; mcp?: boolean; agent?: string }) => {
        const { initWorkspace } = await import('../../setup/init.js');
        const result = initWorkspace({
          working_dir: ctx.cwd,
          ...(options.husky === undefined ? {} : { husky: options.husky }),
          mcp: options.mcp === true,
          ...(options.agent === undefined ? {} : { agent: options.agent }),
        });
        const changed = result.actions.filter((a) => a.action !== 'unchanged');
        const text = [
          `hestai init in ${result.root} (${result.mode === 'husky' ? 'husky: lines in .husky/pre-commit and .husky/commit-msg' : 'plain git hooks'})`,
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
          ...result.hints.map((h) => `hint: ${h}`),
          `next: ${clockInHint('hook', availableRoles(workspacePaths(result.root)))} (README "Getting started")`,
        ].join('\n');
        const armed = result.armed.armed && result.refused === null;
        return { exitCode: armed ? ExitCode.Ok : ExitCode.Blocked, json: result, text };
      }),
    );
}
