import { describe, expect, it } from 'vitest';
import { isHestaiStart, plainWords, shellMentions } from '../../../src/agent/shell.js';
import { classifyToolUse } from '../../../src/agent/tool-use.js';
import { isShellToolName, readToolPatternProblem } from '../../../src/util/agent-tools.js';

const BIN = '/opt/hestai/dist/cli/bin.js';
const SELF = '0b7c8a52-4a7e-4f00-9d21-000000000001';
const OTHER = '0b7c8a52-4a7e-4f00-9d21-000000000002';

describe('hestai’s own start commands are the one shell command before the anchor (issue 37, item 1)', () => {
  it.each([
    'hestai status',
    'hestai --json status',
    'hestai clock-in --role implementation-lead --json',
    `hestai anchor --stage identity --role r --session ${SELF}`,
    `hestai anchor --stage proof --token=${SELF} --payload-file /tmp/proof.oct`,
    'hestai clock-in --role r --on-conflict continue',
    `node ${BIN} status`,
    `node '${BIN}' session show`,
    'hestai session blocked --json',
    'hestai odyssean-anchor --vector-file /tmp/v',
    'hestai help',
    'hestai --version',
    '  hestai status  ',
  ])('%s passes', (command) => expect(isHestaiStart(command, [BIN], ['hestai'], SELF)).toBe(true));

  it('`hestai` passes only where it runs the installed CLI (the caller says so); `npx hestai` never (npm config can redirect it)', () => {
    expect(isHestaiStart('hestai status', [BIN], [])).toBe(false);
    expect(isHestaiStart('npx hestai status', [BIN], ['hestai'])).toBe(false);
    expect(isHestaiStart('npx --no hestai status', [BIN], ['hestai'])).toBe(false);
    expect(isHestaiStart(`node ${BIN} status`, [BIN], [])).toBe(true);
  });

  it.each([
    'hestai clock-out',
    `hestai clock-out --session ${OTHER}`,
    'hestai refresh',
    'hestai clock-in --role r --on-conflict takeover',
    'hestai clock-in --role r --on-conflict=takeover',
    'hestai session start --objective x',
    'hestai session end',
    'hestai session advance',
    'hestai session evidence --gate g --type t --value v',
    'hestai session gate',
    `hestai status --session ${OTHER}`,
    `hestai anchor --stage identity --role r --token ${OTHER}`,
    `hestai anchor --stage identity --role r --session=${OTHER}`,
    `hestai odyssean-anchor --session ${OTHER} --vector-file /tmp/v`,
  ])('attack: %j changes or names another session: refused before the anchor (F2)', (command) =>
    expect(isHestaiStart(command, [BIN], ['hestai'], SELF)).toBe(false),
  );

  it('an agent with no session names none: `--session` and `--token` are refused', () => {
    expect(isHestaiStart(`hestai status --session ${SELF}`, [BIN], ['hestai'], null)).toBe(false);
    expect(isHestaiStart('hestai status', [BIN], ['hestai'], null)).toBe(true);
  });

  it.each([
    'hestai status; touch F',
    'hestai status && touch F',
    'hestai status || touch F',
    'hestai status | tee F',
    'hestai status > F',
    'hestai status < F',
    'hestai status &',
    'hestai status $(touch F)',
    'hestai status ${HOME}',
    'hestai status `touch F`',
    'hestai status "$X"',
    'hestai status\ntouch F',
    'hestai status\\\ntouch F',
    '(hestai status)',
    '{ hestai status; }',
    'HESTAI_SESSION=x hestai status',
    'env hestai status',
    'hestai',
    'hestai trust',
    'hestai anchor reset --token x',
    'hestai anchor --stage identity reset',
    'hestai ack --session x --reason y',
    'hestai init',
    'hestai cleanup',
    'hestai verify',
    'hestai doctor',
    'hestai mcp',
    'hestai --cwd /tmp status',
    'hestai --cwd=/tmp status',
    'hestai status --cwd /tmp',
    'npx hestai-evil status',
    'npx -p evil hestai status',
    'npx --yes hestai status',
    'node /tmp/bin.js status',
    `node ${BIN}x status`,
    `node --require /tmp/x.js ${BIN} status`,
    'hestai status ~/x',
    'hestai status *',
    'hestai status x?',
    'hestai status [ab]',
    'hestai status #x',
    "hestai status 'unterminated",
  ])('%j is refused', (command) => expect(isHestaiStart(command, [BIN], ['hestai'], SELF)).toBe(false));

  it('plainWords reads quotes, and is null for any shell syntax', () => {
    expect(plainWords(`node '/a b/bin.js' status --focus "two words"`)).toEqual([
      'node',
      '/a b/bin.js',
      'status',
      '--focus',
      'two words',
    ]);
    expect(plainWords('a "$b"')).toBeNull();
    expect(plainWords('a "`b`"')).toBeNull();
    expect(plainWords("a 'x\ny'")).toBeNull();
    expect(plainWords('a\\ b')).toBeNull();
  });
});

