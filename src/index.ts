/**
 * hestai-hooks: the library API, for integrators (a custom agent harness, a CI script, another MCP host).
 *
 * Deliberately small: the use cases with their inputs and results, the decisions the hooks, the agent
 * hooks and CI make, the MCP server, and the one error type. The files under `.hestai/` change only
 * through these calls; their readers and writers (`src/records`, `src/state`) are internal and may change
 * without notice. The CLI (`hestai`), the git hooks and the MCP server are thin adapters over this API.
 */
import { anchor as anchorStage, type AnchorDeps, type AnchorInput } from './anchor/handshake.js';
import type { AnchorHandshakeResult } from './anchor/results.js';
import { clockIn } from './session/clock-in.js';

// Errors, exit codes, the version, the injectable clock.
export { ExitCode, HestaiError, isHestaiError } from './errors.js';
export { VERSION } from './version.js';
export type { Clock } from './clock.js';

// Setting a repository up, and checking it.
export { initWorkspace, type InitInput, type InitResult } from './setup/init.js';
export { runDoctor, type DoctorCheck, type DoctorReport } from './setup/doctor.js';
export { ensureHooksArmed, type ArmedResult } from './setup/armed.js';
export { mcpJsonFor, mergeMcpJson, type McpServerEntry } from './setup/mcp-json.js';

// The workspace configuration (.hestai_workspace.yaml) and trust in a repository's own settings.
export { loadConfig, type LoadedConfig } from './config/load.js';
export type { WorkspaceConfig } from './config/schema.js';
export { validateConfigText, type ConfigProblem, type ConfigValidation } from './config/validate.js';
export { trustState, trustWorkspace, revokeTrust, isTrusted, type TrustState } from './trust/index.js';

// Sessions (seed 000): clock-in, refresh, ack, clock-out, cleanup, status.
export { clockIn, type ClockInInput, type ClockInResponse, type ClockInConflict } from './session/clock-in.js';
export { refreshSession, type RefreshResponse } from './session/refresh.js';
export { acknowledgeStale, type AcknowledgeResponse } from './session/ack.js';
export { clockOut, type ClockOutResponse } from './session/clock-out.js';
export { cleanupSessions, type CleanupResponse } from './session/cleanup.js';
export { sessionStatus, type SessionStatus, type SessionStatusEntry } from './session/status.js';
export type { SessionDeps } from './session/deps.js';

// The Odyssean Anchor (seeds 001-003): the staged handshake, the one-shot vector, a human's reset.
export type { AnchorInput, AnchorDeps, ClockInPort } from './anchor/handshake.js';
/** The staged handshake with clock_in wired in: identity without a token clocks in first (CI-I1). */
export const anchor = (input: AnchorInput, deps: AnchorDeps = {}): Promise<AnchorHandshakeResult> =>
  anchorStage(input, { clockIn, ...deps });
export { odysseanAnchor, type OdysseanAnchorInput } from './anchor/one-shot.js';
export { resetAnchor, type ResetResult } from './anchor/reset.js';
export { validateVector, type ValidateOptions, type VectorValidation } from './anchor/validate.js';
export type { AnchorHandshakeResult, OdysseanAnchorResult, WorkPermit } from './anchor/results.js';

// The session protocol (seed 004).
export {
  sessionStart,
  validateGate,
  advancePhase,
  recordEvidence,
  getBlockedReason,
  sessionEnd,
  type ProtocolDeps,
  type SessionStartResult,
  type ValidateGateResult,
  type AdvancePhaseResult,
  type RecordEvidenceResult,
  type SessionEndResult,
} from './protocol/operations.js';

// The decisions: the two git hooks, an agent's tool call, and CI over a range of commits.
export { checkPreCommit, type PreCommitInput } from './hooks/pre-commit.js';
export { checkCommitMsg, type CommitMsgInput } from './hooks/commit-msg.js';
export type { HookOutcome } from './hooks/outcome.js';
export { decideToolUse, type ToolUseInput, type ToolUseDecision } from './agent/decide.js';
export { verifyJson, verifyText, verifyGithub, type VerifyInput, type VerifyReport } from './verify/index.js';
import {
  verifyRange as verifyRangeWith,
  type VerifyInput as VerifyRangeInput,
  type VerifyReport as VerifyRangeReport,
} from './verify/index.js';
import type { VerifyDeps } from './verify/verify.js';
import { verifyEvidenceReaders } from './anchor/reverify.js';
/** `hestai verify` as a library call: anchors are re-validated from their proof records (src/anchor/reverify.ts). */
export function verifyRange(input: VerifyRangeInput, deps: VerifyDeps = {}): Promise<VerifyRangeReport> {
  const readers = verifyEvidenceReaders();
  return verifyRangeWith(input, { ...readers, ...deps }).finally(() => readers.close());
}

// The MCP server.
export { createServer, type McpDeps } from './mcp/server.js';
export { serveMcpStdio } from './mcp/stdio.js';
