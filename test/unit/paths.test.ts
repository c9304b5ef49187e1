// workspacePaths is asked for on every hook run, several times: each path must be exactly what path.join
// gives, whatever the root looks like, and the same object may be handed out again (it is frozen).
import fc from 'fast-check';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { citedPath, isInside, pathInside, workspacePaths } from '../../src/paths.js';
import { tempDir } from '../helpers/git-repo.js';
import { runs } from '../helpers/property.js';

/** The layout of docs/design.md §3, each path joined from the root as written there. */
function joined(root: string): Record<string, string> {
  const j = (...parts: string[]) => path.join(root, ...parts);
  return {
    root,
    workspaceConfig: j('.hestai_workspace.yaml'),
    hestai: j('.hestai'),
    context: j('.hestai', 'context'),
    projectContext: j('.hestai', 'context', 'PROJECT-CONTEXT.oct.md'),
    contextNegatives: j('.hestai', 'context', 'CONTEXT-NEGATIVES.oct.md'),
    state: j('.hestai', 'context', 'state'),
    currentFocus: j('.hestai', 'context', 'state', 'current-focus.oct.md'),
    currentState: j('.hestai', 'context', 'state', 'current-state.oct.md'),
    checklist: j('.hestai', 'context', 'state', 'checklist.oct.md'),
    blockers: j('.hestai', 'context', 'state', 'blockers.oct.md'),
    sessions: j('.hestai', 'sessions'),
    pending: j('.hestai', 'sessions', 'pending'),
    active: j('.hestai', 'sessions', 'active'),
    archive: j('.hestai', 'sessions', 'archive'),
    audit: j('.hestai', 'audit'),
    auditLog: j('.hestai', 'audit', 'audit.jsonl'),
    locks: j('.hestai', 'sessions', '.locks'),
    terminal: j('.hestai', 'sessions', 'terminal'),
    bindings: j('.hestai', 'sessions', 'bindings'),
    protocol: j('.hestai', 'protocol.yaml'),
    hestaiSys: j('.hestai-sys'),
    agents: j('.hestai-sys', 'agents'),
  };
}

describe('workspacePaths', () => {
  it('gives exactly the joined paths for every kind of root', () => {
    for (const root of ['/', '/tmp/repo', '/tmp/repo/', '/tmp//a/../repo', 'relative/repo', '.', '', '/tmp/a b/ü'])
      expect({ ...workspacePaths(root) }, JSON.stringify(root)).toEqual(joined(root));
  });

  it('hands out one frozen layout per root, and another root gets its own', () => {
    const a = workspacePaths('/tmp/one');
    expect(Object.isFrozen(a)).toBe(true);
    expect(workspacePaths('/tmp/two').root).toBe('/tmp/two');
    expect(workspacePaths('/tmp/one')).toEqual(a);
    expect(workspacePaths('/tmp/one').hestai).toBe(path.join('/tmp/one', '.hestai'));
  });
});

// "Inside the worktree" has one definition (issue 27): pathInside. Its reference here is the plainest one
// there is: the resolved target's segments begin with the resolved root's segments.
function segments(p: string): string[] {
  return path
    .resolve(p)
    .split(path.sep)
    .filter((s) => s !== '');
}
function reference(root: string, target: string): string | null {
  const r = segments(root);
  const t = segments(target);
  if (t.length < r.length || r.some((s, i) => t[i] !== s)) return null;
  return t.slice(r.length).join('/') || '.';
}

const segment = fc.constantFrom('a', 'b', 'src', '..', '.', '..x', 'x..', '...', '..x.js', '.hestai', '');
const absolute = fc
  .tuple(fc.array(segment, { maxLength: 6 }), fc.boolean())
  .map(([parts, slash]) => `/${parts.join('/')}${slash ? '/' : ''}`);

