/**
 * hestai-hooks: the library API. The CLI (`hestai`), the git hook entrypoints and the MCP server are thin
 * adapters over what is exported here.
 */
import { anchor as anchorStage, type AnchorDeps, type AnchorInput } from './anchor/handshake.js';
import type { AnchorHandshakeResult } from './anchor/results.js';
import { clockIn } from './session/clock-in.js';

export { ExitCode, HestaiError, usageError, blockedError, isHestaiError } from './errors.js';
export { type Clock, systemClock, clockFromEnv } from './clock.js';
export { resolveWorkspace, type Workspace } from './workspace.js';
export { workspacePaths, type WorkspacePaths } from './paths.js';
export { loadConfig, type LoadedConfig } from './config/load.js';
export { type WorkspaceConfig, configSchema, defaultConfig } from './config/schema.js';
export { DEFAULTS } from './config/defaults.js';
export { validateConfigText, type ConfigProblem, type ConfigValidation } from './config/validate.js';
export { runDoctor, type DoctorCheck, type DoctorReport } from './setup/doctor.js';
export { VERSION } from './version.js';
export {
  type SessionRecord,
  type SessionState,
  type FocusSource,
  type Acknowledgment,
  type OwnershipEvent,
  SESSION_STATES,
  readSession,
  writeSession,
  listActiveSessions,
  isAcknowledged,
  validateSessionRecord,
} from './records/session.js';
export {
  type AnchorRecord,
  type ArmSnapshot,
  type AnchorCheck,
  type Strictness,
  hasValidAnchor,
  sealAnchor,
  anchorDigest,
  anchorIntegrityHash,
  validateAnchorRecord,
} from './records/anchor.js';
export * from './octave/index.js';
export { appendAudit, type AuditRecord } from './audit.js';
export * from './session/index.js';
export * from './tdd/index.js';
export { checkPreCommit, type PreCommitInput } from './hooks/pre-commit.js';
export { checkCommitMsg, type CommitMsgInput } from './hooks/commit-msg.js';
export { runHook, type HookName } from './hooks/main.js';
export type { HookOutcome } from './hooks/outcome.js';
export { initWorkspace, type InitInput, type InitResult } from './setup/init.js';
export { ensureHooksArmed, inspectHooks, type ArmedResult, type HooksInspection } from './setup/armed.js';
export { verifyRange, verifyJson, verifyText, verifyGithub, type VerifyInput, type VerifyReport } from './verify/index.js';
export type { AnchorInput, AnchorDeps, ClockInPort } from './anchor/handshake.js';
/** The staged handshake with clock_in wired in: identity without a token clocks in first (CI-I1). */
export const anchor = (input: AnchorInput, deps: AnchorDeps = {}): Promise<AnchorHandshakeResult> => anchorStage(input, { clockIn, ...deps });
export { odysseanAnchor, type OdysseanAnchorInput } from './anchor/one-shot.js';
export { resetAnchor, type ResetResult } from './anchor/reset.js';
export { validateVector, guidanceFor, type ValidateOptions, type VectorValidation } from './anchor/validate.js';
export { readHandshake, type HandshakeRecord, type HandshakeStage, type RetryStage } from './records/handshake.js';
export { installConstitutions, availableRoles, readConstitution } from './anchor/constitution.js';
export { makeCtxProbe } from './anchor/ctx-probe.js';
export { computeServerArm } from './anchor/server-arm.js';
export { hasValidAnchorAt } from './anchor/gating.js';
export type { AnchorHandshakeResult, OdysseanAnchorResult, WorkPermit } from './anchor/results.js';
export type { Violation, CtxProbe, CtxTarget } from './anchor/rules/types.js';
export { createServer, type McpDeps } from './mcp/server.js';
export { serveMcpStdio } from './mcp/stdio.js';
export { gateDecision, requireUnlocked, type GateDecision } from './mcp/gate.js';
export { MCP_CONFIG_FILE, mcpJsonFor, mergeMcpJson, installedBinPath, type McpServerEntry } from './setup/mcp-json.js';
