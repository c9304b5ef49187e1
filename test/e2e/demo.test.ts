import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, PROJECT_ROOT, tempDir } from '../helpers/git-repo.js';
import { runtimeBin } from '../helpers/runtimes.js';

// The real Claude Code (pinned, from the tests' cache) is on the demo's PATH, as a user's own would be.
const CLAUDE = await runtimeBin('claude-code');

describe('the demo (npm start)', () => {
  it('shows each rule blocking and then passing, exits 0 and cleans up', () => {
    const env = isolatedEnv(tempDir());
    if (CLAUDE !== null) env['PATH'] = `${path.dirname(CLAUDE)}${path.delimiter}${env['PATH']}`;
    const result = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'dist/demo/main.js')], {
      env,
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    const out = result.stdout;
    expect(out).toContain('no active session');
    expect(out).toContain('hestai clock-in --role implementation-lead');
    expect(out).toContain('has no valid anchor');
    expect(out).toContain('acknowledged: session');
    expect(out).toContain('HestAI-Session:');
    expect(out).toContain('has no preceding test commit');
    expect(out).toContain('25 h ago');
    expect(out).toMatch(/::error file=src\/shout\.js,title=hestai test-first/);
    expect(out).toContain('clocked in now');
    expect(out).toContain('hestai: Edit blocked: session');
    expect(out).toMatch(/the same Edit is allowed\n\$ .*\n {2}→ exit 0/);
    // the act with the real Claude Code: refused, anchored, then allowed
    expect(out).toContain('5b. the real Claude Code runs the same hooks');
    if (CLAUDE === null) expect(out).toContain('skipped: Claude Code is not installed here');
    else {
      expect(out).toMatch(
        /Claude Code sent back for the Write \(is_error: true\):\n {4}PreToolUse:Write hook error: .*hestai: Write blocked: session /,
      );
      expect(out).toContain('Claude Code sent back for the Write (is_error: false)');
    }
    expect(out).toContain('demo complete');
    const dir = /hestai demo in (\S+)/.exec(out)?.[1];
    expect(dir).toBeDefined();
    expect(fs.existsSync(path.dirname(dir!))).toBe(false);
    // It ends by writing the report of its history (outside the removed repository) and printing its path.
    const report = /report: (\S+\.html)\n/.exec(out)?.[1];
    expect(report, out.slice(-400)).toBeDefined();
    try {
      const html = fs.readFileSync(report!, 'utf8');
      expect(html).toContain('data-metric="commits"');
      expect(html).toContain('feat(greet): greet by name');
    } finally {
      fs.rmSync(path.dirname(report!), { recursive: true, force: true });
    }
  });
});
