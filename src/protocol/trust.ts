/**
 * Whether this workspace may run the protocol's `command` checks. Content of a cloned repository may
 * configure rules but may not run commands until the user trusts that exact content (DESIGN.md,
 * "A repository is untrusted until trusted"). The trust record is built by the hardening issue
 * (`hestai trust`); until it exists every workspace is untrusted and command gates are refused.
 */
export interface TrustVerdict {
  trusted: boolean;
  reason: string;
  remedy: string;
}

export function commandTrust(_root: string, _env: NodeJS.ProcessEnv): TrustVerdict {
  return {
    trusted: false,
    reason: 'workspace not trusted: command gates run only in a trusted workspace',
    remedy: 'A human reviews the repository (its .hestai/protocol.yaml commands) and runs `hestai trust`; until then command gates fail.',
  };
}
