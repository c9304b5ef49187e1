import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, makeRepo, tempDir, type TempRepo } from '../../helpers/git-repo.js';

// Issue 41, item 1: one command to anchor, for a person. `hestai anchor` on a terminal walks the three
// stages: it clocks in, opens git's editor on one pre-filled payload, checks it (no retry spent) and
// submits it. Paths are the shell's. The terminal is a real pseudo-terminal (`script`), the editor a
// script git's own way (GIT_EDITOR), as git's tests do.

/** A repository that adopted hestai (init --commit) with a little code and a test directory. */
function adopted(): TempRepo {
  const repo = makeRepo();
  repo.commit('chore: the project', {
    'package.json': '{ "name": "greet", "scripts": { "test": "node test/greet.test.js" } }\n',
    'greet.js': 'export const greet = (name) => name;\n',
    'test/old.test.js': 'import "../greet.js";\n',
  });
  const init = repo.hestai(['init', '--commit', '--no-husky']);
  expect(init.status, init.stdout + init.stderr).toBe(0);
  return repo;
}

/** An editor script: applies `sed` expressions to the file git's editor is given, and keeps a copy of what it saw. */
function editor(name: string, expressions: string[]): { command: string; seen: string } {
  const dir = tempDir('hestai-editor-');
  const seen = path.join(dir, 'seen.txt');
  const script = path.join(dir, name);
  fs.writeFileSync(
    script,
    `#!/bin/sh\ncp "$1" '${seen}'\n${expressions.length > 0 ? `sed -i ${expressions.map((e) => `-e '${e}'`).join(' ')} "$1"\n` : ''}`,
  );
  fs.chmodSync(script, 0o755);
  return { command: script, seen };
}

const FILL = [
  's/{the rule you keep here}/GREET_STAYS_PURE/',
  's/{what these lines show}/the code as it is/',
  's/{what you will do}/write the failing test first/',
  's#{a path, a test or a symbol}#greet.test.js#',
];

/** Runs the built CLI on a pseudo-terminal (util-linux `script`), in `cwd`, with `env`. */
function inTerminal(repo: TempRepo, args: string, cwd: string, env: NodeJS.ProcessEnv) {
  const run = spawnSync('script', ['-qec', `node ${CLI} ${args}`, '/dev/null'], {
    cwd,
    env: { ...repo.env, ...env },
    encoding: 'utf8',
  });
  return { status: run.status ?? -1, out: `${run.stdout}${run.stderr}` };
}

const untracked = (repo: TempRepo) => repo.git(['status', '--porcelain', '--untracked-files=all']).stdout;

