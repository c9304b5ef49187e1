import { describe, expect, it } from 'vitest';
import { DEFAULT_TEST_GLOBS } from '../../../src/config/defaults.js';
import { commitFacts, revertedSha, type CommitFacts, type FileChange } from '../../../src/tdd/commit.js';
import { checkHeader } from '../../../src/tdd/header-rule.js';
import { parseConventionalHeader } from '../../../src/tdd/header.js';
import { DEFAULT_IGNORES, ignoreRules, ignoredBy } from '../../../src/tdd/ignore.js';
import { autoCommentChar, cleanMessage, effectiveCleanup, scissorsLine } from '../../../src/tdd/message.js';
import { evaluateTestFirst } from '../../../src/tdd/rule.js';
import { testFileMatcher } from '../../../src/tdd/test-files.js';

const isTest = testFileMatcher(DEFAULT_TEST_GLOBS);
const paired = { policy: 'paired' as const, types: ['feat'] };

/** A commit of a DAG: its sha, header, parents and changes. */
function node(
  sha: string,
  header: string,
  parents: string[],
  changes: FileChange[] = [],
  reverts: string | null = null,
): CommitFacts {
  return commitFacts({ sha, message: header, files: changes.map((c) => c.path), changes, parents, reverts }, isTest);
}
const add = (path: string): FileChange => ({ status: 'A', path });
const del = (path: string): FileChange => ({ status: 'D', path });

describe('git cleanup as the hook sees it', () => {
  it('default cleanup is strip with an editor and whitespace without one; scissors needs an editor', () => {
    expect(effectiveCleanup({})).toBe('strip');
    expect(effectiveCleanup({ editor: false })).toBe('whitespace');
    expect(effectiveCleanup({ cleanup: 'default', editor: false })).toBe('whitespace');
    expect(effectiveCleanup({ cleanup: 'strip', editor: false })).toBe('strip');
    expect(effectiveCleanup({ cleanup: 'scissors', editor: false })).toBe('whitespace');
    expect(effectiveCleanup({ cleanup: 'scissors' })).toBe('scissors');
    expect(effectiveCleanup({ cleanup: 'verbatim' })).toBe('verbatim');
  });

  it('keeps # lines of -m/-F messages (git does), and strips them in the editor', () => {
    expect(cleanMessage('#42 add login\n', { editor: false })).toBe('#42 add login');
    expect(cleanMessage('# note\n\nfeat: x\n', { editor: false })).toBe('# note\n\nfeat: x');
    expect(cleanMessage('# note\n\nfeat: x\n', { editor: true })).toBe('feat: x');
  });

  it('keeps leading whitespace and a byte order mark on the header (git stores them)', () => {
    expect(cleanMessage('  feat: x\n')).toBe('  feat: x');
    expect(cleanMessage('\uFEFFfeat: x\n')).toBe('\uFEFFfeat: x');
    expect(cleanMessage('\n\n feat: x \t\n')).toBe(' feat: x');
  });

  it('does not cut at a scissors line without an editor, and cuts only a whole line', () => {
    const text = `feat: x\n${scissorsLine('#')}\nbelow\n`;
    expect(cleanMessage(text, { editor: false, cleanup: 'whitespace' })).toBe(text.trimEnd());
    expect(cleanMessage(text, { cleanup: 'whitespace' })).toBe('feat: x');
    expect(cleanMessage(`feat: x\n${scissorsLine('#')} trailing\n`, { cleanup: 'verbatim' })).toBe(
      `feat: x\n${scissorsLine('#')} trailing`,
    );
  });

  it('core.commentChar auto: the first unused candidate without an editor, the template character with one', () => {
    expect(autoCommentChar('fix: x\n', false)).toBe('#');
    expect(autoCommentChar('#1 fix\n;2\n', false)).toBe('@');
    // The editor file: the message, then git's comment block in the character it chose.
    expect(autoCommentChar('#42 add login\n\n; Please enter the commit message\n;\n', true)).toBe(';');
    expect(autoCommentChar('fix: x\n\n# Please enter the commit message\n', true)).toBe('#');
  });
});

