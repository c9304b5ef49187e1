import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeHookCommand, isHestaiHookCommand, mergeClaudeSettings } from '../../../src/setup/claude-settings.js';
import { tempDir } from '../../helpers/git-repo.js';

const FILE = '/r/.claude/settings.json';

describe('claudeHookCommand', () => {
  it('runs the entry through sh with spaces, quotes, $ and backticks in its path inert', () => {
    const dir = tempDir();
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    // A stand-in `node` that prints the arguments the shell gave it, one per line.
    fs.writeFileSync(path.join(bin, 'node'), '#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n', {
      mode: 0o755,
    });
    const env = { PATH: `${bin}:/usr/bin:/bin`, CLAUDE_PROJECT_DIR: "/p r'o$j`x`" };
    for (const weird of ["/opt/my pkg/it's $HOME `id`/hooks/claude-code", '/a/"q"/hooks/claude-code']) {
      const command = claudeHookCommand({ absolute: weird });
      expect(isHestaiHookCommand(command)).toBe(true);
      const run = spawnSync('sh', ['-c', command], { env, encoding: 'utf8' });
      expect(run.stdout).toBe(`${weird}\n`);
    }
    const relative = claudeHookCommand({ project: 'node_modules/hestai-hooks/hooks/claude-code' });
    expect(isHestaiHookCommand(relative)).toBe(true);
    expect(spawnSync('sh', ['-c', relative], { env, encoding: 'utf8' }).stdout).toBe(
      "/p r'o$j`x`/node_modules/hestai-hooks/hooks/claude-code\n",
    );
  });

  it('refuses paths it cannot quote plainly', () => {
    expect(() => claudeHookCommand({ absolute: 'relative/hooks/claude-code' })).toThrow(/not a plain absolute path/);
    expect(() => claudeHookCommand({ absolute: '/a\nb/hooks/claude-code' })).toThrow(/not a plain absolute path/);
    expect(() => claudeHookCommand({ project: '../x/hooks/claude-code' })).toThrow(/not a plain relative path/);
  });
});

describe('mergeClaudeSettings', () => {
  const command = claudeHookCommand({ absolute: '/pkg/hooks/claude-code' });

  it('adds SessionStart and PreToolUse hooks to an empty or missing file', () => {
    for (const existing of [null, '', '{}']) {
      const doc = JSON.parse(mergeClaudeSettings(existing, command, FILE));
      expect(doc.hooks.SessionStart).toEqual([{ hooks: [{ type: 'command', command, timeout: 60 }] }]);
      expect(doc.hooks.PreToolUse).toEqual([{ matcher: '*', hooks: [{ type: 'command', command, timeout: 10 }] }]);
    }
  });

  it('keeps every other setting, event, group and hook, and is idempotent', () => {
    const existing = {
      permissions: { allow: ['Bash(npm test)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] }],
        PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'prettier --write' }] }],
      },
      model: 'opus',
    };
    const once = mergeClaudeSettings(JSON.stringify(existing), command, FILE);
    const doc = JSON.parse(once);
    expect(doc.permissions).toEqual(existing.permissions);
    expect(doc.model).toBe('opus');
    expect(doc.hooks.PostToolUse).toEqual(existing.hooks.PostToolUse);
    expect(doc.hooks.PreToolUse[0]).toEqual(existing.hooks.PreToolUse[0]);
    expect(doc.hooks.PreToolUse).toHaveLength(2);
    expect(mergeClaudeSettings(once, command, FILE)).toBe(once);
    // A moved package: the entry is replaced in place, not duplicated.
    const moved = JSON.parse(
      mergeClaudeSettings(once, claudeHookCommand({ absolute: '/new/hooks/claude-code' }), FILE),
    );
    expect(moved.hooks.PreToolUse).toHaveLength(2);
    expect(moved.hooks.PreToolUse[1].hooks[0].command).toBe("node '/new/hooks/claude-code' || exit 2");
    // An entry written before `|| exit 2` is still hestai's: replaced, not kept beside the new one.
    expect(isHestaiHookCommand("node '/old/hooks/claude-code'")).toBe(true);
  });

  it("keeps hooks that share a group with hestai's entry", () => {
    const shared = {
      hooks: {
        SessionStart: [
          {
            hooks: [
              { type: 'command', command: 'echo hi' },
              { type: 'command', command: "node '/old/hooks/claude-code'" },
            ],
          },
        ],
      },
    };
    const doc = JSON.parse(mergeClaudeSettings(JSON.stringify(shared), command, FILE));
    expect(doc.hooks.SessionStart).toEqual([
      { hooks: [{ type: 'command', command: 'echo hi' }] },
      { hooks: [{ type: 'command', command, timeout: 60 }] },
    ]);
  });

  it.each([
    ['[1]', 'not a JSON object'],
    ['{"hooks": [] }', '"hooks" is not an object'],
    ['{"hooks": {"PreToolUse": {}}}', '"hooks.PreToolUse" is not a list'],
    ['{"hooks": {"SessionStart": [1]}}', '"hooks.SessionStart[0]" is not a matcher group'],
    ['{ nope', 'not valid JSON'],
  ])('refuses %s, naming the file and key', (text, message) => {
    expect(() => mergeClaudeSettings(text, command, FILE)).toThrow(`${FILE}: ${message}`);
  });
});
