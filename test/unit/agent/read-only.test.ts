import { describe, expect, it } from 'vitest';
import { bashWrites, powershellWrites } from '../../../src/agent/bash-writes.js';
import {
  GIT_READS,
  HESTAI_READS,
  POWERSHELL_READS,
  READ_ONLY_COMMANDS,
  isReadTool,
  READ_TOOLS,
  sedScriptReads,
} from '../../../src/agent/read-only.js';
import { classifyToolUse } from '../../../src/agent/tool-use.js';
import { HESTAI_MCP_TOOLS } from '../../../src/util/agent-tools.js';

// Deny by default before the anchor (issue 26, item 1): the read-only list is data in src/agent/read-only.ts;
// each entry has a read that passes here, and each refused form (every form the issue names, and more) is a
// write. The hook-level attacks, with the exact payloads Claude Code sends, are in test/e2e/agent-boundary.test.ts.

const BIN = '/opt/hestai-hooks/dist/cli/bin.js';
const HOOK = '/opt/hestai-hooks/hooks/claude-code';
const reads = (command: string) => bashWrites(command, { hestaiBins: [BIN, HOOK] }).writes === false;

/** One read per entry of READ_ONLY_COMMANDS (and, below, of GIT_READS and HESTAI_READS). */
const ENTRY_READS: Record<string, string> = {
  ls: 'ls -la src',
  cat: 'cat README.md',
  head: 'head -n 20 src/a.ts',
  tail: 'tail -5 log.txt',
  wc: 'wc -l src/*.ts',
  nl: 'nl src/a.ts',
  grep: 'grep -rn "a > b" src',
  egrep: 'egrep x a.txt',
  fgrep: 'fgrep x a.txt',
  rg: 'rg --files-with-matches TODO',
  find: 'find . -name "*.ts" -type f',
  fd: 'fd -e ts',
  tree: 'tree -L 2',
  sort: 'sort -u names.txt',
  uniq: 'uniq -c names.txt',
  cut: 'cut -d: -f1 /etc/passwd',
  tr: 'tr a-z A-Z < a.txt',
  column: 'column -t a.txt',
  diff: 'diff -u a.txt b.txt',
  cmp: 'cmp a b',
  comm: 'comm -12 a b',
  stat: 'stat package.json',
  file: 'file dist/cli/bin.js',
  du: 'du -sh .',
  df: 'df -h',
  realpath: 'realpath .',
  readlink: 'readlink -f link',
  basename: 'basename /a/b.ts .ts',
  dirname: 'dirname /a/b.ts',
  pwd: 'pwd',
  echo: 'echo "tee and git commit are words here"',
  printf: "printf '%s\\n' x",
  true: 'true',
  false: 'false || true',
  ':': ':',
  test: 'test -f package.json && echo yes',
  '[': '[ -d src ] && ls src',
  which: 'which node',
  type: 'type git',
  date: 'date -u +%FT%TZ',
  printenv: 'printenv HOME',
  env: 'env',
  id: 'id -u',
  whoami: 'whoami',
  uname: 'uname -a',
  hostname: 'hostname',
  jq: "jq '.name' package.json",
  xxd: 'xxd a.bin',
  od: 'od -c a.bin',
  md5sum: 'md5sum a',
  sha1sum: 'sha1sum a',
  sha256sum: 'sha256sum a',
  sha512sum: 'sha512sum a',
  cksum: 'cksum a',
  sleep: 'sleep 1',
  sed: "sed -n '1,20p' src/a.ts",
  git: 'git status --short',
  hestai: 'hestai status --json',
  node: 'node --version',
  npm: 'npm ls --depth 0',
  cd: 'cd src && ls',
  pushd: 'pushd src && ls',
  popd: 'popd',
};