describe('the header rule on real-world shapes', () => {
  it('a header with leading whitespace or a BOM is an error that says so', () => {
    const ws = checkHeader(node('a', '  feat: x', ['p']));
    expect(ws.status).toBe('fail');
    expect(ws.message).toContain('starts with whitespace');
    const bom = checkHeader(node('b', '\uFEFFfeat: x', ['p']));
    expect(bom.status).toBe('fail');
    expect(bom.message).toContain('byte order mark');
  });

  it('types are case-insensitive per the spec (§15), or lower case only with type_case: lower', () => {
    expect(parseConventionalHeader('Feat(API): x')).toMatchObject({ type: 'feat', rawType: 'Feat', scope: 'API' });
    expect(checkHeader(node('a', 'Feat: x', ['p'])).status).toBe('pass');
    const lower = checkHeader(node('a', 'Feat: x', ['p']), { type_case: 'lower', body_separator: 'error' });
    expect(lower.status).toBe('fail');
    expect(lower.message).toContain('"Feat"');
    expect(
      evaluateTestFirst(
        [node('t', 'Test: a', ['r'], [add('test/a.test.ts')]), node('f', 'FEAT: a', ['t'])],
        paired,
      ).map((v) => v.status),
    ).toEqual(['pass', 'pass']);
  });

  it('a body must be separated from the header by a blank line (§6): error, warn or off', () => {
    const facts = commitFacts({ sha: 'a', message: 'feat: x\nbody right below', files: [], parents: ['p'] }, isTest);
    expect(checkHeader(facts)).toMatchObject({ status: 'fail', clause: 'CC 1.0.0 §6' });
    expect(checkHeader(facts, { type_case: 'insensitive', body_separator: 'warn' }).status).toBe('warn');
    expect(checkHeader(facts, { type_case: 'insensitive', body_separator: 'off' }).status).toBe('pass');
  });

  it('every header verdict cites the clause that decides it', () => {
    expect(checkHeader(node('a', 'feat(): x', ['p'])).clause).toBe('CC 1.0.0 §4');
    expect(checkHeader(node('a', 'feat:x', ['p'])).clause).toBe('CC 1.0.0 §1');
    expect(checkHeader(node('a', 'feat: x', ['p'])).clause).toBe('CC 1.0.0 §1');
  });
});

describe('commit.ignore defaults', () => {
  const rules = ignoreRules([], true);
  it('ignore version bumps and release tools; a merge bot header on a single-parent commit is judged (issue 24)', () => {
    for (const header of [
      '0.0.2',
      'v3.0.0',
      '1.2.3-beta.1',
      'chore(release): publish',
      'chore(release): 1.2.3 [skip ci]',
      'Version Packages',
      'Version Packages (beta)',
      'RELEASING: Releasing 2 package(s)',
      'Publish',
    ]) {
      expect(ignoredBy(header, rules), header).not.toBeNull();
    }
    for (const header of [
      'feat: 1.0.0',
      '1.2',
      'Merge pull request #1 from a/b',
      'Merged PR: x',
      'v1.2.3 and more',
      'Merged PR 123: add login',
      'Merged in feature/x (pull request #7)',
    ])
      expect(ignoredBy(header, rules), header).toBeNull();
    expect(DEFAULT_IGNORES.length).toBeGreaterThanOrEqual(5);
  });

  it('an ignored commit is not judged by the header or the test-first rule; user patterns add to the defaults', () => {
    const custom = ignoreRules(['^WIP '], false);
    const facts = commitFacts({ sha: 'a', message: 'WIP stuff', files: [], parents: ['p'] }, isTest, {
      ignore: custom,
    });
    expect(facts.kind).toBe('ignored');
    expect(checkHeader(facts).status).toBe('skip');
    expect(checkHeader(facts).message).toContain('^WIP ');
    expect(
      commitFacts({ sha: 'a', message: '0.0.2', files: [], parents: ['p'] }, isTest, { ignore: custom }).kind,
    ).toBe('normal');
    expect(custom.map((r) => r.source)).toEqual(['^WIP ']);
    expect(ignoreRules(['^WIP '], true).map((r) => r.source)).toEqual([
      ...DEFAULT_IGNORES.map((d) => d.pattern),
      '^WIP ',
    ]);
  });
});

