import type { HookOutcome } from './outcome.js';
import type { PreCommitInput } from './pre-commit.js';
import { workspacePaths } from '../paths.js';
import { resolveCommitSession } from './session.js';

/**
 * The pre-commit hook's protocol step (`protocol.enforce`), after the anchor and freshness checks let
 * the commit through (a bypass skips it too). The rule is the protocol's (`judgeCommitProtocol`); this
 * only words it: each unmet gate with the command and the MCP tool call that satisfies it.
 */
export async function checkProtocolGate(input: PreCommitInput, prior: HookOutcome): Promise<HookOutcome> {
  const { config } = input;
  if (
    prior.exitCode !== 0 ||
    !config.hooks.pre_commit ||
    !config.protocol.enforce ||
    prior.audit.some((a) => a.event === 'bypass')
  )
    return prior;
  const paths = workspacePaths(input.root);
  const resolved = resolveCommitSession(paths, input.env);
  if (!resolved.found)
    return {
      ...prior,
      exitCode: 1,
      lines: [
        ...prior.lines,
        `hestai: commit blocked: ${resolved.reason}.`,
        `hint: ${resolved.remedy}`,
        'verdict: NO_SESSION',
      ],
    };
  const { judgeCommitProtocol } = await import('../protocol/commit-gate.js'); // a bundle of its own in the hook
  const verdict = await judgeCommitProtocol(paths, config, resolved.session, input.env, input.clock());
  if (verdict.ok) return { ...prior, lines: [...prior.lines, `hestai: ${verdict.reason}: ok`] };
  const lines = [...prior.lines, `hestai: commit blocked: ${verdict.reason}.`];
  for (const u of verdict.unmet) {
    lines.push(
      `  - ${u.result.requirement_level} ${u.result.phase}/${u.result.gate} (${u.result.step}): ${u.result.message}`,
      `      run: ${u.cli}`,
      `      MCP: ${u.mcp}`,
    );
  }
  lines.push(`hint: ${verdict.remedy}`, `verdict: ${verdict.code}`);
  return { ...prior, exitCode: 1, lines, session_id: resolved.session.session_id };
}
