import { describe, expect, it } from 'vitest';

// The package root is a deliberate set (README "Library API"): adding or removing a name is a decision
// made here, never a side effect of exporting an internal reader or writer of .hestai/ files.
const PUBLIC = [
  'ExitCode',
  'HestaiError',
  'isHestaiError',
  'VERSION',
  'initWorkspace',
  'runDoctor',
  'ensureHooksArmed',
  'mcpJsonFor',
  'mergeMcpJson',
  'loadConfig',
  'validateConfigText',
  'trustState',
  'trustWorkspace',
  'revokeTrust',
  'isTrusted',
  'clockIn',
  'refreshSession',
  'acknowledgeStale',
  'clockOut',
  'cleanupSessions',
  'sessionStatus',
  'anchor',
  'odysseanAnchor',
  'resetAnchor',
  'validateVector',
  'sessionStart',
  'validateGate',
  'advancePhase',
  'recordEvidence',
  'getBlockedReason',
  'sessionEnd',
  'checkPreCommit',
  'checkCommitMsg',
  'decideToolUse',
  'verifyRange',
  'verifyJson',
  'verifyText',
  'verifyGithub',
  'createServer',
  'serveMcpStdio',
];

describe('the public API (src/index.ts)', () => {
  it('exports exactly the documented names', async () => {
    const api = await import('../../src/index.js');
    expect(Object.keys(api).sort()).toEqual([...PUBLIC].sort());
  });

  it('exports no writer of internal files', async () => {
    const api = (await import('../../src/index.js')) as Record<string, unknown>;
    for (const internal of [
      'writeSession',
      'writeJsonAtomic',
      'sealAnchor',
      'appendAudit',
      'readHandshake',
      'writeHandshake',
    ]) {
      expect(api[internal], internal).toBeUndefined();
    }
  });
});
