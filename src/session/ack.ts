import { appendAudit } from '../audit.js';
import { publishProofEvent } from '../records/proof-publish.js';
import { loadConfig } from '../config/load.js';
import { blockedError, usageError } from '../errors.js';
import { HOUR_MS } from '../clock.js';
import { withLock } from '../state/store.js';
import { resolveWorkspace } from '../workspace.js';
import { resolveDeps, type SessionDeps } from './deps.js';
import { oneLine } from './fast-layer/build.js';
import { openSession } from './open.js';
import { ackCovers, writeSession } from '../records/session.js';
import { contextAgeHours, isContextStale } from '../records/freshness.js';
import { sessionsLock } from '../records/activity.js';

export interface AcknowledgeResponse {
  session_id: string;
  /** The context generation this acknowledgment covers (a refresh makes a new one, needing a new ack). */
  context_generated_at: string;
  context_age_hours: number;
  /** Whether the context was stale (and unacknowledged) before this acknowledgment: always true (else refused). */
  was_stale: boolean;
  reason: string;
}

/**
 * `hestai ack --reason`: records, in the session and the audit log, that a human or agent accepts the
 * current context generation although it is older than the freshness threshold (CI-I2). Refused (exit 1)
 * unless the context is stale now; the acknowledgment covers it for one period (`freshness.max_age_hours`).
 */
export async function acknowledgeStale(
  input: { working_dir: string; session_id?: string | undefined; reason: string },
  deps?: SessionDeps,
): Promise<AcknowledgeResponse> {
  const { clock, env } = resolveDeps(deps);
  const reason = typeof input.reason === 'string' ? oneLine(input.reason) : '';
  if (reason === '') {
    throw usageError('an acknowledgment needs a reason', {
      code: 'ACK_REASON_REQUIRED',
      remedy: 'Pass --reason "why the context is still valid".',
    });
  }
  if (reason.length > 1000)
    throw usageError(`the reason is ${reason.length} characters long (at most 1000)`, { code: 'ACK_REASON_REQUIRED' });
  const workspace = resolveWorkspace(input.working_dir, { requireAbsolute: true });
  const paths = workspace.paths;
  const { config } = await loadConfig(workspace.root);
  const now = clock();
  const at = now.toISOString();
  return withLock(sessionsLock(paths), async () => {
    const session = openSession(paths, input.session_id, env, { live: true });
    const age = contextAgeHours(session, now);
    const limit = config.freshness.max_age_hours;
    const wasStale = isContextStale(session, now, limit);
    // An acknowledgment is for context that is stale now, and covers it for one period (records/session.ts).
    if (!wasStale) {
      const covering = session.acknowledgments.find((a) =>
        ackCovers(a, session.context_generated_at, now.getTime(), limit),
      );
      const until = covering && new Date(Date.parse(covering.at) + limit * HOUR_MS).toISOString();
      throw blockedError(
        `the context of session ${session.session_id} is not stale: ${
          covering
            ? `an acknowledgment made at ${covering.at} covers it until ${until}`
            : `generated ${Math.max(0, Math.floor(age))} h ago (${session.context_generated_at}), within freshness.max_age_hours (${limit} h)`
        }; nothing to acknowledge`,
        {
          code: 'ACK_NOT_STALE',
          remedy: `Acknowledge only context older than freshness.max_age_hours; one acknowledgment covers it for ${limit} h, then it is stale again (or regenerate it: hestai refresh --session ${session.session_id}).`,
        },
      );
    }
    writeSession(paths, {
      ...session,
      state: 'ACTIVE',
      last_activity: at,
      acknowledgments: [...session.acknowledgments, { at, context_generated_at: session.context_generated_at, reason }],
    });
    appendAudit(paths, {
      event: 'stale_context_acknowledged',
      session_id: session.session_id,
      at,
      reason,
      context_generated_at: session.context_generated_at,
      context_age_hours: Math.round(age * 100) / 100,
    });
    // CI sees the acknowledgment through the anchors branch (published with the next git push).
    await publishProofEvent(
      paths.root,
      { event: 'ack', session_id: session.session_id, at, context_generated_at: session.context_generated_at, reason },
      now,
    );
    return {
      session_id: session.session_id,
      context_generated_at: session.context_generated_at,
      context_age_hours: Math.round(age * 100) / 100,
      was_stale: wasStale,
      reason,
    };
  });
}
