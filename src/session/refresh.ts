import { appendAudit } from '../audit.js';
import { publishProofEvent } from '../records/proof-publish.js';
import { loadConfig } from '../config/load.js';
import { withLock } from '../state/store.js';
import { resolveWorkspace } from '../workspace.js';
import type { GithubContext } from './context/github.js';
import type { SelectionInfo } from './context/select.js';
import { resolveDeps, type SessionDeps } from './deps.js';
import { updateFastLayer } from './fast-layer/update.js';
import { generateContext } from './generate.js';
import { assertNoSymlinkEscape } from './guard.js';
import { openSession } from './open.js';
import { isLive, listActiveSessions, writeSession } from '../records/session.js';
import { contextPaths, sessionContext, type ContextPaths, type SessionContext } from './response.js';
import type { ResolvedFocus } from './rules/focus.js';
import { sessionsLock } from '../records/activity.js';

export interface RefreshResponse {
  session_id: string;
  previous_context_generated_at: string;
  context_generated_at: string;
  focus_resolved: ResolvedFocus;
  context_paths: ContextPaths;
  github_context: GithubContext;
  selection: SelectionInfo;
  context: SessionContext;
  warnings: string[];
}

/**
 * `hestai refresh`: regenerates a session's context (CI-I2) — git state, selection, FAST layer — and
 * renews its generation timestamp, which is what the 24 h freshness rule measures.
 */
export async function refreshSession(
  input: { working_dir: string; session_id?: string | undefined },
  deps?: SessionDeps,
): Promise<RefreshResponse> {
  const { clock, env } = resolveDeps(deps);
  const workspace = resolveWorkspace(input.working_dir, { requireAbsolute: true });
  const paths = workspace.paths;
  assertNoSymlinkEscape(paths);
  const session = openSession(paths, input.session_id, env, { live: true });
  const { config } = await loadConfig(workspace.root);
  const warnings: string[] = [];
  const focus: ResolvedFocus = { value: session.focus, source: session.focus_source };
  const generated = await generateContext({
    workspace,
    config,
    env,
    role: session.role,
    fixedFocus: focus,
    model: session.model ?? undefined,
    warnings,
  });
  const at = clock().toISOString();
  return withLock(sessionsLock(paths), async () => {
    const current = openSession(paths, session.session_id, env, { live: true });
    const updated = {
      ...current,
      context_generated_at: at,
      last_activity: at,
      state: 'ACTIVE' as const,
      branch: generated.gathered.git.branch,
    };
    const live = new Set(
      listActiveSessions(paths)
        .sessions.filter(isLive)
        .map((s) => s.session_id),
    );
    updateFastLayer(paths, updated, generated, live, warnings);
    writeSession(paths, updated);
    appendAudit(paths, {
      event: 'context_refreshed',
      session_id: updated.session_id,
      at,
      previous_context_generated_at: current.context_generated_at,
    });
    // CI measures freshness from the proof record: a refresh is a new generation it must see.
    await publishProofEvent(
      paths.root,
      { event: 'refresh', session_id: updated.session_id, at, context_generated_at: at, reason: null },
      new Date(at),
    );
    return {
      session_id: updated.session_id,
      previous_context_generated_at: current.context_generated_at,
      context_generated_at: at,
      focus_resolved: focus,
      context_paths: contextPaths(paths, config),
      github_context: generated.gathered.github,
      selection: generated.selection.selection,
      context: sessionContext(generated),
      warnings,
    };
  });
}
