import { describe, expect, it } from 'vitest';
import { codexAdapter, patchedFiles } from '../../../../src/agent/adapters/codex.js';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');

describe('patchedFiles', () => {
  it('reads hunk headers after any whitespace Codex’s parser trims (spaces, a tab, U+0085), and Move to', () => {
    expect(
      patchedFiles(
        patch(
          '  *** Add File: .git/hooks/pre-commit',
          '+exit 0',
          '\t*** Update File: .hestai_workspace.yaml',
          '\u0085*** Move to: a/b.ts',
          ' *** Delete File: c.ts ',
        ),
      ),
    ).toEqual(['.git/hooks/pre-commit', '.hestai_workspace.yaml', 'a/b.ts', 'c.ts']);
  });
});

describe('codexAdapter.toolUse', () => {
  const use = (tool_name: string, command: string) =>
    codexAdapter.toolUse({ tool_name, tool_input: { command } } as Record<string, unknown>);

  it('a patch that names no file is refused, saying so (fail closed)', () => {
    const found = use('apply_patch', patch('+exit 0'));
    expect(found.paths).toEqual([]);
    expect(found.refuse?.reason).toContain('names no file hestai can read');
  });

  it('the shell form `cd <dir> && apply_patch <<EOF` is a patch of the files it names, under <dir>', () => {
    const heredoc = (first: string) =>
      [first, '*** Begin Patch', '*** Add File: hooks/pre-commit', '+exit 0', '*** End Patch', 'EOF'].join('\n');
    expect(use('Bash', heredoc("cd .git && apply_patch <<'EOF'"))).toMatchObject({
      tool: 'apply_patch',
      paths: ['.git/hooks/pre-commit'],
      kind: 'write',
    });
    expect(use('Bash', heredoc('cd "/r/.git" && applypatch <<EOF')).paths).toEqual(['/r/.git/hooks/pre-commit']);
    expect(use('Bash', heredoc("apply_patch <<'EOF'")).paths).toEqual(['hooks/pre-commit']);
    expect(use('Bash', heredoc("cd $HOME && apply_patch <<'EOF'")).refuse?.reason).toContain('cannot resolve');
  });
});
