import type { Clock } from '../clock.js';
import { loadConfig } from '../config/load.js';
import { usageError } from '../errors.js';
import { resolveWorkspace } from '../workspace.js';
import { revokeTrust, trustWorkspace, userHestaiDir } from './index.js';
import { workspaceTrust, type WorkspaceTrust } from './report.js';

export interface TrustResponse {
  action: 'trusted' | 'revoked' | 'nothing-to-revoke';
  trust: WorkspaceTrust;
  /** What the trusted content lets the repository do, for the user to read. */
  commands: { name: string; command: string }[];
  endpoints: { key: string; value: string }[];
}

/**
 * `hestai trust [--revoke]`: records (or forgets) the user's trust in the current content of
 * `.hestai_workspace.yaml` and `.hestai/protocol.yaml`, outside the repository (see src/trust/index.ts).
 * The workspace file must be valid: what is trusted is shown, so it must be readable.
 */
export async function trustCommand(
  input: { working_dir: string; revoke?: boolean },
  deps: { env: NodeJS.ProcessEnv; clock: Clock },
): Promise<TrustResponse> {
  const workspace = resolveWorkspace(input.working_dir, { requireAbsolute: true });
  const { config } = await loadConfig(workspace.root);
  if (userHestaiDir(deps.env) === null) {
    throw usageError('HOME is not set: there is nowhere outside the repository to record trust', {
      code: 'ENV',
      remedy: 'Set HOME to your home directory and run `hestai trust` again.',
    });
  }
  let action: TrustResponse['action'];
  if (input.revoke) action = revokeTrust(workspace.paths, deps.env) ? 'revoked' : 'nothing-to-revoke';
  else {
    trustWorkspace(workspace.paths, deps.env, deps.clock());
    action = 'trusted';
  }
  const endpoints: TrustResponse['endpoints'] = [];
  if (config.ai.base_url !== undefined) endpoints.push({ key: 'ai.base_url', value: config.ai.base_url });
  if (config.ai.api_key_env !== undefined) endpoints.push({ key: 'ai.api_key_env', value: config.ai.api_key_env });
  return {
    action,
    trust: workspaceTrust(workspace, config, deps.env),
    commands: config.quality_gates.map((g) => ({ name: g.name, command: g.command })),
    endpoints,
  };
}
