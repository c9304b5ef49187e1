/**
 * hestai-hooks: the library API. The CLI (`hestai`), the git hook entrypoints and the MCP server are thin
 * adapters over what is exported here.
 */
export { ExitCode, HestaiError, usageError, blockedError, isHestaiError } from './errors.js';
export { type Clock, systemClock, clockFromEnv } from './clock.js';
export { resolveWorkspace, type Workspace } from './workspace.js';
export { workspacePaths, type WorkspacePaths } from './paths.js';
export { loadConfig, type LoadedConfig } from './config/load.js';
export { type WorkspaceConfig, configSchema, defaultConfig } from './config/schema.js';
export { DEFAULTS } from './config/defaults.js';
export { validateConfigText, type ConfigProblem, type ConfigValidation } from './config/validate.js';
export { runDoctor, type DoctorCheck, type DoctorReport } from './doctor.js';
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
} from './session/record.js';
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
} from './anchor/record.js';
export * from './octave/index.js';
export { appendAudit, type AuditRecord } from './audit.js';
export * from './session/index.js';
export * from './tdd/index.js';
export { checkPreCommit, type PreCommitInput } from './hooks/pre-commit.js';
export { checkCommitMsg, type CommitMsgInput } from './hooks/commit-msg.js';
export { runHook, type HookName } from './hooks/main.js';
export type { HookOutcome } from './hooks/outcome.js';
export { initWorkspace, type InitInput, type InitResult } from './hooks/init.js';
export { ensureHooksArmed, inspectHooks, type ArmedResult, type HooksInspection } from './hooks/armed.js';
export { verifyRange, verifyJson, verifyText, verifyGithub, type VerifyInput, type VerifyReport } from './verify/index.js';
export { anchor, type AnchorInput, type AnchorDeps } from './anchor/handshake.js';
export { odysseanAnchor, type OdysseanAnchorInput } from './anchor/one-shot.js';
export { resetAnchor, type ResetResult } from './anchor/reset.js';
export { validateVector, guidanceFor, type ValidateOptions, type VectorValidation } from './anchor/validate.js';
export { readHandshake, type HandshakeRecord, type HandshakeStage, type RetryStage } from './anchor/handshake-store.js';
export { installConstitutions, availableRoles, readConstitution } from './anchor/constitution.js';
export { makeCtxProbe } from './anchor/ctx-probe.js';
export { computeServerArm } from './anchor/server-arm.js';
export { hasValidAnchorAt } from './anchor/gating.js';
export { type AnchorHandshakeResult, type OdysseanAnchorResult, type WorkPermit } from './anchor/results.js';
export { type Violation, type CtxProbe, type CtxTarget } from './anchor/rules/types.js';
export { createServer, type McpDeps } from './mcp/server.js';
export { serveMcpStdio } from './mcp/stdio.js';
export { gateDecision, requireUnlocked, type GateDecision } from './mcp/gate.js';
export { MCP_CONFIG_FILE, mcpJsonFor, mergeMcpJson, installedBinPath, type McpServerEntry } from './mcp/config.js';
