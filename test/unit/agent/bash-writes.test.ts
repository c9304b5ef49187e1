import { describe, expect, it } from 'vitest';
import { bashWrites } from '../../../src/agent/bash-writes.js';

describe('bashWrites: which shell commands change files (the read-only list: read-only.test.ts)', () => {
  it.each([
    ['git commit -m "feat: x"', ['git commit']],
    ['git -C sub commit -qm x', ['git commit']],
    ['git add -A && git commit -m x', ['git add', 'git commit']],
    ['echo hi > out.txt', ['> out.txt']],
    ['echo hi >> log.txt', ['>> log.txt']],
    ['echo hi>out.txt', ['> out.txt']],
    ['npm test 2> err.log', ['2> err.log', 'npm test']],
    ['build &> all.log', ['&> all.log', 'build']],
    ['echo x | tee a.txt b.txt', ['tee']],
    ['echo x | sudo tee -a /etc/hosts', ['sudo']],
    ['FOO=1 cp a b', ['FOO=']],
    ["sed -i 's/a/b/' f.txt", ['sed -i']],
    ['rm -rf build', ['rm']],
  ])('%s writes (%j)', (command, what) => {
    const result = bashWrites(command);
    expect(result.writes).toBe(true);
    expect(result.what).toEqual(what);
  });

  it.each([
    'ls -la',
    'cat README.md',
    'git status',
    'git log --oneline -5',
    'git diff HEAD~1',
    'git log 2>&1',
    'ls >&2',
    'git status > /dev/null 2>&1',
    'grep -r "a > b" src',
    "echo 'x >> y'",
    'echo "tee and git commit are words here"',
    'sort < input.txt',
    'cat <<EOF\nline > not a redirection\ngit commit -m inside-heredoc\nEOF',
    '# echo > commented.txt',
    'npx hestai clock-in --role implementation-lead',
  ])('%s does not write', (command) => {
    expect(bashWrites(command)).toEqual({ writes: false, targets: [], what: [], mentions: [] });
  });

  it('names the targets it knows, and says when it cannot know them', () => {
    expect(bashWrites('echo x > a.txt; echo y | tee -a b.txt').targets).toEqual(['a.txt', 'b.txt']);
    expect(bashWrites('echo x > ".hestai/sessions/x.json"').targets).toEqual(['.hestai/sessions/x.json']);
    expect(bashWrites('cp src/a.ts src/b.ts').targets).toEqual(['src/b.ts']);
    expect(bashWrites('echo x > "$OUT"').targets).toBeNull();
    expect(bashWrites('git commit -m x').targets).toBeNull();
    expect(bashWrites('cat > /tmp/bind.oct <<EOF\n## BIND\nEOF').targets).toEqual(['/tmp/bind.oct']);
  });

  // git's global options come before its subcommand (Gemini CLI turns hooks off in its shell, so an agent
  // commits with -c core.hooksPath=<the worktree's hooks>: a path git runs hooks from, never one it writes)
  it('finds git’s subcommand after its global options and their values', () => {
    expect(bashWrites('git -c core.hooksPath=/r/.git/hooks commit -q -m "test: x"').mentions).toEqual([]);
    expect(bashWrites('HESTAI_SESSION=abc git -c core.hooksPath=.git/hooks commit -m x').mentions).toEqual([]);
    expect(bashWrites('git -C sub commit -qm x').mentions).toEqual(['sub']);
    // other values of -c stay words that may name paths (an editor or a pager runs code)
    expect(bashWrites("git -c core.editor='rm .hestai/x' commit").mentions).toEqual(['core.editor=rm .hestai/x']);
    // the subcommand behind a global option is judged as itself: git config writes .git/config
    expect(bashWrites('git -c user.name=x config core.hooksPath /dev/null').mentions).toContain('.git/config');
    expect(bashWrites('git --git-dir .git config core.hooksPath /dev/null').mentions).toContain('.git/config');
  });
});