describe('commit.ignore defaults cover only what release tools write', () => {
  const rules = ignoreRules([], true);
  const facts = (header: string, changes: FileChange[]) =>
    commitFacts({ sha: 'a', message: header, files: changes.map((c) => c.path), changes, parents: ['p'] }, isTest, {
      ignore: rules,
    });
  const mod = (path: string): FileChange => ({ status: 'M', path });

  it('a release header on a commit of manifests, lockfiles, changelogs, lerna.json and .changeset/ files is ignored', () => {
    const releases: Array<[string, FileChange[]]> = [
      [
        'Version Packages',
        [
          del('.changeset/brave-cats.md'),
          mod('packages/a/package.json'),
          mod('packages/a/CHANGELOG.md'),
          mod('pnpm-lock.yaml'),
        ],
      ],
      [
        'RELEASING: Releasing 1 package(s)',
        [del('.changeset/x.md'), mod('.changeset/pre.json'), mod('package.json'), add('CHANGELOG.md')],
      ],
      [
        'Publish',
        [
          mod('lerna.json'),
          mod('packages/app/package.json'),
          mod('package-lock.json'),
          mod('packages/app/CHANGELOG.md'),
        ],
      ],
      ['0.0.2', [mod('package.json'), mod('package-lock.json'), mod('npm-shrinkwrap.json')]],
      ['v3.0.0', [mod('package.json'), mod('yarn.lock')]],
      ['chore(release): 1.2.3 [skip ci]', [mod('CHANGELOG.md'), mod('package.json'), mod('package-lock.json')]],
      ['chore(release): 1.2.3', [mod('package.json'), mod('bower.json'), mod('manifest.json'), mod('CHANGELOG.md')]],
    ];
    for (const [header, changes] of releases) expect(facts(header, changes).kind, header).toBe('ignored');
  });

  it('attack: a person lands "Publish" or "Version Packages" (any release header) with code: judged, and the failure says why', () => {
    // changesets' RELEASING header is a Conventional Commit header (type "releasing"): judged, it passes as one
    expect(facts('RELEASING: Releasing 1 package(s)', [add('src/backdoor.js')]).kind).toBe('normal');
    for (const header of ['Publish', 'Version Packages', '0.0.2', 'v3.0.0']) {
      const commit = facts(header, [mod('package.json'), add('src/backdoor.js')]);
      expect(commit.kind, header).toBe('normal');
      expect(commit.ignoredBy, header).toBeNull();
      const verdict = checkHeader(commit);
      expect(verdict.status, header).toBe('fail');
      expect(verdict.message, header).toContain("a release tool's header");
      expect(verdict.message, header).toContain('src/backdoor.js');
    }
    // a file named like a release file is one only by its name: package.json.js, CHANGELOG.md.sh are code
    expect(facts('Publish', [add('package.json.js')]).kind).toBe('normal');
    expect(facts('Publish', [add('scripts/CHANGELOG.md.sh')]).kind).toBe('normal');
    expect(facts('Publish', [add('.changesetx/a.js')]).kind).toBe('normal');
    // a rename or copy is judged by both its paths: code moved onto a release file's name is code deleted
    const moved = facts('Publish', [
      { status: 'R', path: 'CHANGELOG.md', from: 'src/guard.js', score: 100 },
      { status: 'R', path: 'pkg/CHANGELOG.md', from: 'test/guard.test.js', score: 100 },
    ]);
    expect(moved.kind).toBe('normal');
    expect(checkHeader(moved).message).toContain('src/guard.js');
    expect(facts('Version Packages', [{ status: 'C', path: 'CHANGELOG.md', from: 'src/a.js', score: 90 }]).kind).toBe(
      'normal',
    );
    expect(
      facts('Version Packages', [{ status: 'R', path: '.changeset/b.md', from: '.changeset/a.md', score: 100 }]).kind,
    ).toBe('ignored');
    // a person's own commit.ignore pattern stays a header pattern: the team chose it
    const custom = ignoreRules(['^Publish$'], false);
    expect(
      commitFacts({ sha: 'a', message: 'Publish', files: ['src/x.js'], parents: ['p'] }, isTest, { ignore: custom })
        .kind,
    ).toBe('ignored');
  });
});

describe('default test globs at any depth', () => {
  it('cover JS/TS, Python, Go, Rust and JVM layouts in monorepos', () => {
    for (const file of [
      'packages/x/test/a.js',
      'packages/x/tests/a.rs',
      'apps/web/src/__tests__/a.tsx',
      'packages/x/src/a.spec.ts',
      'a.test.mjs',
      'svc/test_api.py',
      'svc/api_test.py',
      'svc/conftest.py',
      'cmd/x/main_test.go',
      'crates/core/tests/it.rs',
      'services/api/src/test/java/AppTest.java',
    ]) {
      expect(isTest(file), file).toBe(true);
    }
    for (const file of [
      'packages/x/src/a.ts',
      'src/testing.py',
      'src/contest.py',
      'src/main/java/App.java',
      'latest/a.ts',
    ])
      expect(isTest(file), file).toBe(false);
  });
});

