/**
 * Policy comes from the base (pure): the keys that judge a branch are those of the branch it merges
 * into. A branch that changes them is reported, key by key; the change applies once merged.
 */
import type { WorkspaceConfig } from '../config/schema.js';

/** The config sections `hestai verify` takes from the base of the range. */
export const POLICY_SECTIONS = ['tdd', 'commit', 'verify', 'anchors', 'anchor', 'freshness', 'protocol'] as const;

export interface PolicyChange {
  key: string;
  base: unknown;
  branch: unknown;
  message: string;
}

const show = (v: unknown) => (v === undefined ? '(unset)' : JSON.stringify(v));

/** Every policy key whose value differs between the base's config and the branch's. */
export function policyChanges(base: WorkspaceConfig, branch: WorkspaceConfig): PolicyChange[] {
  const changes: PolicyChange[] = [];
  for (const section of POLICY_SECTIONS) {
    const a = base[section] as Record<string, unknown>;
    const b = branch[section] as Record<string, unknown>;
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      if (JSON.stringify(a[key]) === JSON.stringify(b[key])) continue;
      const name = `${section}.${key}`;
      changes.push({
        key: name,
        base: a[key],
        branch: b[key],
        message: `the branch changes ${name} from ${show(a[key])} to ${show(b[key])}: verify judged it with the base's value; the change applies once merged`,
      });
    }
  }
  return changes;
}