describe('hestai anchor on a terminal: one run, in the editor git commit uses', () => {
  it('clocks in, drafts ROLE, COGNITION, AUTHORITY, CTX lines and GATE in ASCII; from test/ a new test file is the ARTIFACT', () => {
    const repo = adopted();
    const fill = editor('fill.sh', FILL);
    const run = inTerminal(repo, 'anchor', path.join(repo.dir, 'test'), { GIT_EDITOR: fill.command });
    expect(run.status, run.out).toBe(0);
    expect(run.out).toContain('commits are unlocked');
    const draft = fs.readFileSync(fill.seen, 'utf8');
    expect(draft).toMatch(/^ROLE::implementation-lead$/m);
    expect(draft).toMatch(/^COGNITION::LOGOS::[A-Z]+(\+[A-Z]+)*$/m);
    expect(draft).toMatch(/^# COGNITION: .*declares LOGOS with /m);
    expect(draft).toMatch(/^AUTHORITY::RESPONSIBLE\[[^\]{}]+\]$/m);
    expect(draft).toMatch(/^L1::\[\{[^\]]*\}\]<->CTX:\.\.\/greet\.js:1\[/m);
    expect(draft).toMatch(/->TRIGGER\[/);
    expect(draft).toMatch(/^GATE::npm test$/m);
    // Every line is explained by a comment; the comments are stripped: the anchor has none.
    expect(draft.split('\n').filter((l) => l.startsWith('# ')).length).toBeGreaterThan(8);
    expect(run.out).toMatch(/CTX:greet\.js:1\[the code as it is\]/);
    expect(run.out).toContain('ARTIFACT::test/greet.test.js');
    // Nothing of the payload lands in the worktree.
    expect(untracked(repo)).toBe('');
    // The anchored session is the only live one: a person's commit uses it.
    repo.write('test/greet.test.js', 'import "../greet.js";\n');
    repo.git(['add', 'test/greet.test.js']);
    const commit = repo.git(['commit', '-q', '-m', 'test(greet): greets by name'], { allowFail: true });
    expect(commit.status, commit.stderr).toBe(0);
  });

  it('a payload that fails the check is not submitted and spends no retry; the next run reopens it with the errors', () => {
    const repo = adopted();
    const keep = editor('keep.sh', []);
    const first = inTerminal(repo, 'anchor', repo.dir, { GIT_EDITOR: keep.command });
    expect(first.status, first.out).toBe(1);
    expect(first.out).toContain('no retry was spent');
    expect(first.out).toContain('TENSION_GENERIC_CONSTRAINT');
    const status = repo.hestai(['status', '--json']);
    expect(status.status, status.stderr).toBe(0);
    const pending = fs.readdirSync(path.join(repo.dir, '.hestai/sessions/pending'));
    const hs = JSON.parse(
      fs.readFileSync(path.join(repo.dir, '.hestai/sessions/pending', pending[0]!, 'handshake.json'), 'utf8'),
    ) as { retries: Record<string, number> };
    expect(hs.retries).toEqual({ context: 0, proof: 0, vector: 0 });

    const fill = editor('fill.sh', FILL);
    const second = inTerminal(repo, 'anchor', repo.dir, { GIT_EDITOR: fill.command });
    expect(second.status, second.out).toBe(0);
    expect(fs.readFileSync(fill.seen, 'utf8')).toMatch(
      /^# hestai anchor --check found[^\n]*\n#\s+TENSION_GENERIC_CONSTRAINT/m,
    );
    expect(untracked(repo)).toBe('');
  });

  it('an empty file aborts with nothing submitted', () => {
    const repo = adopted();
    const empty = editor('empty.sh', ['/^[^#]/d']);
    const run = inTerminal(repo, 'anchor', repo.dir, { GIT_EDITOR: empty.command });
    expect(run.status, run.out).toBe(1);
    expect(run.out).toContain('Aborting: the payload is empty');
  });

  it('--again re-anchors with the last accepted payload, with no terminal', () => {
    const repo = adopted();
    const fill = editor('fill.sh', FILL);
    expect(inTerminal(repo, 'anchor', repo.dir, { GIT_EDITOR: fill.command }).status).toBe(0);
    const again = repo.hestai(['anchor', '--again']);
    expect(again.status, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('commits are unlocked');
    expect(again.stdout).toContain('ARTIFACT::greet.test.js');
  });

  it('with no terminal and no --stage, prints the commands to use; the staged one runs as printed', () => {
    const repo = adopted();
    const run = repo.hestai(['anchor']);
    expect(run.status).toBe(2);
    const remedy = /start the stages: (hestai anchor --stage identity --role [a-z-]+)/.exec(run.stderr);
    expect(remedy, run.stderr).not.toBeNull();
    const staged = repo.hestai(remedy![1]!.split(' ').slice(1));
    expect(staged.status, staged.stdout + staged.stderr).toBe(0);
    const none = repo.hestai(['anchor', '--again']);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('Anchor once in a terminal with: hestai anchor');
  });
});

describe('hestai anchor without an editor, and when the editor fails', () => {
  it('--payload-file runs the three stages with no terminal, paths taken from the shell directory', () => {
    const repo = adopted();
    const payload = [
      '# a comment, removed',
      '## BIND',
      'ROLE::implementation-lead',
      'COGNITION::LOGOS::ATHENA',
      'AUTHORITY::RESPONSIBLE[greet]',
      '## TENSION',
      'L1::[OLD_TESTS_STAY]<->CTX:old.test.js:1[imports greet]->TRIGGER[keep it passing]',
      'L2::[GREET_STAYS_PURE]<->CTX:../greet.js:1[returns the name]->TRIGGER[test it first]',
      '## COMMIT',
      'ARTIFACT::greet.test.js',
      'GATE::npm test',
      '',
    ].join('\n');
    const run = repo.hestai(['anchor', '--payload-file', '-'], { cwd: path.join(repo.dir, 'test'), input: payload });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('CTX:test/old.test.js:1[');
    expect(run.stdout).toContain('ARTIFACT::test/greet.test.js');
  });

  it('an editor that fails submits nothing; the next run reopens the text it left', () => {
    const repo = adopted();
    const broken = editor('broken.sh', ['s/{the rule you keep here}/HALF_DONE/']);
    fs.appendFileSync(broken.command, 'exit 3\n');
    const first = inTerminal(repo, 'anchor', repo.dir, { GIT_EDITOR: broken.command });
    expect(first.status, first.out).toBe(2);
    expect(first.out).toContain('exited with 3: nothing was submitted');
    const remedy = /your text is kept: (hestai anchor)/.exec(first.out);
    expect(remedy, first.out).not.toBeNull();
    const fill = editor('fill.sh', FILL);
    const second = inTerminal(repo, remedy![1]!.split(' ').slice(1).join(' '), repo.dir, { GIT_EDITOR: fill.command });
    expect(second.status, second.out).toBe(0);
    expect(fs.readFileSync(fill.seen, 'utf8')).toContain('L1::[HALF_DONE]');
  });

  it('with no editor git can name, says so; the printed git config command names one', () => {
    const repo = adopted();
    const bare: NodeJS.ProcessEnv = { ...repo.env, TERM: 'dumb' };
    for (const key of ['EDITOR', 'VISUAL', 'GIT_EDITOR']) delete bare[key];
    const run = spawnSync('script', ['-qec', `node ${CLI} anchor`, '/dev/null'], {
      cwd: repo.dir,
      env: bare,
      encoding: 'utf8',
    });
    expect(run.status, run.stdout).toBe(2);
    const remedy = /(git config core\.editor nano)/.exec(run.stdout);
    expect(remedy, run.stdout).not.toBeNull();
    repo.git(remedy![1]!.split(' ').slice(1));
    expect(repo.git(['var', 'GIT_EDITOR'], { env: bare }).stdout.trim()).toBe('nano');
  });

  it('attack: from a subdirectory, a path that climbs out of the worktree is still refused', () => {
    const repo = adopted();
    fs.writeFileSync(path.join(path.dirname(repo.dir), 'outside.txt'), 'secret\n');
    const proof = [
      '## TENSION',
      'L1::[A_RULE]<->CTX:../../outside.txt:1[x]->TRIGGER[y]',
      'L2::[B_RULE]<->CTX:old.test.js:1[x]->TRIGGER[y]',
      '## COMMIT',
      'ARTIFACT::../../outside.txt',
      'GATE::npm test',
    ].join('\n');
    const check = repo.hestai(
      ['anchor', '--check', '--stage', 'proof', '--role', 'implementation-lead', '--payload-file', '-'],
      { cwd: path.join(repo.dir, 'test'), input: proof },
    );
    expect(check.status, check.stdout + check.stderr).toBe(1);
    expect(check.stdout).toContain('TENSION_CTX_TRAVERSAL');
    expect(check.stdout).toContain('COMMIT_ARTIFACT_OUTSIDE');
  });
});

describe('payload paths are the shell’s, and --check spends no retry (staged flow)', () => {
  it('from test/, CTX:old.test.js:1 and a new ARTIFACT are found; the anchor names them from the root', () => {
    const repo = adopted();
    const sub = path.join(repo.dir, 'test');
    const id = repo.hestai(['anchor', '--stage', 'identity', '--role', 'implementation-lead', '--json'], { cwd: sub });
    expect(id.status, id.stdout + id.stderr).toBe(0);
    const token = (JSON.parse(id.stdout) as { token: string }).token;
    const bind = '## BIND\nROLE::implementation-lead\nCOGNITION::LOGOS::ATHENA\nAUTHORITY::RESPONSIBLE[greet]\n';
    const proof = [
      '## TENSION',
      'L1::[OLD_TESTS_STAY]<->CTX:old.test.js:1[imports greet]->TRIGGER[keep it passing]',
      'L2::[GREET_STAYS_PURE]<->CTX:../greet.js:1[returns the name]->TRIGGER[test it first]',
      '## COMMIT',
      'ARTIFACT::greet.test.js',
      'GATE::npm test',
      '',
    ].join('\n');
    const ctx = repo.hestai(['anchor', '--stage', 'context', '--token', token, '--payload-file', '-'], {
      cwd: sub,
      input: bind,
    });
    expect(ctx.status, ctx.stdout).toBe(0);
    const checked = repo.hestai(['anchor', '--check', '--stage', 'proof', '--token', token, '--payload-file', '-'], {
      cwd: sub,
      input: proof,
    });
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout).toContain('no retry spent');
    const done = repo.hestai(['anchor', '--stage', 'proof', '--token', token, '--payload-file', '-', '--json'], {
      cwd: sub,
      input: proof,
    });
    expect(done.status, done.stdout).toBe(0);
    const anchor = (JSON.parse(done.stdout) as { anchor: string }).anchor;
    expect(anchor).toContain('CTX:test/old.test.js:1[');
    expect(anchor).toContain('CTX:greet.js:1[');
    expect(anchor).toContain('ARTIFACT::test/greet.test.js');
  });

  it('a failing --check leaves every retry: the first real failure still has 2 left', () => {
    const repo = adopted();
    const id = repo.hestai(['anchor', '--stage', 'identity', '--role', 'implementation-lead', '--json']);
    const token = (JSON.parse(id.stdout) as { token: string }).token;
    const bad = '## BIND\nROLE::implementation-lead\nCOGNITION::LOGOS::ZEUS\nAUTHORITY::RESPONSIBLE[greet]\n';
    for (let i = 0; i < 4; i++) {
      const check = repo.hestai(['anchor', '--check', '--stage', 'context', '--token', token, '--payload-file', '-'], {
        input: bad,
      });
      expect(check.status, check.stdout + check.stderr).toBe(1);
      expect(check.stdout).toContain('BIND_COGNITION_CONSTITUTION');
    }
    const real = repo.hestai(['anchor', '--stage', 'context', '--token', token, '--payload-file', '-', '--json'], {
      input: bad,
    });
    expect(real.status).toBe(1);
    expect((JSON.parse(real.stdout) as { retries_left: number }).retries_left).toBe(2);
  });
});
