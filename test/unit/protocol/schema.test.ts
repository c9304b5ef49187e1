import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateProtocolText } from '../../../src/protocol/validate.js';
import { PROJECT_ROOT } from '../../helpers/git-repo.js';

const template = (name: string) => fs.readFileSync(path.join(PROJECT_ROOT, 'templates', 'protocol', name), 'utf8');

describe('protocol.yaml schema', () => {
  it('accepts the default protocol: binding ceremony and end duties, MUST gates block by default', () => {
    const { protocol, errors } = validateProtocolText(template('default.yaml'));
    expect(errors).toEqual([]);
    expect(protocol!.phases.map((p) => [p.id, p.stage])).toEqual([
      ['BINDING', 'start'],
      ['WORK', 'work'],
      ['END', 'end'],
    ]);
    const binding = protocol!.phases[0]!.gates.map((g) => [g.id, g.level, g.blocking, g.check.type]);
    expect(binding).toEqual([
      ['clock_in', 'MUST', true, 'context_fresh'],
      ['read_context', 'MUST', true, 'evidence'],
      ['anchor', 'MUST', true, 'anchor_valid'],
    ]);
    const end = protocol!.phases[2]!.gates;
    expect(end.map((g) => g.check.type)).toEqual([
      'file_modified_since_start',
      'command',
      'git_commit_since_start',
      'tests_first',
      'git_clean',
    ]);
    // Post-commit checks are never evaluated by pre-commit.
    expect(end.filter((g) => !g.pre_commit).map((g) => g.id)).toEqual(['committed', 'clean_tree']);
  });

  it("ships the seed's nine phases as an example, each mapped to built-in checks", () => {
    const { protocol, errors } = validateProtocolText(template('seed-004.yaml'));
    expect(errors).toEqual([]);
    expect(protocol!.phases.map((p) => p.id)).toEqual([
      'SERENA_INIT',
      'SKILL_VALIDATION',
      'CONTEXT_RETRIEVAL',
      'SESSION_LOG',
      'GIT_STATE',
      'DOCS_UPDATE',
      'QUALITY_CHECKS',
      'QA_VALIDATION',
      'GIT_COMMIT',
    ]);
    expect(protocol!.phases.filter((p) => p.stage === 'start')).toHaveLength(5);
    expect(protocol!.phases.filter((p) => p.stage === 'end')).toHaveLength(4);
    // Every gate of the template that takes tool output about git compares it with git itself.
    const git = protocol!.phases.find((p) => p.id === 'GIT_STATE')!;
    expect(git.gates.find((g) => g.id === 'git_state')!.check).toEqual({ type: 'git_state' });
  });

  it('reports an unknown key with its line and the nearest known key', () => {
    const text = [
      'version: 1',
      'phases:',
      '  - id: A',
      '    gates:',
      '      - id: g',
      '        step: do it',
      '        levle: MUST',
      '        check: { type: git_clean }',
      '',
    ].join('\n');
    const { protocol, errors } = validateProtocolText(text);
    expect(protocol).toBeNull();
    const unknown = errors.find((e) => e.key === 'phases.0.gates.0.levle');
    expect(unknown).toMatchObject({ line: 7 });
    expect(unknown!.message).toContain('did you mean "level"');
  });

  it('suggests the nearest key inside a check', () => {
    const text = [
      'version: 1',
      'phases:',
      '  - id: A',
      '    gates:',
      '      - id: g',
      '        step: do it',
      '        level: MUST',
      '        check: { type: file_exists, pth: README.md }',
      '',
    ].join('\n');
    const { errors } = validateProtocolText(text);
    expect(errors.map((e) => e.message).join('\n')).toMatch(/did you mean "path"/);
    expect(errors.some((e) => e.line === 8)).toBe(true);
  });

  it('refuses a bad level, an unknown check type, duplicate ids and paths outside the repository', () => {
    const text = [
      'version: 1',
      'phases:',
      '  - id: A',
      '    gates:',
      '      - { id: g, step: s, level: REQUIRED, check: { type: git_clean } }',
      '      - { id: g, step: s, level: MUST, check: { type: run_anything } }',
      '      - { id: h, step: s, level: MUST, check: { type: file_exists, path: ../etc/passwd } }',
      '  - id: A',
      '',
    ].join('\n');
    const { protocol, errors } = validateProtocolText(text);
    expect(protocol).toBeNull();
    const keys = errors.map((e) => e.key);
    expect(keys).toContain('phases.0.gates.0.level');
    expect(keys).toContain('phases.0.gates.1.check.type');
    expect(keys).toContain('phases.0.gates.2.check.path');
    expect(errors.every((e) => e.line !== undefined)).toBe(true);
  });

  it('refuses pre_commit: true on a gate that can only hold after the commit', () => {
    const text = [
      'version: 1',
      'phases:',
      '  - id: A',
      '    gates:',
      '      - { id: c, step: commit, level: MUST, pre_commit: true, check: { type: git_commit_since_start } }',
      '',
    ].join('\n');
    const { errors } = validateProtocolText(text);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ key: 'phases.0.gates.0.pre_commit' });
    expect(errors[0]!.message).toContain('only hold after the commit');
  });

  it('needs a file for content_hash evidence and refuses the reserved phase id COMPLETE', () => {
    const text = [
      'version: 1',
      'phases:',
      '  - id: COMPLETE',
      '    gates:',
      '      - { id: e, step: read, level: MUST, check: { type: evidence, accepts: [content_hash] } }',
      '',
    ].join('\n');
    const keys = validateProtocolText(text).errors.map((e) => e.key);
    expect(keys).toEqual(expect.arrayContaining(['phases.0.id', 'phases.0.gates.0.check.path']));
  });

  it('reports invalid YAML with its line', () => {
    const { protocol, errors } = validateProtocolText('version: 1\nphases: [\n');
    expect(protocol).toBeNull();
    expect(errors[0]!.message).toMatch(/invalid YAML/);
    expect(errors[0]!.line).toBeGreaterThan(0);
  });
});
