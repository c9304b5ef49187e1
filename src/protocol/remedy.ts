import type { Gate } from './types.js';

export type Surface = 'cli' | 'mcp';

const call = (tool: string, args: Record<string, unknown>) => `${tool}(${JSON.stringify(args)})`;
const q = (s: string) => (/^[A-Za-z0-9_./:@-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** Who the remedy is for: the session, where it works, and how this project calls hestai. */
export interface RemedyContext {
  session_id: string;
  role?: string | undefined;
  trusted?: boolean;
  /** The worktree root: every MCP call names it (`working_dir` is required by every tool). */
  working_dir?: string | undefined;
  /**
   * How a command line calls hestai here (`npx hestai` in a local install, src/agent/project-root.ts
   * `cliCommandFor`), passed in by the adapter that knows; `hestai` when none did.
   */
  cli?: string | undefined;
}

/** Pure: the `working_dir` and `session_id` every protocol tool call carries. */
const where = (ctx: RemedyContext) => ({
  ...(ctx.working_dir === undefined ? {} : { working_dir: ctx.working_dir }),
  session_id: ctx.session_id,
});

/**
 * Pure: the action that satisfies an unmet gate, as a tool call (MCP: the tool's own input schema, with
 * `working_dir` and `session_id`) or a command (CLI: as this project calls hestai, with `--session`). The
 * evidence placeholders in angle brackets are the only parts the caller fills in.
 */
export function suggestAction(phase: string, gate: Gate, surface: Surface, ctx: RemedyContext): string {
  const cli = ctx.cli ?? 'hestai';
  const session = `--session ${q(ctx.session_id)}`;
  const validate =
    surface === 'mcp'
      ? call('validate_gate', { ...where(ctx), phase, step: gate.id })
      : `${cli} session gate ${q(phase)} --step ${q(gate.id)} ${session}`;
  const check = gate.check;
  switch (check.type) {
    case 'evidence': {
      const type = check.accepts[0]!;
      const value =
        type === 'content_hash'
          ? `<sha256 of ${check.path}>`
          : type === 'file_path'
            ? `<path${check.path ? ` matching ${check.path}` : ''}>`
            : type === 'commit_sha'
              ? '<commit sha>'
              : '<what you observed>';
      if (surface === 'mcp')
        return call('record_evidence', { ...where(ctx), phase, step: gate.id, evidence_type: type, evidence: value });
      const hint = type === 'content_hash' ? `  (sha256sum ${q(check.path ?? '')})` : '';
      return `${cli} session evidence ${q(phase)} --step ${q(gate.id)} --type ${type} --value ${q(value)} ${session}${hint}`;
    }
    case 'anchor_valid':
      return surface === 'mcp'
        ? `${call('anchor', { stage: 'identity', ...where(ctx), role: ctx.role ?? '<role>' })} then stages context and proof (same working_dir and session_id), then ${validate}`
        : `${cli} anchor --stage identity --role ${q(ctx.role ?? '<role>')} --token ${q(ctx.session_id)} (then --stage context and --stage proof), then ${validate}`;
    case 'context_fresh':
      return surface === 'mcp'
        ? `regenerate the context (clock_in again, or a human runs ${cli} refresh ${session}), then ${validate}`
        : `${cli} refresh ${session} (or acknowledge: ${cli} ack ${session} --reason "..."), then ${validate}`;
    case 'command':
      if (ctx.trusted === false) return `a human reviews the repository and runs \`${cli} trust\`, then ${validate}`;
      return `make \`${check.run}\` exit 0, then ${validate}`;
    case 'file_exists':
      return `create ${check.path}, then ${validate}`;
    case 'file_modified_since_start':
      return `update ${check.path}${check.names_session === true ? ' with a file that names your session id' : ''}, then ${validate}`;
    case 'git_commit_since_start':
      return `commit your work (test first: git commit -m "test(scope): ..." before "feat(scope): ..."), then ${validate}`;
    case 'git_clean':
      return `commit or stash the uncommitted changes (git status), then ${validate}`;
    case 'branch_not':
      return `switch to a work branch: git switch -c <branch>, then ${validate}`;
    case 'git_state':
      return surface === 'mcp'
        ? call('record_evidence', {
            ...where(ctx),
            phase,
            step: gate.id,
            evidence_type: 'tool_output',
            evidence: '<output of git status -sb && git log -1 --oneline>',
          })
        : `${cli} session evidence ${q(phase)} --step ${q(gate.id)} --type tool_output --value "$(git status -sb && git log -1 --oneline)" ${session}`;
    case 'tests_first':
      return `commit the failing test first (test(scope): ...), then the implementation; see ${cli} verify; then ${validate}`;
  }
}

/** Pure: what evidence or state a gate needs, in one line (the seed's `evidence_needed`). */
export function evidenceNeeded(gate: Gate): string {
  const check = gate.check;
  switch (check.type) {
    case 'evidence':
      return `${check.accepts.join(' or ')} evidence${check.path ? ` (${check.path})` : ''} that says what was observed`;
    case 'file_exists':
      return `the file ${check.path}`;
    case 'file_modified_since_start':
      return `a change to ${check.path} since the run started${check.names_session === true ? ', in a file naming the session id' : ''}`;
    case 'command':
      return `\`${check.run}\` exiting 0 (trusted workspace)`;
    case 'git_commit_since_start':
      return 'a commit since the starting commit';
    case 'git_clean':
      return 'a clean working tree';
    case 'branch_not':
      return `a branch other than ${check.branches.join(', ')}`;
    case 'anchor_valid':
      return 'a valid anchor for the session';
    case 'context_fresh':
      return 'fresh (or acknowledged) session context';
    case 'tests_first':
      return 'a test commit before each feat commit of the run';
    case 'git_state':
      return 'tool_output of git naming the current branch and HEAD (git status -sb && git log -1 --oneline)';
  }
}