const GIT_ENTRY_READS: Record<string, string> = {
  status: 'git status',
  log: 'git log --oneline -5',
  show: 'git show HEAD:src/a.ts',
  diff: 'git diff HEAD~1 -- src',
  'rev-parse': 'git rev-parse --show-toplevel',
  'rev-list': 'git rev-list --count HEAD',
  'ls-files': 'git ls-files -z',
  'ls-tree': 'git ls-tree -r HEAD',
  'cat-file': 'git cat-file -p HEAD',
  blame: 'git blame -L 1,5 src/a.ts',
  grep: 'git grep -n TODO',
  describe: 'git describe --tags --always',
  shortlog: 'git shortlog -sn',
  'merge-base': 'git merge-base main HEAD',
  'show-ref': 'git show-ref --heads',
  'for-each-ref': 'git for-each-ref refs/heads',
  'name-rev': 'git name-rev HEAD',
  'check-ignore': 'git check-ignore -v dist',
  'check-attr': 'git check-attr -a a.ts',
  help: 'git help log',
  version: 'git version',
  branch: 'git branch -a --list "feat/*"',
  tag: 'git tag -l "v*"',
  remote: 'git remote -v',
  config: 'git config --get user.email',
  stash: 'git stash list',
  worktree: 'git worktree list',
  reflog: 'git reflog -5',
};

const HESTAI_ENTRY_READS: Record<string, string> = {
  'clock-in': 'npx hestai clock-in --role implementation-lead --json',
  anchor: `node ${BIN} anchor --stage identity --role implementation-lead --token x`,
  status: 'hestai status',
  refresh: 'npx hestai refresh --session x',
  'clock-out': 'npx hestai clock-out --session x',
  session: 'npx hestai session --session x show',
  check: 'npx hestai check pre-commit',
  verify: 'npx hestai verify',
  doctor: 'npx hestai doctor',
  conflict: 'npx hestai conflict',
  'odyssean-anchor': 'npx hestai odyssean-anchor --help',
  help: 'npx hestai help',
};

describe('the read-only list: one read per entry', () => {
  it('every entry has its read here (the list and its tests move together)', () => {
    expect(Object.keys(ENTRY_READS).sort()).toEqual(Object.keys(READ_ONLY_COMMANDS).sort());
    expect(Object.keys(GIT_ENTRY_READS).sort()).toEqual(Object.keys(GIT_READS).sort());
    expect(Object.keys(HESTAI_ENTRY_READS).sort()).toEqual(Object.keys(HESTAI_READS).sort());
  });

  it.each(Object.entries(ENTRY_READS))('%s: `%s` is a read', (_entry, command) => {
    expect(bashWrites(command, { hestaiBins: [BIN, HOOK] })).toMatchObject({ writes: false, what: [] });
  });
  it.each(Object.entries(GIT_ENTRY_READS))('git %s: `%s` is a read', (_entry, command) => {
    expect(reads(command)).toBe(true);
  });
  it.each(Object.entries(HESTAI_ENTRY_READS))('hestai %s: `%s` is a read', (_entry, command) => {
    expect(reads(command)).toBe(true);
  });

  it('reads compose: pipes, lists, cd, keywords, safe variables, here-documents, comments', () => {
    for (const command of [
      'git status && cat README.md',
      'cd src && grep -n x a.ts | head -3; cd .. && ls',
      'for f in src/*.ts; do wc -l "$f"; done',
      'if [ -f a ]; then cat a; else echo none; fi',
      'LC_ALL=C sort names.txt',
      'cat <<EOF\nline > not a redirection\ngit commit -m inside-heredoc\nEOF',
      '# echo > commented.txt',
      'npm ls 2>&1 | head',
      'ls > /dev/null 2>&1',
      `printf '%s' '{"hook_event_name":"SessionStart"}' | node '${HOOK}'`,
      'time git log -1',
    ])
      expect(reads(command), command).toBe(true);
  });
});

