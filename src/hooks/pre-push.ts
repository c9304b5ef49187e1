/**
 * The pre-push hook: publishes the anchors branch (`hestai/anchors`: proof records and session events)
 * to the remote being pushed to, so every anchor travels with the branch and `hestai verify` can check it
 * in CI. One extra `git push` when there is something new; nothing when the remote already has it.
 */
import {
  ANCHORS_REF,
  anchorPublishState,
  fetchAnchorStore,
  isAncestor,
  mergeAnchorStore,
  pushAnchorStore,
} from '../git/anchors.js';
import { recordPush, type PushedRef } from '../evidence/push-records.js';
import type { WorkspaceConfig } from '../config/schema.js';
import type { Clock } from '../clock.js';
import type { HookOutcome } from './outcome.js';

export interface PrePushInput {
  root: string;
  /** git's arguments: the remote's name (or its URL when pushing to a URL) and its URL. */
  args: readonly string[];
  /** git's stdin: `<local ref> <local sha> <remote ref> <remote sha>` per ref being pushed. */
  stdin: string;
  config: WorkspaceConfig;
  clock: Clock;
}

const pass = (lines: string[] = []): HookOutcome => ({ exitCode: 0, lines, audit: [], session_id: null });

export function prePush(input: PrePushInput): HookOutcome {
  const remote = input.args[0];
  if (!input.config.anchors.publish || !remote) return pass();
  // The user pushes the anchors branch themselves (git push --all, or by name): nothing to add.
  if (input.stdin.split('\n').some((line) => line.split(' ')[2] === ANCHORS_REF)) return pass();
  // Each pushed work branch leaves a change record, so its squash on the default branch can be judged by its
  // commits; each pushed ref, which of its new commits each session made (coverage, issue 39).
  const db = input.config.tdd.default_branch;
  recordPush(input.root, pushedRefs(input.stdin, db), {
    bases: [`refs/remotes/${remote}/${db}`, `refs/heads/${db}`],
    remoteRefs: /^[A-Za-z0-9._-]+$/.test(remote) ? [`--remotes=${remote}`] : [],
    at: input.clock(),
  });
  const state = anchorPublishState(input.root, remote);
  if (state.local === null) return pass();
  if (
    state.tracking === state.local ||
    (state.tracking !== null && isAncestor(input.root, state.local, state.tracking))
  )
    return pass();
  if (state.tracking !== null && !isAncestor(input.root, state.tracking, state.local))
    mergeAnchorStore(input.root, state.tracking, input.clock());
  let pushed = pushAnchorStore(input.root, remote);
  if (!pushed.ok) {
    // Someone published records meanwhile: join theirs and try once more.
    const theirs = fetchAnchorStore(input.root, remote, state.trackingRef);
    if (theirs !== null && !isAncestor(input.root, theirs, ANCHORS_REF)) {
      mergeAnchorStore(input.root, theirs, input.clock());
      pushed = pushAnchorStore(input.root, remote);
    }
  }
  if (!pushed.ok) {
    return {
      exitCode: 1,
      lines: [
        `hestai: push blocked: the anchor proof records (${ANCHORS_REF}) could not be published to ${remote}: ${pushed.stderr || 'git push failed'}`,
        `hint: without them hestai verify fails these commits in CI. Check access to ${remote} and push again; "git push ${remote} hestai/anchors" shows the error. ` +
          'To push without them: git push --no-verify (CI cannot check the anchors), or set anchors.publish: false in .hestai_workspace.yaml.',
      ],
      audit: [],
      session_id: null,
    };
  }
  return pass([`hestai: published the anchor proof records (hestai/anchors) to ${remote}`]);
}

/** Pure: the branches a push updates, the default branch among them (not a work branch): not deletions, not hestai/anchors. */
export function pushedRefs(stdin: string, defaultBranch: string): PushedRef[] {
  const out: PushedRef[] = [];
  for (const line of stdin.split('\n')) {
    const [local = '', tip = '', remoteRef = '', remoteTip = ''] = line.trim().split(' ');
    if (!local.startsWith('refs/heads/') || !remoteRef.startsWith('refs/heads/')) continue;
    if (/^0+$/.test(tip) || remoteRef === ANCHORS_REF) continue;
    out.push({ branch: remoteRef, tip, remoteTip, work: remoteRef !== `refs/heads/${defaultBranch}` });
  }
  return out;
}