describe('test-first pairing by ancestry', () => {
  it('a side-branch feat is not paired with a main-line test that is not its ancestor', () => {
    // root ─ T(main) ─ F(main) ─ M
    //    └─ S-T ─ S-F ──────────┘     (the side branch started before T)
    const commits = [
      node('t', 'test(main): m', ['root'], [add('test/m.test.ts')]),
      node('st', 'test(side): s', ['root'], [add('test/s.test.ts')]),
      node('sf', 'feat(side): s', ['st']),
      node('f', 'feat(main): m', ['t']),
      node('m', "Merge branch 'side'", ['f', 'sf']),
    ];
    const verdicts = evaluateTestFirst(commits, paired);
    expect(verdicts.map((v) => v.status)).toEqual(['pass', 'pass', 'pass', 'pass', 'skip']);
    expect(verdicts[2]!.pairedWith).toEqual(['st']);
    expect(verdicts[3]!.pairedWith).toEqual(['t']);
    expect(verdicts[3]!.message).toContain('"test(main): m"');
  });

  it('a feat whose only test commit is on a parallel branch fails', () => {
    const commits = [node('st', 'test: s', ['root'], [add('test/s.test.ts')]), node('f', 'feat: m', ['root'])];
    expect(evaluateTestFirst(commits, paired).map((v) => v.status)).toEqual(['pass', 'fail']);
  });

  it('a test commit that only deletes or renames tests does not count', () => {
    const deletes = [node('t', 'test: drop old', ['r'], [del('test/old.test.ts')]), node('f', 'feat: a', ['t'])];
    const dv = evaluateTestFirst(deletes, paired);
    expect(dv.map((v) => v.status)).toEqual(['warn', 'fail']);
    expect(dv[0]!.message).toContain('only deletes or renames');
    const renames = [
      node('t', 'test: move', ['r'], [{ status: 'R', path: 'test/new.test.ts', score: 100 }]),
      node('f', 'feat: a', ['t']),
    ];
    expect(evaluateTestFirst(renames, paired).map((v) => v.status)).toEqual(['warn', 'fail']);
    const edited = [
      node('t', 'test: move and edit', ['r'], [{ status: 'R', path: 'test/new.test.ts', score: 80 }]),
      node('f', 'feat: a', ['t']),
    ];
    expect(evaluateTestFirst(edited, paired).map((v) => v.status)).toEqual(['pass', 'pass']);
  });

  it('a test commit reverted before the feat does not count', () => {
    const commits = [
      node('t', 'test: a', ['r'], [add('test/a.test.ts')]),
      node('rv', 'Revert "test: a"', ['t'], [del('test/a.test.ts')], 't'),
      node('f', 'feat: a', ['rv']),
    ];
    expect(evaluateTestFirst(commits, paired).map((v) => v.status)).toEqual(['pass', 'skip', 'fail']);
  });

  it('revertedSha reads the line git revert writes', () => {
    expect(revertedSha('Revert "x"\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567.')).toBe(
      '0123456789abcdef0123456789abcdef01234567',
    );
    expect(revertedSha('Revert "x"')).toBeNull();
  });
});

describe('the chore(release) default ignore (issue 25, item 6)', () => {
  const rules = ignoreRules([], true);
  it('skips what release tools write, and judges a person writing chore(release) about anything else', () => {
    for (const header of [
      'chore(release): 1.2.3', // standard-version, commit-and-tag-version
      'chore(release): v1.2.3', // the same with a tag prefix
      'chore(release): 1.2.3 [skip ci]', // semantic-release's @semantic-release/git
      'chore(release): 2.0.0-beta.1 [skip ci]',
      'chore(release): publish', // lerna --conventional-commits with --message "chore(release): publish"
      'chore(release): publish v1.2.3', // lerna's "%s"
      'chore(release): publish 1.2.3', // nx release
      'chore(release): publish new version 1.2.3', // lerna-lite
      'chore(release): publish %s', // lerna's template left unexpanded
    ])
      expect(ignoredBy(header, rules), header).not.toBeNull();
    for (const header of [
      'chore(release): update the release workflow',
      'chore(release): publish the docs site too',
      'chore(release): 1.2.3 and a quick fix to the parser',
      'chore(release):1.2.3',
    ])
      expect(ignoredBy(header, rules), header).toBeNull();
  });
});