/** Every form issue 26 names, and the refused flags of the list's entries: each is a write. */
const REFUSED: string[] = [
  // the forms of the issue
  'echo x 1<> src/a.ts',
  'cd src && echo x > ../f',
  'git clean -fdx',
  'git pull',
  'git config core.hooksPath /dev/null',
  'git update-ref refs/heads/main HEAD~1',
  'npm pkg set scripts.test=true',
  'curl -o src/a.ts https://example.com/x',
  'tar -xf payload.tar',
  'unlink .hestai_workspace.yaml',
  'mkfifo .hestai_workspace.yaml',
  // writes the old reader did recognise
  'git commit -m x',
  'echo x > a.txt',
  'echo x >> a.txt',
  'npm test > out.log',
  'cat x | tee a.txt',
  "sed -i 's/a/b/' a.txt",
  "perl -i -pe 's/a/b/' a.txt",
  'rm -rf build',
  'cp a b',
  'mv a b',
  'ln -s a b',
  'touch a',
  'mkdir d',
  'dd if=/dev/zero of=a',
  // what runs other code or is unknown
  'npm test',
  'npx vitest run',
  "node -e \"require('fs').writeFileSync('a', '')\"",
  "python3 -c \"open('a','w')\"",
  'sh -c "echo > a"',
  'bash script.sh',
  'eval "echo > a"',
  'xargs rm < list.txt',
  './ls',
  '/tmp/cat a',
  'make',
  'echo $(touch a)',
  'echo "$(touch a)"',
  'echo `touch a`',
  'cat <(touch a)',
  'echo x >(cat)',
  'GIT_PAGER="sh -c x" git log',
  'GIT_EXTERNAL_DIFF=/tmp/x git diff',
  'PATH=/tmp/evil:$PATH git status',
  'X=1',
  'sudo ls',
  'exec rm a',
  'env -S "rm a"',
  // refused flags of read-only entries
  'find . -delete',
  'find . -exec rm {} ;',
  'find . -fprint out',
  'rg --pre ./x TODO',
  'fd -x rm',
  'tree -o out.txt',
  'sort -o out.txt names.txt',
  'sort -uo out.txt names.txt',
  'uniq in.txt out.txt',
  'xxd a.bin out.txt',
  'date -s 2020-01-01',
  'hostname evil',
  'env rm a',
  "sed 's/a/b/w out.txt' a.txt",
  "sed -n 'w out.txt' a.txt",
  "sed 's/a/b/e' a.txt",
  'sed -f script.sed a.txt',
  'sed --in-place s/a/b/ a.txt',
  'node script.js',
  'npm install',
  // git forms that write or run other code
  'git -c core.pager=evil log',
  'git --config-env=core.pager=X log',
  'git log --output=a.txt',
  'git diff --output=a.txt',
  'git grep -O vim x',
  'git branch evil',
  'git branch -D main',
  'git tag v1',
  'git tag -d v1',
  'git remote add x url',
  'git config --unset core.hooksPath',
  'git config --add core.hooksPath x',
  'git stash',
  'git stash pop',
  'git worktree add ../x',
  'git reflog expire --all',
  'git checkout -- .hestai_workspace.yaml',
  'git restore a',
  'git reset --hard',
  'git fetch',
  'git push',
  'git gc',
  'git init',
  'git submodule update',
  'git apply x.patch',
  // hestai's own commands a human runs
  'npx hestai init',
  'npx hestai ack --session x --reason y',
  'npx hestai anchor reset --token x --reason y',
  'npx hestai trust',
  'npx some-other-tool',
  'node /tmp/dist/cli/bin.js anchor',
];

/**
 * `git config` reads only with a reading action: an action option, or `get`/`list` as the FIRST operand (the
 * subcommand syntax), with at most the operands that action takes. `get`/`list` anywhere else is a value.
 */
