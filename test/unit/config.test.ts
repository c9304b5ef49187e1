import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/defaults.js';
import { configSchema } from '../../src/config/schema.js';
import { nearest } from '../../src/config/suggest.js';
import { validateConfigText } from '../../src/config/validate.js';

describe('workspace config', () => {
  it('has its defaults in one place: the schema default equals DEFAULTS', () => {
    expect(configSchema.parse({})).toEqual(DEFAULTS);
  });

  it('accepts the seed example and fills in defaults', () => {
    const text = [
      'context_paths:',
      '  additional:',
      '    - docs/architecture/',
      '    - .github/workflows/',
      '  exclude:',
      '    - node_modules/',
      'github:',
      '  issue_search: true',
      '  pr_context: true',
      'ai:',
      '  model_override: "anthropic/claude-3.5-sonnet"',
      'cleanup:',
      '  stale_session_hours: 72',
      '  archive_retention_days: 30',
      'tdd:',
      '  policy: scoped',
      '  types: [feat, fix]',
      '',
    ].join('\n');
    const { config, errors } = validateConfigText(text);
    expect(errors).toEqual([]);
    expect(config?.context_paths.additional).toEqual(['docs/architecture/', '.github/workflows/']);
    expect(config?.ai.model_override).toBe('anthropic/claude-3.5-sonnet');
    expect(config?.tdd.policy).toBe('scoped');
    expect(config?.tdd.types).toEqual(['feat', 'fix']);
    expect(config?.freshness.max_age_hours).toBe(24);
  });

  it('treats an empty file as all defaults', () => {
    expect(validateConfigText('').config).toEqual(DEFAULTS);
  });

  it('reports an unknown key with its path, line and the nearest known key', () => {
    const { config, errors } = validateConfigText('cleanup:\n  stale_sesion_hours: 12\n');
    expect(config).toBeNull();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ key: 'cleanup.stale_sesion_hours', line: 2 });
    expect(errors[0]!.message).toContain('did you mean "stale_session_hours"');
  });

  it('suggests the nearest top-level key', () => {
    const { errors } = validateConfigText('freshnes:\n  max_age_hours: 2\n');
    expect(errors[0]!.message).toContain('did you mean "freshness"');
  });

  it('collects every error at once, each with its key path and line', () => {
    const text = [
      'tdd:',
      '  policy: strict',
      '  types: []',
      'freshness:',
      '  max_age_hours: -1',
      'hooks:',
      '  trailers: yes-please',
      '',
    ].join('\n');
    const { config, errors } = validateConfigText(text);
    expect(config).toBeNull();
    const byKey = Object.fromEntries(errors.map((e) => [e.key, e]));
    expect(Object.keys(byKey).sort()).toEqual(['freshness.max_age_hours', 'hooks.trailers', 'tdd.policy', 'tdd.types']);
    expect(byKey['tdd.policy']!.line).toBe(2);
    expect(byKey['tdd.policy']!.message).toMatch(/paired|scoped|any/);
    expect(byKey['freshness.max_age_hours']!.line).toBe(5);
    expect(byKey['hooks.trailers']!.line).toBe(7);
  });

  it('agents.read_tools lists tool names and name* prefixes, never a tool hestai judges itself', () => {
    const ok = validateConfigText('agents:\n  read_tools: [mcp__github__get_issue, "mcp__github__list_*", SomeTool]\n');
    expect(ok.errors).toEqual([]);
    expect(ok.config?.agents.read_tools).toEqual(['mcp__github__get_issue', 'mcp__github__list_*', 'SomeTool']);
    expect(validateConfigText('').config?.agents.read_tools).toEqual([]);
    for (const [pattern, named] of [
      ['Bash', 'Bash'],
      ['bash', 'Bash'],
      ['B*', 'Bash'],
      ['*', 'Bash'],
      ['Edit', 'Edit'],
      ['Write*', 'Write'],
      ['write_file', 'write_file'],
      ['run_shell_*', 'run_shell_command'],
      ['PowerShell', 'PowerShell'],
      ['shell', 'shell'],
      ['mcp__*', 'mcp__hestai__'],
      ['mcp__hest*', 'mcp__hestai__'],
      ['mcp__hestai__clock_out', 'mcp__hestai__'],
      ['mcp__hestai__*', 'mcp__hestai__'],
    ]) {
      const { config, errors } = validateConfigText(`agents:\n  read_tools:\n    - "${pattern}"\n`);
      expect(config, pattern).toBeNull();
      expect(errors, pattern).toHaveLength(1);
      expect(errors[0], pattern).toMatchObject({ key: 'agents.read_tools.0', line: 3 });
      expect(errors[0]!.message, pattern).toContain(named);
    }
    for (const pattern of ['mcp__x__y z', 'a*b', '**', '']) {
      const { errors } = validateConfigText(`agents:\n  read_tools: ["${pattern}"]\n`);
      expect(
        errors.map((e) => e.key),
        pattern,
      ).toEqual(['agents.read_tools.0']);
      expect(errors[0]!.message, pattern).toContain('a tool name');
    }
  });

  it('verify.merge_regenerated lists globs, empty by default; an empty or non-list entry is an error with its key and line', () => {
    expect(validateConfigText('').config?.verify.merge_regenerated).toEqual([]);
    const ok = validateConfigText('verify:\n  merge_regenerated: [package-lock.json, "**/yarn.lock"]\n');
    expect(ok.config?.verify.merge_regenerated).toEqual(['package-lock.json', '**/yarn.lock']);
    const empty = validateConfigText('verify:\n  merge_regenerated:\n    - ""\n');
    expect(empty.errors[0]).toMatchObject({ key: 'verify.merge_regenerated.0', line: 3 });
    const scalar = validateConfigText('verify:\n  merge_regenerated: package-lock.json\n');
    expect(scalar.errors[0]).toMatchObject({ key: 'verify.merge_regenerated', line: 2 });
  });

  it('refuses paths that leave the repository', () => {
    const { errors } = validateConfigText('context_paths:\n  additional:\n    - ../secrets\n    - /etc/passwd\n');
    expect(errors.map((e) => e.key)).toEqual(['context_paths.additional.0', 'context_paths.additional.1']);
    expect(errors[0]!.line).toBe(3);
    expect(errors[1]!.line).toBe(4);
  });

  it('gives line and column for invalid YAML', () => {
    const { config, errors } = validateConfigText('tdd:\n  policy: [paired\nfreshness: 1\n');
    expect(config).toBeNull();
    expect(errors[0]!.message).toMatch(/^invalid YAML/);
    expect(errors[0]!.line).toBeGreaterThanOrEqual(2);
    expect(errors[0]!.column).toBeGreaterThanOrEqual(1);
  });

  it('refuses a document that is not a mapping', () => {
    const { errors } = validateConfigText('- a\n- b\n');
    expect(errors[0]!.message).toContain('mapping');
  });

  it('refuses duplicate keys', () => {
    const { errors } = validateConfigText('tdd:\n  policy: any\ntdd:\n  policy: paired\n');
    expect(errors[0]!.message).toMatch(/invalid YAML/);
  });
});

