import { describe, expect, it } from 'vitest';
import { isAdoptionCommit } from '../../../src/verify/adoption.js';
import { isAdoptionFile } from '../../../src/paths.js';

const PARENT = 'a'.repeat(40);
const INIT_FILES = [
  '.gitignore',
  '.hestai-sys/agents/implementation-lead.oct.md',
  '.hestai/context/PROJECT-CONTEXT.oct.md',
  '.hestai/protocol.yaml',
  '.hestai_workspace.yaml',
];

describe('the adoption commit (issue 24, item 5)', () => {
  it('is the commit that adds the config with tdd.since at its parent and only files hestai init writes', () => {
    const noPolicy = { policyHasConfig: false, inPolicyHistory: false };
    expect(
      isAdoptionCommit({ parents: [PARENT], files: INIT_FILES, parentHasConfig: false, since: PARENT, ...noPolicy }),
    ).toBe(true);
    expect(isAdoptionCommit({ parents: [], files: INIT_FILES, parentHasConfig: false, since: null, ...noPolicy })).toBe(
      true,
    );
  });

  it('is not a commit with any other file, a parent that has a config, another since, or two parents', () => {
    const base = {
      parents: [PARENT],
      files: INIT_FILES,
      parentHasConfig: false,
      since: PARENT,
      policyHasConfig: false,
      inPolicyHistory: false,
    };
    expect(isAdoptionCommit({ ...base, files: [...INIT_FILES, 'src/backdoor.js'] })).toBe(false);
    expect(isAdoptionCommit({ ...base, files: INIT_FILES.filter((f) => f !== '.hestai_workspace.yaml') })).toBe(false);
    expect(isAdoptionCommit({ ...base, parentHasConfig: true })).toBe(false);
    expect(isAdoptionCommit({ ...base, since: 'b'.repeat(40) })).toBe(false);
    expect(isAdoptionCommit({ ...base, since: null })).toBe(false);
    expect(isAdoptionCommit({ ...base, parents: [PARENT, 'c'.repeat(40)] })).toBe(false);
  });

  it("once the base has a config, is only the one in the policy commit's history", () => {
    const facts = { parents: [PARENT], files: INIT_FILES, parentHasConfig: false, since: PARENT };
    expect(isAdoptionCommit({ ...facts, policyHasConfig: true, inPolicyHistory: true })).toBe(true);
    expect(isAdoptionCommit({ ...facts, policyHasConfig: true, inPolicyHistory: false })).toBe(false);
    expect(isAdoptionCommit({ ...facts, policyHasConfig: false, inPolicyHistory: false })).toBe(true);
  });

  it('knows every file init writes in its modes, and no other', () => {
    for (const file of [
      ...INIT_FILES,
      '.husky/pre-commit',
      '.husky/commit-msg',
      '.husky/pre-push',
      'lefthook.yml',
      '.lefthook.yaml',
      '.mcp.json',
      '.claude/settings.json',
      '.codex/hooks.json',
      '.gemini/settings.json',
      '.cursor/hooks.json',
    ])
      expect(isAdoptionFile(file), file).toBe(true);
    for (const file of ['package.json', '.husky/post-merge', '.hestai-sys/agents/x/y.oct.md', 'src/.gitignore'])
      expect(isAdoptionFile(file), file).toBe(false);
  });
});
