import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/git-repo.js';
import { CEREMONY_BIND, CEREMONY_ROLE, ceremonyRepo, connectInProcess } from '../helpers/mcp.js';

// The MCP server serves every request of its client on one event loop: a git call one tool makes must
// not stop it from answering another request (issue 27). To hold a git call in flight without timing
// anything, the repository's own core.fsmonitor hook (which `git status` runs) waits, once armed, until
// the test releases it. The server runs in this process: a git call that blocked the event loop would
// block the test too, and the hook would have finished (`done`) before the ping could be answered.

/** A core.fsmonitor hook that, while `arm` exists, says `started` and waits for `release` (20 s at most, so a blocked server fails the test instead of hanging it). */
function holdingFsmonitor(control: string): string {
  const hook = path.join(control, 'fsmonitor');
  fs.writeFileSync(
    hook,
    [
      '#!/bin/sh',
      `c=${JSON.stringify(control)}`,
      'if [ -e "$c/arm" ]; then',
      '  rm -f "$c/arm"',
      '  : > "$c/started"',
      '  i=0',
      '  while [ ! -e "$c/release" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done',
      '  : > "$c/done"',
      'fi',
      'exit 1',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return hook;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('MCP server: git never blocks the event loop', () => {
  it('answers a ping while the anchor context stage waits on git status (the server ARM)', async () => {
    const repo = ceremonyRepo();
    const control = tempDir('hestai-fsmonitor-');
    repo.git(['config', 'core.fsmonitor', holdingFsmonitor(control)]);
    const mcp = await connectInProcess({ env: repo.env });
    const identity = await mcp.call('anchor', { stage: 'identity', working_dir: repo.dir, role: CEREMONY_ROLE });
    expect(identity.isError, JSON.stringify(identity.content)).toBeFalsy();
    const token = identity.structuredContent!['token'] as string;

    fs.writeFileSync(path.join(control, 'arm'), '');
    let settled = false;
    const context = mcp
      .call('anchor', { stage: 'context', working_dir: repo.dir, session_id: token, payload: CEREMONY_BIND })
      .finally(() => {
        settled = true;
      });
    await until(() => fs.existsSync(path.join(control, 'started')));
    await mcp.client.ping();
    // Answered while git status still waits in the hook, and the context stage has not returned.
    expect(fs.existsSync(path.join(control, 'done'))).toBe(false);
    expect(settled).toBe(false);

    fs.writeFileSync(path.join(control, 'release'), '');
    const result = await context;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ success: true, stage: 'context', token });
    expect(fs.existsSync(path.join(control, 'done'))).toBe(true);
  });
});
