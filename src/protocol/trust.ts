import type { WorkspacePaths } from '../paths.js';
import type { SessionRecord } from '../records/session.js';
import { gateEnvironment, isTrusted, TRUST_REMEDY } from '../trust/index.js';
import type { RemedyContext } from './remedy.js';

/**
 * Whether this workspace may run the protocol's `command` checks. Content of a cloned repository may
 * configure rules but may not run commands until the user trusts that exact content (docs/design.md,
 * "A repository is untrusted until trusted"): `hestai trust` records the hash of .hestai_workspace.yaml
 * and .hestai/protocol.yaml outside the repository (src/trust). A trusted command runs with the minimal
 * gate environment (never tokens, keys or HESTAI_*).
 */
export interface TrustVerdict {
  trusted: boolean;
  reason: string;
  remedy: string;
  /** The environment a trusted command runs with. */
  env: NodeJS.ProcessEnv;
}

export function commandTrust(root: string, env: NodeJS.ProcessEnv): TrustVerdict {
  const trusted = isTrusted({ root }, env);
  return {
    trusted,
    reason: trusted ? 'workspace trusted' : 'workspace not trusted: command gates run only in a trusted workspace',
    remedy: TRUST_REMEDY,
    env: gateEnvironment(env),
  };
}

/** Who a remedy is for (remedy.ts): `session` in the worktree of `paths`, and whether its command gates may run there. */
export function remedyContextFor(
  paths: WorkspacePaths,
  session: SessionRecord,
  env: NodeJS.ProcessEnv,
  cli?: string,
): RemedyContext {
  return {
    session_id: session.session_id,
    role: session.role,
    trusted: commandTrust(paths.root, env).trusted,
    working_dir: paths.root,
    cli,
  };
}
