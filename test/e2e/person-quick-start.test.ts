import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { npmEnv, sharedCleanPack, readmeBlock, type Packed } from '../helpers/packed.js';

// Issue 41, item 1: a person adopting in an existing repository reaches a first anchored test + feat in at
// most 5 commands after installing: init, anchor, two commits, push. The package is packed and installed
// as a user gets it; the README's quick-start block is run line by line as written. `hestai anchor` runs
// on a real pseudo-terminal (`script`) with git's editor set to a script that fills the payload in, as
// git's own tests drive `git commit`. CI then verifies the pushed branch in a fresh clone.
let packed: Packed;

beforeAll(() => {
  packed = sharedCleanPack();
}, 180_000);

/** The editor a person would be: fills in each {...} of the drafted payload. */
function fillingEditor(): string {
  const script = path.join(tempDir('hestai-editor-'), 'editor.sh');
  fs.writeFileSync(
    script,
    [
      '#!/bin/sh',
      'sed -i \\',
      "  -e 's/{the rule you keep here}/GREET_KEEPS_ITS_CONTRACT/' \\",
      "  -e 's/{what these lines show}/the code as it is today/' \\",
      "  -e 's/{what you will do}/write the failing test first/' \\",
      "  -e 's#{a path, a test or a symbol}#test/greet.test.js#' \\",
      '  "$1"',
      '',
    ].join('\n'),
  );
  fs.chmodSync(script, 0o755);
  return script;
}

describe("the README's quick-start for a person, with the packed package", () => {
  it('install, then init, anchor, a test commit, a feat commit and a push: CI passes in a fresh clone', () => {
    const lines = readmeBlock('**Quick start, for a person**').map((line) => line.replace(/\s+#\s[^"']*$/, ''));
    expect(lines[0]).toMatch(/^npm i -D hestai-hooks(\s|$)/);
    const commands = lines.slice(1);
    expect(commands.length).toBeLessThanOrEqual(5);
    expect(commands.map((c) => c.split(' ').slice(0, 3).join(' '))).toEqual([
      'npx hestai init',
      'npx hestai anchor',
      expect.stringMatching(/^git (add|commit)/),
      expect.stringMatching(/^git (add|commit)/),
      'git push',
    ]);

    // An existing repository: code, a test directory, a history, a remote.
    const repo = makeRepo();
    repo.commit('chore: the project', {
      '.gitignore': 'node_modules/\n',
      'package.json': '{ "name": "greet", "version": "1.0.0", "scripts": { "test": "node test/all.js" } }\n',
      'greet.js': 'export const greet = (name) => name;\n',
      'test/all.js': 'import "../greet.js";\n',
    });
    const remote = path.join(tempDir('hestai-remote-'), 'origin.git');
    repo.git(['init', '-q', '--bare', '-b', 'main', remote]);
    repo.git(['remote', 'add', 'origin', remote]);
    repo.git(['push', '-q', '-u', 'origin', 'main']);
    const before = repo.git(['rev-parse', 'HEAD']).stdout.trim();

    const env = { ...npmEnv(repo.env), GIT_EDITOR: fillingEditor() };
    const sh = (command: string) => {
      const run = spawnSync('sh', ['-c', command], { cwd: repo.dir, env, encoding: 'utf8' });
      return { status: run.status ?? -1, out: `$ ${command}\n${run.stdout}${run.stderr}` };
    };
    const install = sh(lines[0]!.replace(/^npm i -D hestai-hooks(?=\s|$)/, `npm i -D ${packed.tarball}`));
    expect(install.status, install.out).toBe(0);

    // The person's own edits between the commands: a failing test, then the code.
    const edits: Record<number, () => void> = {
      2: () =>
        repo.write('test/greet.test.js', 'import { greet } from "../greet.js";\nif (greet("a") !== "hi a") throw 1;\n'),
      3: () => repo.write('greet.js', 'export const greet = (name) => `hi ${name}`;\n'),
    };
    commands.forEach((command, i) => {
      edits[i]?.();
      // `hestai anchor` opens an editor: on a terminal, as a person runs it.
      const run = command.startsWith('npx hestai anchor') ? sh(`script -qec '${command}' /dev/null`) : sh(command);
      expect(run.status, run.out).toBe(0);
      if (command.startsWith('npx hestai anchor')) expect(run.out).toContain('commits are unlocked');
    });
    const subjects = repo
      .git(['log', '--format=%s', `${before}..HEAD`])
      .stdout.trim()
      .split('\n');
    expect(subjects).toHaveLength(3);
    expect(subjects[0]).toMatch(/^feat\(greet\)/);
    expect(subjects[1]).toMatch(/^test\(greet\)/);

    // CI: a fresh clone of what was pushed, the proof records fetched, verify over the pushed range.
    const clone = path.join(tempDir('hestai-ci-'), 'clone');
    repo.git(['clone', '-q', '--branch', 'main', `file://${remote}`, clone]);
    repo.git(['fetch', '-q', '--no-tags', 'origin', '+refs/heads/hestai/anchors:refs/remotes/origin/hestai/anchors'], {
      cwd: clone,
    });
    const cli = path.join(repo.dir, 'node_modules/hestai-hooks/dist/cli/bin.js');
    const verify = spawnSync('node', [cli, 'verify', '--from', before], { cwd: clone, env, encoding: 'utf8' });
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout).toMatch(/: 3 commit\(s\)/);
    expect(verify.stdout).toMatch(/^✓ [0-9a-f]{7} test\(greet\)/m);
    expect(verify.stdout).toMatch(/^✓ [0-9a-f]{7} feat\(greet\)/m);
    expect(verify.stdout).toMatch(/^ok: 0 error\(s\)/m);
  });
});
