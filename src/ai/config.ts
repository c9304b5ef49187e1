import fs from 'node:fs';
import path from 'node:path';
import { parseDotenv } from './dotenv.js';

/** A configured OpenAI-compatible chat-completions provider. */
export interface AiSettings {
  base_url: string;
  model: string | null;
  /** Sent as a bearer token; only ever taken from the same source as `base_url`. */
  api_key: string | null;
  timeout_ms: number;
  /** Where `base_url` came from. */
  source: 'environment' | '.env' | '.hestai_workspace.yaml' | '~/.hestai/config/ai.yaml';
}

/** The `ai` keys of the workspace file. */
export interface WorkspaceAi {
  base_url?: string | undefined;
  model_override?: string | undefined;
  api_key_env?: string | undefined;
  timeout_ms?: number | undefined;
}

interface Layer {
  source: AiSettings['source'];
  base_url?: string | undefined;
  model?: string | undefined;
  api_key?: string | undefined;
  timeout_ms?: number | undefined;
}

export const DEFAULT_AI_TIMEOUT_MS = 10_000;

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function num(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= 120_000 ? n : undefined;
}

function envLayer(source: Layer['source'], vars: Record<string, string | undefined>): Layer {
  return {
    source,
    base_url: str(vars['HESTAI_AI_BASE_URL']),
    model: str(vars['HESTAI_AI_MODEL']),
    api_key: str(vars['HESTAI_AI_API_KEY']),
    timeout_ms: num(vars['HESTAI_AI_TIMEOUT_MS']),
  };
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

async function homeLayer(home: string | undefined, env: NodeJS.ProcessEnv, warnings: string[]): Promise<Layer | null> {
  if (!home) return null;
  const file = path.join(home, '.hestai', 'config', 'ai.yaml');
  const text = readIfExists(file);
  if (text === null) return null;
  // The bundle (dist/) carries yaml as CommonJS, whose dynamic import has only a default export: take
  // parse from whichever shape this build has (the "parse is not a function" of issue 30).
  const yaml = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') };
  const parse = typeof yaml.parse === 'function' ? yaml.parse : yaml.default!.parse;
  let data: unknown;
  try {
    data = parse(text, { maxAliasCount: 100 });
  } catch (error) {
    warnings.push(`${file} is not valid YAML (${(error as Error).message.split('\n')[0]}); ignoring it`);
    return null;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    warnings.push(`${file} is not a mapping of keys; ignoring it`);
    return null;
  }
  const d = data as Record<string, unknown>;
  const keyEnv = str(d['api_key_env']);
  return {
    source: '~/.hestai/config/ai.yaml',
    base_url: str(d['base_url']),
    model: str(d['model']),
    api_key: str(d['api_key']) ?? (keyEnv ? str(env[keyEnv]) : undefined),
    timeout_ms: num(d['timeout_ms']),
  };
}

/**
 * Resolves the AI provider. Precedence, highest first: `--model` (model only), the process environment
 * (`HESTAI_AI_BASE_URL`, `HESTAI_AI_MODEL`, `HESTAI_AI_API_KEY`, `HESTAI_AI_TIMEOUT_MS`), the worktree's
 * `.env` (same names), `.hestai_workspace.yaml` (`ai.base_url`, `ai.model_override`, `ai.api_key_env`,
 * `ai.timeout_ms`), then `~/.hestai/config/ai.yaml` (`base_url`, `model`, `api_key` or `api_key_env`,
 * `timeout_ms`). The API key is taken only from the source that named the endpoint, so a repository
 * cannot redirect a key configured elsewhere to a server of its choosing. Returns null when no endpoint
 * is configured; yaml is loaded only when `ai.yaml` exists.
 */
export async function resolveAiSettings(input: {
  root: string;
  env: NodeJS.ProcessEnv;
  workspaceAi?: WorkspaceAi | undefined;
  modelFlag?: string | undefined;
  warnings?: string[];
  /** Skip the worktree's `.env` (it is committed repository content the user has not trusted). */
  ignoreDotenv?: boolean;
}): Promise<AiSettings | null> {
  const warnings = input.warnings ?? [];
  const dotenvText = input.ignoreDotenv ? null : readIfExists(path.join(input.root, '.env'));
  const ws = input.workspaceAi ?? {};
  const layers: Layer[] = [
    envLayer('environment', input.env),
    ...(dotenvText === null ? [] : [envLayer('.env', parseDotenv(dotenvText))]),
    {
      source: '.hestai_workspace.yaml',
      base_url: str(ws.base_url),
      model: str(ws.model_override),
      api_key: ws.api_key_env ? str(input.env[ws.api_key_env]) : undefined,
      timeout_ms: num(ws.timeout_ms),
    },
  ];
  const home = await homeLayer(input.env['HOME'], input.env, warnings);
  if (home) layers.push(home);
  const endpoint = layers.find((l) => l.base_url !== undefined);
  if (!endpoint) return null;
  const url = endpoint.base_url!;
  if (!/^https?:\/\/[^\s]+$/i.test(url)) {
    warnings.push(
      `AI base_url ${JSON.stringify(url)} from ${endpoint.source} is not an http(s) URL; using deterministic selection`,
    );
    return null;
  }
  return {
    base_url: url.replace(/\/+$/, ''),
    model: str(input.modelFlag) ?? layers.find((l) => l.model !== undefined)?.model ?? null,
    api_key: endpoint.api_key ?? null,
    timeout_ms: layers.find((l) => l.timeout_ms !== undefined)?.timeout_ms ?? DEFAULT_AI_TIMEOUT_MS,
    source: endpoint.source,
  };
}
