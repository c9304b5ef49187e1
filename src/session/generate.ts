import { resolveAiSettings } from '../ai/config.js';
import type { WorkspaceConfig } from '../config/schema.js';
import { committedDotenvAsync, workspaceTrust } from '../trust/report.js';
import { withoutRepositoryPowers } from '../trust/settings.js';
import type { Workspace } from '../workspace.js';
import { gatherContext, type GatheredContext } from './context/gather.js';
import { selectContext, type ContextSelection } from './context/select.js';
import { synthesizeFast, type FastSynthesis } from './context/fast-synth.js';
import type { FastExtras } from './context/fast-reply.js';
import type { ResolvedFocus } from './rules/focus.js';
import type { PromptUse } from '../records/session.js';

export interface GeneratedContext {
  gathered: GatheredContext;
  selection: ContextSelection;
  /** The model the session records: --model, else the configured provider's model, else null. */
  model: string | null;
  /** SS-I5: the versioned prompts sent to the provider (recorded in session.json and the audit line). */
  prompts: PromptUse[];
  /** STEP_6: how the FAST layer is synthesised, and what the provider added (null: deterministic). */
  fast: { synthesis: FastSynthesis; extras: FastExtras | null };
}

/** Gathers fresh context and selects from it (AI when configured, deterministic otherwise). */
export async function generateContext(input: {
  workspace: Workspace;
  config: WorkspaceConfig;
  env: NodeJS.ProcessEnv;
  role: string;
  explicitFocus?: string | undefined;
  fixedFocus?: ResolvedFocus;
  model?: string | undefined;
  warnings: string[];
}): Promise<GeneratedContext> {
  // Issue 12: what the repository configured to run commands or send data out is inert until trusted.
  const trust = workspaceTrust(input.workspace, input.config, input.env, await committedDotenvAsync(input.workspace));
  const trusted = trust.status === 'trusted';
  if (trust.warning !== null) input.warnings.push(trust.warning);
  const config = trusted ? input.config : withoutRepositoryPowers(input.config);
  const [gathered, ai] = await Promise.all([
    gatherContext({
      workspace: input.workspace,
      config,
      env: input.env,
      explicitFocus: input.explicitFocus,
      ...(input.fixedFocus ? { fixedFocus: input.fixedFocus } : {}),
    }),
    resolveAiSettings({
      root: input.workspace.root,
      env: input.env,
      workspaceAi: config.ai,
      modelFlag: input.model,
      warnings: input.warnings,
      ignoreDotenv: trust.dotenv_committed && !trusted,
    }),
  ]);
  const [selection, fast] = await Promise.all([
    selectContext({ role: input.role, gathered, ai, home: input.env['HOME'], warnings: input.warnings }),
    synthesizeFast({ role: input.role, gathered, ai, home: input.env['HOME'], warnings: input.warnings }),
  ]);
  const used = [selection.selection.prompt, fast.synthesis.prompt].filter((p) => p !== null);
  return {
    gathered,
    selection,
    model: input.model ?? ai?.model ?? input.config.ai.model_override ?? null,
    prompts: used.map((p) => ({ name: p.name, version: p.version, source: p.source })),
    fast,
  };
}