describe('tdd.since', () => {
  const SHA1 = '2c556a9f0e3b4d5c6a7b8c9d0e1f2a3b4c5d6e7f';
  const SHA256 = `${SHA1}${'0123456789abcdef01234567'}`;

  it.each([SHA1, SHA256])('takes a full lower-case sha (%s) ', (sha) => {
    const { config, errors } = validateConfigText(`tdd:\n  since: "${sha}"\n`);
    expect(errors).toEqual([]);
    expect(config?.tdd.since).toBe(sha);
  });

  it.each([
    ['2c556a9', /"2c556a9" is 7 hex digits, a short sha/],
    [SHA1.toUpperCase(), /has upper-case letters/],
    [`${SHA1.slice(0, 20).toUpperCase()}${SHA1.slice(20)}`, /has upper-case letters/],
    [`${SHA1}0`, /41 hex digits/],
    ['main', /not a sha/],
    [`${SHA1.slice(0, 39)}g`, /not a sha/],
  ])('refuses %s , saying what is wrong and the command that prints the full sha', (since, what) => {
    const { config, errors } = validateConfigText(`tdd:\n  since: "${since}"\n`);
    expect(config).toBeNull();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ key: 'tdd.since', line: 2 });
    expect(errors[0]!.message).toMatch(what);
    expect(errors[0]!.message).toContain('full lower-case commit sha (40 or 64 hex digits)');
    expect(errors[0]!.message).toContain(`git rev-parse ${since}`);
  });
});

describe('nearest', () => {
  it('finds close candidates and ignores distant ones', () => {
    expect(nearest('polcy', ['policy', 'types'])).toBe('policy');
    expect(nearest('zzzzzzzz', ['policy', 'types'])).toBeNull();
  });
});