describe('pathInside (the one "inside the worktree")', () => {
  it('agrees with the segment-prefix reference for any two absolute paths, trailing slashes included', () => {
    fc.assert(
      fc.property(absolute, absolute, (root, target) => {
        expect(pathInside(root, target)).toBe(reference(root, target));
        expect(isInside(root, target)).toBe(reference(root, target) !== null);
      }),
      runs(2_000),
    );
  });

  it('is path.relative when that does not leave the root, and its answer joins back to the target', () => {
    fc.assert(
      fc.property(absolute, fc.array(segment, { maxLength: 6 }), (root, parts) => {
        const target = path.join(root, ...parts);
        const rel = path.relative(root, target);
        const inside = pathInside(root, target);
        const leaves = rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
        expect(inside === null).toBe(leaves);
        if (inside !== null) {
          expect(inside).toBe(rel === '' ? '.' : rel.split(path.sep).join('/'));
          expect(path.join(root, inside)).toBe(path.resolve(target));
        }
      }),
      runs(2_000),
    );
  });

  it('counts a name that only begins with two dots as inside, and the parent as outside', () => {
    expect(pathInside('/r', '/r/..x.js')).toBe('..x.js');
    expect(pathInside('/r', '/r/..x/y')).toBe('..x/y');
    expect(pathInside('/r', '/r/...')).toBe('...');
    expect(pathInside('/r/', '/r')).toBe('.');
    expect(pathInside('/r', '/r/src/')).toBe('src');
    expect(pathInside('/r', '/r/src/../..x')).toBe('..x');
    expect(pathInside('/r', '/r/..')).toBeNull();
    expect(pathInside('/r', '/r/../r2/x')).toBeNull();
    expect(pathInside('/r', '/r2')).toBeNull();
    expect(pathInside('/r', '/')).toBeNull();
    expect(pathInside('/', '/r')).toBe('r');
    // A tool call's path, resolved against its cwd first (src/agent/decide.ts).
    expect(pathInside('/r', path.resolve('/r/src', 'a.ts'))).toBe('src/a.ts');
    expect(pathInside('/r', path.resolve('/r/src', '../.hestai/x'))).toBe('.hestai/x');
    expect(pathInside('/r', path.resolve('/r', '/tmp/bind.oct'))).toBeNull();
    expect(pathInside('/r', path.resolve('/r', '/r2/x'))).toBeNull();
  });

  it('over real paths (realpath of both), a symlink leading out is outside and one staying in is inside', () => {
    const base = tempDir();
    const root = path.join(base, 'repo');
    const outside = path.join(base, 'elsewhere');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(root, '..x.js'), '');
    fs.writeFileSync(path.join(outside, 'f'), '');
    fs.writeFileSync(path.join(root, 'src', 'a.ts'), '');
    fs.symlinkSync(outside, path.join(root, 'out'));
    fs.symlinkSync(path.join(root, 'src'), path.join(root, 'in'));
    fs.symlinkSync(root, path.join(base, 'alias'));
    const real = (p: string) => fs.realpathSync(p);

    expect(pathInside(real(root), real(path.join(root, 'out', 'f')))).toBeNull();
    expect(pathInside(root, path.join(root, 'out', 'f'))).toBe('out/f'); // by name: inside (why callers resolve)
    expect(pathInside(real(root), real(path.join(root, 'in', 'a.ts')))).toBe('src/a.ts');
    expect(pathInside(real(root), real(path.join(root, '..x.js')))).toBe('..x.js');
    expect(pathInside(real(root), real(path.join(root, 'src', '..', '..x.js')))).toBe('..x.js');
    // The worktree reached through a link: both sides resolved agree; one side resolved does not.
    expect(pathInside(real(path.join(base, 'alias')), real(path.join(base, 'alias', 'src', 'a.ts')))).toBe('src/a.ts');
    expect(pathInside(path.join(base, 'alias'), real(path.join(base, 'alias', 'src', 'a.ts')))).toBeNull();
  });
});

describe('citedPath (a path an anchor cites, judged by its text)', () => {
  const cited = fc
    .tuple(
      fc.constantFrom('', './', '/', '\\', '~/', 'C:/', 'c:\\'),
      fc.array(segment, { maxLength: 5 }),
      fc.constantFrom('/', '\\'),
      fc.boolean(),
    )
    .map(([prefix, parts, sep, slash]) => `${prefix}${parts.join(sep)}${slash ? '/' : ''}`);

  it('what it accepts lies inside the root by pathInside, resolved from the root as given', () => {
    fc.assert(
      fc.property(absolute, cited, (root, p) => {
        const answer = citedPath(p);
        if (!('rel' in answer)) return;
        expect(pathInside(root, path.resolve(root, answer.rel))).not.toBeNull();
        expect(pathInside(root, path.resolve(root, p))).not.toBeNull();
      }),
      runs(2_000),
    );
  });

  it('refuses absolute forms and any .. segment, and takes ..x and x.. as names', () => {
    expect(citedPath('/etc/passwd')).toEqual({ outside: 'absolute' });
    expect(citedPath('\\share\\x')).toEqual({ outside: 'absolute' });
    expect(citedPath('C:/x')).toEqual({ outside: 'absolute' });
    expect(citedPath('~/x')).toEqual({ outside: 'absolute' });
    expect(citedPath('../x')).toEqual({ outside: 'parent' });
    expect(citedPath('src/../../x')).toEqual({ outside: 'parent' });
    expect(citedPath('src\\..\\x')).toEqual({ outside: 'parent' });
    expect(citedPath('..x.js')).toEqual({ rel: '..x.js' });
    expect(citedPath('./src/x../')).toEqual({ rel: 'src/x..' });
    expect(citedPath('././a')).toEqual({ rel: 'a' });
    expect(citedPath('.//src//a/./b.ts')).toEqual({ rel: 'src/a/b.ts' });
  });
});
