import type { Gate } from './types.js';

export type Surface = 'cli' | 'mcp';

const call = (tool: string, args: Record<string, unknown>) => `${tool}(${JSON.stringify(args)})`;
const q = (s: string) => (/^[A-Za-z0-9_./:@-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * Pure: the action that satisfies an unmet gate, as a tool call (MCP) or a command (CLI). The evidence
 * placeholders in angle brackets are the only parts the caller fills in.
 */
export function suggestAction(
  phase: string,
  gate: Gate,
  surface: Surface,
  ctx: { session_id: string; role?: string | undefined; trusted?: boolean },
): string {
  const validate =
    surface === 'mcp'
      ? call('validate_gate', { phase, step: gate.id })
      : `hestai session gate ${q(phase)} --step ${q(gate.id)}`;
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
        return call('record_evidence', { phase, step: gate.id, evidence_type: type, evidence: value });
      const hint = type === 'content_hash' ? `  (sha256sum ${q(check.path ?? '')})` : '';
      return `hestai session evidence ${q(phase)} --step ${q(gate.id)} --type ${type} --value ${q(value)}${hint}`;
    }
    case 'anchor_valid':
      return surface === 'mcp'
        ? `${call('anchor', { stage: 'identity', role: ctx.role ?? '<role>', token: ctx.session_id })} then stages context and proof, then ${validate}`
        : `hestai anchor --stage identity --role ${ctx.role ?? '<role>'} --token ${ctx.session_id} (then --stage context and --stage proof), then ${validate}`;
    case 'context_fresh':
      return surface === 'mcp'
        ? `regenerate the context (clock_in again, or a human runs hestai refresh --session ${ctx.session_id}), then ${validate}`
        : `hestai refresh --session ${ctx.session_id} (or acknowledge: hestai ack --session ${ctx.session_id} --reason "..."), then ${validate}`;
    case 'command':
      if (ctx.trusted === false) return `a human reviews the repository and runs \`hestai trust\`, then ${validate}`;
      return `make \`${check.run}\` exit 0, then ${validate}`;
    case 'file_exists':
      return `create ${check.path}, then ${validate}`;
    case 'file_modified_since_start':
      return `update ${check.path}, then ${validate}`;
    case 'git_commit_since_start':
      return `commit your work (test first: git commit -m "test(scope): ..." before "feat(scope): ..."), then ${validate}`;
    case 'git_clean':
      return `commit or stash the uncommitted changes (git status), then ${validate}`;
    case 'branch_not':
      return `switch to a work branch: git switch -c <branch>, then ${validate}`;
    case 'tests_first':
      return `commit the failing test first (test(scope): ...), then the implementation; see hestai verify; then ${validate}`;
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
      return `a change to ${check.path} since the run started`;
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
  }
}