describe('after the anchor: what a plain tokenizer sees of the rules’ own files (item 2)', () => {
  it('every word, split at operators and quotes, may name a path; the value of -c core.hooksPath= does not', () => {
    expect(shellMentions('echo x>.git/hooks/pre-commit', [])).toEqual(
      expect.arrayContaining(['.git/hooks/pre-commit']),
    );
    expect(shellMentions("sed -i 's/a/b/' '.hestai_workspace.yaml'", [])).toContain('.hestai_workspace.yaml');
    expect(shellMentions('cat<in|tee -a ~/.claude/settings.json', [])).toContain('~/.claude/settings.json');
    expect(shellMentions('HESTAI_SESSION=x git -c core.hooksPath=/r/.git/hooks commit -m x', [])).not.toContain(
      '/r/.git/hooks',
    );
    expect(shellMentions(`node ${BIN} ack --session x`, [BIN])).not.toContain(BIN);
  });
});

describe('tool calls: reads, hestai, shells and writes', () => {
  const use = (tool: string, command: string | null = null, paths: string[] = []) =>
    classifyToolUse({ tool, paths, command, kind: null }, [BIN]);

  it('a shell tool is a shell whatever its command; its exact hestai start is hestai', () => {
    expect(use('Bash', 'cat src/app.ts')).toMatchObject({ kind: 'shell', what: 'Bash' });
    expect(use('PowerShell', 'Get-Content a')).toMatchObject({ kind: 'shell' });
    expect(use('shell', null)).toMatchObject({ kind: 'shell' });
    expect(use('Bash', `node ${BIN} status`)).toEqual({ kind: 'hestai' });
    expect(use('Bash', 'hestai status')).toMatchObject({ kind: 'shell' }); // unless the caller says it is the CLI
    expect(use('Read', null, ['a'])).toEqual({ kind: 'read' });
    expect(use('Edit', null, ['a'])).toMatchObject({ kind: 'write', targets: ['a'] });
    expect(use('mcp__x__y')).toMatchObject({ kind: 'write', targets: null });
  });

  it('a base policy can never list a shell tool as a read: not by name, not by pattern', () => {
    for (const tool of ['Bash', 'exec_command', 'run_shell_command', 'mcp__desktop__run_command', 'terminal', 'pwsh'])
      expect(isShellToolName(tool), tool).toBe(true);
    expect(isShellToolName('mcp__github__get_issue')).toBe(false);
    expect(
      classifyToolUse(
        { tool: 'mcp__desktop__run_command', paths: [], command: null, kind: null },
        [],
        ['mcp__desktop__*'],
      ),
    ).toMatchObject({ kind: 'write' });
    expect(
      classifyToolUse({ tool: 'mcp__desktop__read', paths: [], command: null, kind: null }, [], ['mcp__desktop__*']),
    ).toEqual({ kind: 'read' });
    expect(readToolPatternProblem('mcp__desktop__run_command')).toContain('shell');
    expect(readToolPatternProblem('exec_command')).toContain('shell');
    expect(readToolPatternProblem('mcp__github__get_*')).toBeNull();
  });
});
