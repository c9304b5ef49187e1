import type { WorkspaceConfig } from '../config/schema.js';
import { TRUST_REMEDY, type TrustState } from './index.js';

/**
 * Pure: which repository-supplied settings would run commands or send data out, and the config with them
 * removed. A setting listed here is honoured only when the trust state is `trusted`.
 */
export function repositoryPowers(
  config: Pick<WorkspaceConfig, 'quality_gates' | 'ai'>,
  dotenvEndpoint: boolean,
): string[] {
  const powers: string[] = [];
  if (config.quality_gates.length > 0) powers.push('quality_gates');
  if (config.ai.base_url !== undefined) powers.push('ai.base_url');
  if (config.ai.api_key_env !== undefined) powers.push('ai.api_key_env');
  if (dotenvEndpoint) powers.push('.env HESTAI_AI_*');
  return powers;
}

/** The config with every repository power removed (what an untrusted workspace may still configure). */
export function withoutRepositoryPowers<T extends Pick<WorkspaceConfig, 'quality_gates' | 'ai'>>(config: T): T {
  const { base_url: _url, api_key_env: _key, ...ai } = config.ai;
  return { ...config, quality_gates: [], ai };
}

/** One warning naming what is inert and how to trust it; null when nothing is. */
export function untrustedWarning(trust: TrustState, inert: readonly string[]): string | null {
  if (trust.status === 'trusted' || inert.length === 0) return null;
  const what =
    trust.status === 'changed'
      ? `${trust.files.join(' / ') || '.hestai_workspace.yaml'} changed since you trusted it`
      : `${trust.files.join(' / ') || 'this workspace'} is not trusted`;
  return `${what}: ${inert.join(', ')} ignored (repository settings cannot run commands or send data out until trusted). hint: ${TRUST_REMEDY}`;
}
