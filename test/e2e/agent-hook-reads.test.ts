import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  adoptClaudeCode,
  anchorSession,
  bashCall,
  newAgent,
  preToolUse,
  runClaudeHook,
  sessionStartCall,
  shellSession,
} from '../helpers/claude-hook.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

// The agent hook reads only what its decision needs (bench budgets, issue 37 item 7): the workspace config
// decides only for a session holding a valid anchor (anchor.valid_hours, freshness, protocol.enforce), so a
// shell call refused before the anchor never opens .hestai_workspace.yaml. The real hook command `init`
// wrote, with a preload that records each file the hook process opens.

/** A preload that records every path the process opens (fs.openSync, fs.readFileSync), written at exit. */
function openProbe(): { env: NodeJS.ProcessEnv; opened: () => string[] } {
  const dir = tempDir('hestai-open-probe-');
  const out = path.join(dir, 'opened.txt');
  const script = path.join(dir, 'probe.cjs');
  fs.writeFileSync(
    script,
    [
      "const fs = require('node:fs');",
      'const seen = [];',
      'for (const name of ["openSync", "readFileSync"]) {',
      '  const original = fs[name];',
      '  fs[name] = function (file, ...rest) { seen.push(String(file)); return original.call(this, file, ...rest); };',
      '}',
      `const write = fs.writeFileSync, target = ${JSON.stringify(out)};`,
      "process.on('exit', () => write(target, seen.join('\\n')));",
      '',
    ].join('\n'),
  );
  return {
    env: { NODE_OPTIONS: `--require ${script}` },
    opened: () => (fs.existsSync(out) ? fs.readFileSync(out, 'utf8').split('\n').filter(Boolean) : []),
  };
}

/** A preload that records, at exit, the bundles of dist/hooks/ the process loaded (their file names). */
function bundleProbe(): { env: NodeJS.ProcessEnv; loaded: () => string[] } {
  const dir = tempDir('hestai-bundle-probe-');
  const out = path.join(dir, 'loaded.txt');
  const script = path.join(dir, 'probe.cjs');
  fs.writeFileSync(
    script,
    [
      "const fs = require('node:fs');",
      `const target = ${JSON.stringify(out)};`,
      'process.on("exit", () => {',
      '  const names = Object.keys(require.cache).filter((f) => /dist[\\/]hooks[\\/]/.test(f));',
      "  fs.appendFileSync(target, names.map((f) => f.replace(/^.*[\\/]/, '')).join('\\n') + '\\n');",
      '});',
      '',
    ].join('\n'),
  );
  return {
    env: { NODE_OPTIONS: `--require ${script}` },
    loaded: () => (fs.existsSync(out) ? [...new Set(fs.readFileSync(out, 'utf8').split('\n').filter(Boolean))] : []),
  };
}

describe('the agent hook reads only what the decision needs', () => {
  it('a shell call refused before the anchor never opens the workspace config; an anchored Edit reads it', () => {
    const repo = makeRepo();
    const { command } = adoptClaudeCode(repo);
    const config = path.join(repo.dir, '.hestai_workspace.yaml');
    const agent = newAgent('reads');
    expect(runClaudeHook(repo, command, agent, sessionStartCall()).status).toBe(0);

    const before = openProbe();
    const refused = runClaudeHook(repo, command, agent, bashCall('git status --short'), before.env);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('verdict: NO_ANCHOR');
    expect(before.opened().length).toBeGreaterThan(0); // the probe ran in the hook
    expect(before.opened()).not.toContain(config);

    anchorSession(repo, shellSession(agent));
    const after = openProbe();
    const edit = preToolUse('Edit', { file_path: path.join(repo.dir, 'src/app.ts'), old_string: 'a', new_string: 'b' });
    const allowed = runClaudeHook(repo, command, agent, edit, after.env);
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(after.opened()).toContain(config);
  });

  it('the session protocol is a bundle of its own, loaded only where protocol.enforce is set', () => {
    const repo = makeRepo();
    const { command } = adoptClaudeCode(repo);
    const agent = newAgent('protocol-bundle');
    expect(runClaudeHook(repo, command, agent, sessionStartCall()).status).toBe(0);
    anchorSession(repo, shellSession(agent));
    const edit = preToolUse('Edit', { file_path: path.join(repo.dir, 'src/app.ts'), old_string: 'a', new_string: 'b' });

    const plain = bundleProbe();
    const allowed = runClaudeHook(repo, command, agent, edit, plain.env);
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(plain.loaded()).toContain('claude-code.cjs');
    expect(plain.loaded().filter((f) => f.includes('protocol'))).toEqual([]);

    fs.appendFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'protocol:\n  enforce: true\n');
    const enforced = bundleProbe();
    const refused = runClaudeHook(repo, command, agent, edit, enforced.env);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('has not started the session protocol');
    expect(enforced.loaded()).toContain('agent-protocol.cjs');
  });
});
