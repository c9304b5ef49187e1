/**
 * One pushed ref judged as CI judges it (issue 43): `hestai verify`'s own stream (src/verify/verify.ts) over
 * the commits the push adds, never by the pushed commits' policy. The policy and allowed signers are those of
 * the default branch's tip before the push (the default branch itself: its old value), as CI takes them from
 * the base: a branch never judges itself, so what it weakens in one push does not judge its next. The anchors
 * the commits cite may be on the server already or arrive in the same push (`anchorsTip`, in quarantine).
 */
import { verifyEvidenceReaders } from '../anchor/reverify.js';
import { runGit } from '../git/exec.js';
import { ALLOWED_SIGNERS_FILE } from '../evidence/signatures.js';
import { PROTOCOL_FILE } from '../verify/protocol-policy.js';
import { verifyStream } from '../verify/index.js';
import type { Refusal } from './anchors-push.js';
import { isZero, type DefaultBase, type RefUpdate } from './updates.js';

/** Failing commits printed per ref; the rest are counted (the remedy reproduces them all). */
export const SHOWN = 20;

export interface RefVerdict {
  refusals: Refusal[];
  /** What the hook says besides (the base that judged, the policy keys the branch changes). */
  notes: string[];
  commits: number;
}

const short = (oid: string) => oid.slice(0, 7);

export async function judgeRef(
  root: string,
  u: RefUpdate,
  defaultBase: DefaultBase,
  anchorsTip: string | null,
  now: Date,
): Promise<RefVerdict> {
  const own = u.ref === defaultBase.ref && !isZero(u.old);
  if (defaultBase.tip === 'dangling' && !own) {
    const head = defaultBase.ref || 'HEAD';
    return {
      refusals: [
        {
          ref: u.ref,
          what: u.ref,
          rule: 'default-branch',
          message: `the server's HEAD (${head}) names no branch here, so ${u.ref} has no policy to be judged by`,
          remedy: 'on the server: git symbolic-ref HEAD refs/heads/<default branch> (hestai init --server does it)',
        },
      ],
      notes: [],
      commits: 0,
    };
  }
  const policy = own ? u.old : defaultBase.tip;
  const base = isZero(u.old) ? policy : u.old;
  const readers = verifyEvidenceReaders(
    anchorsTip === null ? {} : { tips: [{ ref: 'refs/heads/hestai/anchors (this push)', oid: anchorsTip }] },
  );
  const remedy = `npx hestai verify --from ${base} --policy ${policy} --to ${u.new}`;
  const refusals: Refusal[] = [];
  let failing = 0;
  const summary = await verifyStream(
    {
      working_dir: root,
      from: base,
      policy,
      to: u.new,
      env: {},
      files: 'judged',
      receiving: { at: now.toISOString(), anchors: anchorsTip },
    },
    readers,
    {
      start: () => undefined,
      commit: (c) => {
        const failed = c.verdicts.filter((v) => v.status === 'fail');
        if (failed.length === 0) return;
        failing++;
        if (failing > SHOWN) return;
        for (const v of failed)
          refusals.push({ ref: u.ref, what: `${short(c.sha)} ${c.header}`, rule: v.rule, message: v.message, remedy });
      },
    },
  ).finally(() => readers.close());
  const notes = [
    ...summary.policy_changes.map((p) => `${u.ref}: ${p.message}`),
    ...changedPolicyFiles(root, base, u.new).map(
      (file) =>
        `${u.ref}: the push changes ${file}: it was judged by ${short(policy)}'s; the change applies once merged into ${defaultBase.ref.replace(/^refs\/heads\//, '')}`,
    ),
  ];
  if (failing > SHOWN)
    refusals.push({
      ref: u.ref,
      what: u.ref,
      rule: 'more',
      message: `${failing - SHOWN} more failing commit(s) not shown`,
      remedy,
    });
  if (!summary.ok && failing === 0)
    refusals.push({ ref: u.ref, what: u.ref, rule: 'verify', message: `${summary.errors} error(s)`, remedy });
  return {
    refusals,
    notes: [
      `${u.ref}: judged ${summary.count} commit(s) by the policy of ${short(policy)} (${own ? "the ref's old value" : `the default branch's tip: a branch never judges itself`})`,
      ...notes,
    ],
    commits: summary.count,
  };
}

/** The policy files besides the config (reported key by key) that the pushed commits change. */
function changedPolicyFiles(root: string, from: string, to: string): string[] {
  return runGit(['diff', '--no-renames', '--name-only', from, to, '--', ALLOWED_SIGNERS_FILE, PROTOCOL_FILE], {
    cwd: root,
  })
    .stdout.split('\n')
    .filter((f) => f !== '');
}
