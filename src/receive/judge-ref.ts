/**
 * One pushed ref judged as CI judges it (issue 43): `hestai verify`'s own stream (src/verify/verify.ts) over
 * the commits the push adds, with the policy of the ref's old value, or of the default branch for a new ref,
 * never of the pushed commits. The anchors the commits cite may be on the server already or arrive in the same
 * push (`anchorsTip`, the pushed hestai/anchors still in quarantine).
 */
import { verifyEvidenceReaders } from '../anchor/reverify.js';
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
  const base = isZero(u.old) ? defaultBase.tip : u.old;
  if (base === 'empty')
    return {
      refusals: [],
      notes: [
        `${u.ref}: the repository has no branch or tag yet, so no policy to judge by: accepted as the first push`,
      ],
      commits: 0,
    };
  if (base === 'dangling') {
    const head = defaultBase.ref || 'HEAD';
    return {
      refusals: [
        {
          ref: u.ref,
          what: u.ref,
          rule: 'default-branch',
          message: `the server's HEAD (${head}) names no branch here, so a new ref has no policy to be judged by`,
          remedy: 'on the server: git symbolic-ref HEAD refs/heads/<default branch> (hestai init --server does it)',
        },
      ],
      notes: [],
      commits: 0,
    };
  }
  const readers = verifyEvidenceReaders(
    anchorsTip === null ? {} : { tips: [{ ref: 'refs/heads/hestai/anchors (this push)', oid: anchorsTip }] },
  );
  const remedy = `npx hestai verify --from ${base} --policy ${base} --to ${u.new}`;
  const refusals: Refusal[] = [];
  let failing = 0;
  const summary = await verifyStream(
    {
      working_dir: root,
      from: base,
      policy: base,
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
  const notes = summary.policy_changes.map((p) => `${u.ref}: ${p.message}`);
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
      `${u.ref}: judged ${summary.count} commit(s) by the policy of ${short(base)} (${isZero(u.old) ? 'the default branch: a new ref' : "the ref's old value"})`,
      ...notes,
    ],
    commits: summary.count,
  };
}
