import fs from 'node:fs';
import path from 'node:path';
import { pinnedClock, type Clock } from '../clock.js';
import type { WorkspaceConfig } from '../config/schema.js';
import { workspacePaths } from '../paths.js';
import { anchorDigest } from '../records/anchor.js';
import { appendTrailers, type Trailer } from '../tdd/trailers.js';
import { attributionTrailers } from '../records/attribution.js';
import type { SessionRecord } from '../records/session.js';
import { messageOptions } from './message-options.js';
import type { HookOutcome } from './outcome.js';
import { anchorRemedy, resolveCommitSession } from './session.js';
import { judgeSessionAct, verdictCode, type ActVerdict } from './session-verdict.js';

export interface PrepareCommitMsgInput {
  root: string;
  /** git's arguments: the message file, the message's source, and a commit for `commit`. */
  args: readonly string[];
  config: WorkspaceConfig;
  env: NodeJS.ProcessEnv;
  clock: Clock;
}

/**
 * The sources of a message git has already written (`-m`/`-F`, a merge, revert or cherry-pick, an amend, a
 * squash). A commit with git's empty template gets its trailers from commit-msg, after the editor.
 */
const WRITTEN_SOURCES = new Set(['message', 'merge', 'commit', 'squash']);

/**
 * The prepare-commit-msg decision: give a written message the anchored session's HestAI trailers. git runs
 * this hook for `git revert`, `git cherry-pick` and the picks, squashes and fixups of `git rebase`, which run
 * no commit-msg hook; where commit-msg surely runs after it (`git commit` without --no-verify, read from /proc),
 * the hook's entry does not call this, and commit-msg writes the trailers. Only a session
 * that `judgeSessionAct` lets act gets them; otherwise the hook warns with the verdict and its remedy.
 */
export async function prepareCommitMsg(input: PrepareCommitMsgInput): Promise<HookOutcome> {
  const { root, config, env } = input;
  const pass = (lines: string[] = []): HookOutcome => ({ exitCode: 0, lines, audit: [], session_id: null });
  const [given, source = ''] = input.args;
  if (!given || !config.hooks.commit_msg || !config.hooks.trailers || !WRITTEN_SOURCES.has(source)) return pass();
  const file = path.resolve(root, given);
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch {
    return pass();
  }
  const paths = workspacePaths(root);
  const resolved = resolveCommitSession(paths, env);
  if (!resolved.found) {
    return pass(
      config.anchor.required
        ? [
            'hestai: warning: no anchored session, so this commit gets no HestAI trailers and hestai verify will fail it; anchor first (npx hestai anchor), then run the git command again.',
          ]
        : [],
    );
  }
  const { session, anchor } = resolved;
  const verdict = await judgeSessionAct(paths, session, config, env, input.clock(), { anchor });
  if (!verdict.ok) return pass(config.anchor.required ? refusalLines(verdict, session) : []);
  if (!anchor.valid) return pass();
  const trailers: Trailer[] = [
    { key: 'HestAI-Session', value: resolved.session.session_id },
    { key: 'HestAI-Anchor', value: anchorDigest(anchor.anchor) },
  ];
  if (pinnedClock(env) !== null) trailers.push({ key: 'HestAI-Clock', value: input.clock().toISOString() });
  trailers.push(...attributionTrailers(session.agent, config.commit.attribution));
  const content = appendTrailers(raw, trailers, messageOptions(root, raw, env));
  return { exitCode: 0, lines: [], audit: [], session_id: resolved.session.session_id, rewrite: { file, content } };
}

/** Pure: the warning for a session that may not act: what, the remedy, and `verdict: CODE`. */
function refusalLines(verdict: ActVerdict & { ok: false }, session: SessionRecord): string[] {
  const token = session.session_id;
  const remedy =
    verdict.code === 'NO_ANCHOR'
      ? anchorRemedy(verdict.anchor, session)
      : verdict.code === 'TERMINAL'
        ? `a human must review and reset it: hestai anchor reset --token ${token} --reason "..." (audited), then anchor again.`
        : verdict.code === 'STALE'
          ? `regenerate it: hestai refresh --session ${token}  — or, if it is still right, acknowledge it (audited): hestai ack --session ${token} --reason "..."`
          : verdict.protocol.remedy;
  return [
    `hestai: warning: session ${token} may not act now, so this commit gets no HestAI trailers and hestai verify will fail it; fix the session, then run the git command again.`,
    `hint: ${remedy}`,
    `verdict: ${verdictCode(verdict)}`,
  ];
}
