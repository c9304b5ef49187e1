import { describe, expect, it } from 'vitest';
import { protectedName } from '../../../src/agent/protected.js';
import { protectedEntry } from '../../../src/agent/protected.js';
import { classifyToolUse, toolUseFromClaude } from '../../../src/agent/tool-use.js';

const claude = (tool: string, input: Record<string, unknown>) => classifyToolUse(toolUseFromClaude(tool, input));

describe('classifyToolUse', () => {
  it('edit tools write their file; the listed reads are reads', () => {
    expect(claude('Edit', { file_path: '/r/src/a.ts', old_string: 'a', new_string: 'b' })).toEqual({
      kind: 'write',
      targets: ['/r/src/a.ts'],
      what: 'Edit',
      mentions: ['/r/src/a.ts'],
    });
    expect(claude('Write', { file_path: 'b.ts', content: '' })).toEqual({
      kind: 'write',
      targets: ['b.ts'],
      what: 'Write',
      mentions: ['b.ts'],
    });
    expect(claude('MultiEdit', { file_path: 'c.ts', edits: [] })).toMatchObject({ kind: 'write', targets: ['c.ts'] });
    expect(claude('NotebookEdit', { notebook_path: 'n.ipynb', new_source: '' })).toMatchObject({
      kind: 'write',
      targets: ['n.ipynb'],
    });
    for (const tool of ['Read', 'Grep', 'Glob', 'WebFetch', 'TodoWrite', 'mcp__hestai__anchor'])
      expect(claude(tool, { file_path: 'x', path: 'y' })).toEqual({ kind: 'read' });
  });

  it('Bash is a shell command whatever it does: no command is read as a read (issue 37)', () => {
    expect(claude('Bash', { command: 'git status' })).toEqual({
      kind: 'shell',
      what: 'Bash',
      mentions: ['git', 'status'],
    });
  });

  it('the generic form: an explicit kind decides for tools hestai does not know', () => {
    expect(classifyToolUse({ tool: 'editFile', paths: ['a'], command: null, kind: 'write' })).toEqual({
      kind: 'write',
      targets: ['a'],
      what: 'editFile',
      mentions: ['a'],
    });
    expect(classifyToolUse({ tool: 'viewFile', paths: ['a'], command: null, kind: 'read' })).toEqual({ kind: 'read' });
    expect(classifyToolUse({ tool: 'shell', paths: [], command: 'echo > a', kind: 'read' })).toMatchObject({
      kind: 'shell',
      mentions: ['echo', 'a'],
    });
  });
});

describe('protected paths', () => {
  it('.hestai/, the workspace config and the Claude settings are protected; look-alikes are not', () => {
    expect(protectedEntry('.hestai/sessions/active/x/anchor.json')).toBe('.hestai/');
    expect(protectedEntry('.hestai')).toBe('.hestai/');
    expect(protectedEntry('./.hestai/protocol.yaml')).toBe('.hestai/');
    expect(protectedEntry('.hestai_workspace.yaml')).toBe('.hestai_workspace.yaml');
    expect(protectedEntry('.claude/settings.json')).toBe('.claude/');
    expect(protectedEntry('.claude/settings.local.json')).toBe('.claude/');
    expect(protectedEntry('.hestai-sys/agents/x.oct.md')).toBe('.hestai-sys/');
    expect(protectedEntry('.git/hooks/pre-commit')).toBe('.git/');
    expect(protectedEntry('.git')).toBe('.git/');
    expect(protectedEntry('node_modules/hestai-hooks/hooks/claude-code')).toBe('node_modules/hestai-hooks/');
    expect(protectedEntry('.gitignore')).toBeNull();
    expect(protectedEntry('.hestai-notes.md')).toBeNull();
    // The context documents the default protocol's END gate asks the agent to update (issue 15), nothing else.
    expect(protectedEntry('.hestai/context/PROJECT-CONTEXT.oct.md')).toBeNull();
    expect(protectedEntry('./.hestai/context/decisions.oct.md')).toBeNull();
    expect(protectedEntry('.hestai/context/state/current-focus.oct.md')).toBe('.hestai/');
    expect(protectedEntry('.hestai/context/a/b.oct.md')).toBe('.hestai/');
    expect(protectedEntry('.hestai/context/PROJECT-CONTEXT.md')).toBe('.hestai/');
    expect(protectedEntry('.hestai/context')).toBe('.hestai/');
    expect(protectedEntry('docs/.hestai/x')).toBeNull();
    expect(protectedEntry('src/a.ts')).toBeNull();
  });

  it('the other runtimes’ hook files are protected as .claude/ is: .codex/, .gemini/, .cursor/ (and by name anywhere)', () => {
    expect(protectedEntry('.codex/hooks.json')).toBe('.codex/');
    expect(protectedEntry('.gemini/settings.json')).toBe('.gemini/');
    expect(protectedEntry('.cursor/hooks.json')).toBe('.cursor/');
    expect(protectedEntry('.cursor')).toBe('.cursor/');
    expect(protectedEntry('.geminiignore')).toBeNull();
    expect(protectedEntry('.cursorrules')).toBeNull();
    expect(protectedName('$ROOT/.gemini/settings.json')).toBe('.gemini/');
    expect(protectedName('x/.codex/hooks.json')).toBe('.codex/');
    expect(protectedName('.c?rsor/hooks.json')).toBe('.cursor/');
    expect(protectedName('/home/u/.gemini/settings.json')).toBe('.gemini/');
    // what Gemini CLI's own tools write there (plan mode's plans, checkpoints) stays writable
    expect(protectedName('/home/u/.gemini/tmp/3f2a/plans/plan.md')).toBeNull();
    expect(protectedEntry('.gemini/tmp/plans/plan.md')).toBeNull();
    expect(protectedName('/home/u/.gemini/t*/x')).toBe('.gemini/');
  });
});
