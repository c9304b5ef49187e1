// workspacePaths is asked for on every hook run, several times: each path must be exactly what path.join
// gives, whatever the root looks like, and the same object may be handed out again (it is frozen).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspacePaths } from '../../src/paths.js';

/** The layout of docs/design.md §3, each path joined from the root as written there. */
function joined(root: string): Record<string, string> {
  const j = (...parts: string[]) => path.join(root, ...parts);
  return {
    root,
    workspaceConfig: j('.hestai_workspace.yaml'),
    hestai: j('.hestai'),
    context: j('.hestai', 'context'),
    projectContext: j('.hestai', 'context', 'PROJECT-CONTEXT.oct.md'),
    contextNegatives: j('.hestai', 'context', 'CONTEXT-NEGATIVES.oct.md'),
    state: j('.hestai', 'context', 'state'),
    currentFocus: j('.hestai', 'context', 'state', 'current-focus.oct.md'),
    currentState: j('.hestai', 'context', 'state', 'current-state.oct.md'),
    checklist: j('.hestai', 'context', 'state', 'checklist.oct.md'),
    blockers: j('.hestai', 'context', 'state', 'blockers.oct.md'),
    sessions: j('.hestai', 'sessions'),
    pending: j('.hestai', 'sessions', 'pending'),
    active: j('.hestai', 'sessions', 'active'),
    archive: j('.hestai', 'sessions', 'archive'),
    audit: j('.hestai', 'audit'),
    auditLog: j('.hestai', 'audit', 'audit.jsonl'),
    locks: j('.hestai', 'sessions', '.locks'),
    terminal: j('.hestai', 'sessions', 'terminal'),
    bindings: j('.hestai', 'sessions', 'bindings'),
    protocol: j('.hestai', 'protocol.yaml'),
    hestaiSys: j('.hestai-sys'),
    agents: j('.hestai-sys', 'agents'),
  };
}

describe('workspacePaths', () => {
  it('gives exactly the joined paths for every kind of root', () => {
    for (const root of ['/', '/tmp/repo', '/tmp/repo/', '/tmp//a/../repo', 'relative/repo', '.', '', '/tmp/a b/ü'])
      expect({ ...workspacePaths(root) }, JSON.stringify(root)).toEqual(joined(root));
  });

  it('hands out one frozen layout per root, and another root gets its own', () => {
    const a = workspacePaths('/tmp/one');
    expect(Object.isFrozen(a)).toBe(true);
    expect(workspacePaths('/tmp/two').root).toBe('/tmp/two');
    expect(workspacePaths('/tmp/one')).toEqual(a);
    expect(workspacePaths('/tmp/one').hestai).toBe(path.join('/tmp/one', '.hestai'));
  });
});