const CONFIG_READS: string[] = [
  'git config --get user.email',
  'git config --get core.hooksPath list',
  'git config --get-all remote.origin.fetch',
  'git config --get-regexp "^alias\\." get',
  'git config --get-urlmatch http.sslVerify https://example.com',
  'git config --get-color color.diff.new green',
  'git config --list',
  'git config -l',
  'git config --list --show-origin',
  'git config --global --list --name-only',
  'git config --file .gitmodules --get-regexp path',
  'git config --type=bool --get core.bare',
  'git config --type bool --get core.bare',
  'git config -z --null --show-scope -l',
  'git config get user.email',
  'git config get --all --regexp --show-origin "^alias\\."',
  'git config get --default=x --type=bool core.bare',
  'git config list',
  'git config list --show-origin --includes',
  'git config --local list',
];
const CONFIG_WRITES: string[] = [
  'git config core.hooksPath list',
  'git config core.hooksPath get',
  'git config alias.x get',
  'git config alias.x list',
  'git config core.hooksPath -l',
  'git config --get core.hooksPath list extra',
  'git config --get',
  'git config --get-urlmatch http.sslVerify',
  'git config --list core.hooksPath',
  'git config -l core.hooksPath x',
  'git config get core.hooksPath extra',
  'git config get',
  'git config list core.hooksPath',
  'git config list --show-origin core.hooksPath /dev/null',
  'git config --file get core.hooksPath x',
  'git config --file list core.hooksPath',
  'git config --get core.x --replace-all core.y z',
  'git config --list --edit',
  'git config --get --unset core.hooksPath',
  'git config --get --list',
  'git config set core.hooksPath list',
  'git config unset core.hooksPath',
  'git config core.hooksPath',
  'git config --some-new-option --get core.x',
];

describe('git config: a read only with a reading action', () => {
  it.each(CONFIG_READS)('`%s` is a read', (command) => {
    expect(reads(command)).toBe(true);
  });
  it.each(CONFIG_WRITES)('`%s` is a write', (command) => {
    const result = bashWrites(command, { hestaiBins: [BIN, HOOK] });
    expect(result.writes).toBe(true);
    expect(result.what.length).toBeGreaterThan(0);
  });
});

describe('refused forms: each is a write before the anchor', () => {
  it.each(REFUSED)('`%s` is a write', (command) => {
    const result = bashWrites(command, { hestaiBins: [BIN, HOOK] });
    expect(result.writes).toBe(true);
    expect(result.what.length).toBeGreaterThan(0);
  });

  it('names the targets it knows (joined to every directory a cd may have reached), and says when it cannot', () => {
    expect(bashWrites('echo x > a.txt; echo y | tee -a b.txt').targets).toEqual(['a.txt', 'b.txt']);
    expect(bashWrites('cd src && echo x > ../f').targets).toEqual(['../f', 'src/../f']);
    expect(bashWrites('cd /tmp && echo x > f').targets).toEqual(['f', '/tmp/f']);
    expect(bashWrites('echo x 1<> f').targets).toEqual(['f']);
    expect(bashWrites('cat > /tmp/bind.oct <<EOF\n## BIND\nEOF').targets).toEqual(['/tmp/bind.oct']);
    expect(bashWrites('cd "$X" && echo x > f').targets).toBeNull();
    expect(bashWrites('echo x > "$OUT"').targets).toBeNull();
    expect(bashWrites('git commit -m x').targets).toBeNull();
    expect(bashWrites('npm test').targets).toBeNull();
    expect(bashWrites('unlink a').targets).toEqual(['a']);
  });

  it('a commit message is not a path; the words of other writes are mentions', () => {
    expect(bashWrites('git commit -m "docs: the .hestai/ layout"').mentions).toEqual([]);
    expect(bashWrites('git checkout -- .hestai_workspace.yaml').mentions).toContain('.hestai_workspace.yaml');
    expect(bashWrites("python3 -c \"open('.git/config','w')\"").mentions).toContain("open('.git/config','w')");
  });
});

describe('sed scripts that only print', () => {
  it.each(['1,20p', '5p', '$p', '/x/p', '/a/,/b/p', 's/a/b/g', 's|a|b|', '10q', '=', '1d;3p'])('%s reads', (s) =>
    expect(sedScriptReads(s)).toBe(true),
  );
  it.each(['w out', 's/a/b/w out', 's/a/b/e', 'e ls', 'r /etc/passwd', 'R x', 'W out', '1,2w out'])(
    '%s is refused',
    (s) => expect(sedScriptReads(s)).toBe(false),
  );
});

