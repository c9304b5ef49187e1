import type { McpServer } from '@modelcontextprotocol/server';
import type { McpContext as McpDeps } from '../deps.js';
import { registerSessionStart } from './session-start.js';
import { registerValidateGate } from './validate-gate.js';
import { registerAdvancePhase } from './advance-phase.js';
import { registerRecordEvidence } from './record-evidence.js';
import { registerGetBlockedReason } from './get-blocked-reason.js';
import { registerSessionEnd } from './session-end.js';

/**
 * The six tools of the session protocol (seed 004), thin adapters over src/protocol/operations.ts, one file
 * each; their shared schemas and argument handling are in ./protocol-schemas.ts.
 */
export function registerProtocolTools(server: McpServer, deps: McpDeps): void {
  registerSessionStart(server, deps);
  registerValidateGate(server, deps);
  registerAdvancePhase(server, deps);
  registerRecordEvidence(server, deps);
  registerGetBlockedReason(server, deps);
  registerSessionEnd(server, deps);
}