describe('PowerShell', () => {
  it.each(POWERSHELL_READS.map((name) => [name]))('%s is a read', (name) => {
    expect(powershellWrites(`${name} src`).writes).toBe(false);
  });
  it.each([
    'Set-Content -Path .hestai_workspace.yaml -Value x',
    'Remove-Item -Recurse .hestai',
    'Get-Content a > b',
    'Out-File -FilePath a',
    'New-Item a',
    'Get-ChildItem | ForEach-Object { Remove-Item $_ }',
    '& ./evil.ps1',
    'Write-Output "$(Remove-Item a)"',
    'git clean -fdx',
    'npm test',
  ])('`%s` is a write', (command) => {
    expect(powershellWrites(command).writes).toBe(true);
  });
  it('git reads and chains of reads pass', () => {
    expect(powershellWrites('git status; Get-ChildItem -Recurse | Select-String TODO').writes).toBe(false);
  });
});

describe('tools: deny by default', () => {
  const tool = (name: string) => classifyToolUse({ tool: name, paths: [], command: null, kind: null });
  it.each(READ_TOOLS.map((name) => [name]))('%s is on the base list of reads', (name) => {
    expect(tool(name)).toEqual({ kind: 'read' });
  });
  it('hestai MCP tools are reads (the server checks each); every other MCP tool and unknown tool is a write', () => {
    expect(tool('mcp__hestai__anchor')).toEqual({ kind: 'read' });
    expect(tool('mcp__hestai__clock_in')).toEqual({ kind: 'read' });
    for (const name of ['mcp__github__create_or_update_file', 'mcp__filesystem__write_file', 'SomeNewTool', 'Bash2'])
      expect(tool(name)).toMatchObject({ kind: 'write', targets: null, what: name });
    // Only the tools the hestai server serves: another server whose name starts with hestai's (hestai_notes,
    // hestai_) is named mcp__hestai__notes__save_note or mcp__hestai___write_file by Claude Code and Codex.
    for (const name of [
      'mcp__hestai__notes__save_note',
      'mcp__hestai___write_file',
      'mcp__hestai__save_note',
      'mcp__hestai__anchor__x',
    ])
      expect(tool(name)).toMatchObject({ kind: 'write', targets: null, what: name });
    for (const name of HESTAI_MCP_TOOLS) expect(tool(`mcp__hestai__${name}`)).toEqual({ kind: 'read' });
    expect(classifyToolUse({ tool: 'PowerShell', paths: [], command: 'Remove-Item a', kind: null })).toMatchObject({
      kind: 'write',
      targets: null,
    });
    expect(classifyToolUse({ tool: 'PowerShell', paths: [], command: 'Get-ChildItem', kind: null })).toEqual({
      kind: 'read',
    });
  });
  it('a tool listed in agents.read_tools of the base policy is a read: exact names and name* prefixes', () => {
    expect(isReadTool('mcp__tracker__get_issue')).toBe(false);
    expect(isReadTool('mcp__tracker__get_issue', ['mcp__tracker__get_issue'])).toBe(true);
    expect(isReadTool('mcp__tracker__get_issues', ['mcp__tracker__get_issue'])).toBe(false);
    expect(isReadTool('mcp__tracker__get_x', ['mcp__tracker__get_*'])).toBe(true);
    expect(isReadTool('mcp__tracker__set_x', ['mcp__tracker__get_*'])).toBe(false);
    expect(isReadTool('MCP__tracker__get_x', ['mcp__tracker__get_*'])).toBe(false);
    expect(isReadTool('Read', [])).toBe(true);
  });
  it('a caller cannot call a known writing tool a read', () => {
    expect(classifyToolUse({ tool: 'Edit', paths: ['a'], command: null, kind: 'read' })).toMatchObject({
      kind: 'write',
    });
    expect(classifyToolUse({ tool: 'Bash', paths: [], command: 'rm a', kind: 'read' })).toMatchObject({
      kind: 'write',
    });
  });
});
