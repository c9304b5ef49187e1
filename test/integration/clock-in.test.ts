import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clockIn } from '../../src/session/clock-in.js';
import { clockOut } from '../../src/session/clock-out.js';
import { markSessionWorking } from '../../src/records/activity.js';
import { trustWorkspace } from '../../src/trust/index.js';
import { workspacePaths } from '../../src/paths.js';
import { listActiveSessions, readSession, sessionFile } from '../../src/records/session.js';
import { parseOctave, toObject, validateOctave, writeOctave, octaveDocument } from '../../src/octave/index.js';
import { readJsonl } from '../../src/state/store.js';
import { UUID_V4 } from '../../src/util/validate.js';
import { makeRepo, tempDir, type TempRepo } from '../helpers/git-repo.js';
import {
  chatServer,
  completion,
  type ChatServer,
  fakeBin,
  fixedClock,
  pathWithoutGh,
  rejection,
} from '../helpers/session-fixtures.js';

const NOW = '2026-01-10T12:00:00.000Z';
const clock = fixedClock(NOW);

function deps(repo: TempRepo, env: NodeJS.ProcessEnv = {}) {
  return { clock, env: { ...repo.env, PATH: pathWithoutGh(), ...env } };
}

/** The provider request that selected the context (the other one synthesised the FAST layer). */
function selectionRequest(server: ChatServer): ChatServer['requests'][number] {
  return server.requests.find(
    (r) => !(r.body['messages'] as { content: string }[])[0]!.content.includes('FAST layer'),
  )!;
}

function readFast(repo: TempRepo, name: string): Record<string, unknown> {
  return toObject(parseOctave(fs.readFileSync(path.join(repo.dir, '.hestai/context/state', name), 'utf8')));
}

describe('clockIn: session creation (CI-I1)', () => {
  it('registers a UUID v4 session with its record, FAST layer and response', async () => {
    const repo = makeRepo();
    const res = await clockIn(
      { working_dir: repo.dir, role: 'implementation-lead', focus: 'implement clock_in' },
      deps(repo),
    );
    expect(res.session_id).toMatch(UUID_V4);
    const paths = workspacePaths(repo.dir);
    const record = readSession(paths, res.session_id)!;
    expect(record).toMatchObject({
      session_id: res.session_id,
      role: 'implementation-lead',
      focus: 'implement clock_in',
      focus_source: 'explicit',
      branch: 'main',
      working_dir: repo.dir,
      model: null,
      started_at: NOW,
      context_generated_at: NOW,
      last_activity: NOW,
      state: 'CREATED',
    });
    expect(record.starting_commit).toMatch(/^[0-9a-f]{40}$/);
    expect(res.focus_resolved).toEqual({ value: 'implement clock_in', source: 'explicit' });
    expect(res.conflict).toBeNull();
    expect(res.context_generated_at).toBe(NOW);
    expect(res.instruction).toContain('Read context_paths');
    expect(res.context_paths).toMatchObject({
      checklist: '.hestai/context/state/checklist.oct.md',
      blockers: '.hestai/context/state/blockers.oct.md',
      current_focus: '.hestai/context/state/current-focus.oct.md',
      project_context: null,
    });
    expect(res.structure_status).toBe('incomplete');
    expect(res.structure_missing).toContain('.hestai/context/PROJECT-CONTEXT.oct.md');
    expect(readFast(repo, 'current-focus.oct.md')).toMatchObject({
      SESSION_ID: res.session_id,
      ROLE: 'implementation-lead',
      BRANCH: 'main',
    });
    expect(readFast(repo, 'checklist.oct.md')['PENDING']).toEqual(['session task: implement clock_in']);
    expect(readFast(repo, 'blockers.oct.md')['ACTIVE']).toEqual([]);
    expect(fs.readdirSync(paths.active)).toEqual([res.session_id]);
    const audit = readJsonl(paths.auditLog) as { event: string; session_id: string }[];
    expect(audit).toContainEqual(expect.objectContaining({ event: 'clock_in', session_id: res.session_id, at: NOW }));
  });

  it('resolves any path inside the repository to the worktree root', async () => {
    const repo = makeRepo();
    fs.mkdirSync(path.join(repo.dir, 'a/b'), { recursive: true });
    const res = await clockIn({ working_dir: path.join(repo.dir, 'a/b'), role: 'tester' }, deps(repo));
    expect(readSession(workspacePaths(repo.dir), res.session_id)!.working_dir).toBe(repo.dir);
  });

  it.each([
    ['a relative path', 'relative/dir', 'WORKDIR_INVALID'],
    ['a traversal', '/tmp/../etc', 'PATH_TRAVERSAL'],
    ['control characters', '/tmp/a\nb', 'PATH_TRAVERSAL'],
    ['a missing directory', '/nonexistent/hestai/dir', 'WORKDIR_INVALID'],
  ])('rejects %s as working dir with exit 2', async (_name, dir, code) => {
    const repo = makeRepo();
    const error = await rejection(clockIn({ working_dir: dir, role: 'tester' }, deps(repo)));
    expect(error.exitCode).toBe(2);
    expect(error.code).toBe(code);
  });

  it('rejects a file and a directory outside any git work tree', async () => {
    const repo = makeRepo();
    expect(
      (await rejection(clockIn({ working_dir: path.join(repo.dir, 'README.md'), role: 'tester' }, deps(repo)))).code,
    ).toBe('WORKDIR_INVALID');
    expect((await rejection(clockIn({ working_dir: tempDir(), role: 'tester' }, deps(repo)))).code).toBe('NOT_A_REPO');
  });

  it('rejects an invalid role with exit 2 and writes nothing', async () => {
    const repo = makeRepo();
    const error = await rejection(clockIn({ working_dir: repo.dir, role: 'Bad Role' }, deps(repo)));
    expect(error).toMatchObject({ exitCode: 2, code: 'ROLE_INVALID' });
    expect(fs.existsSync(path.join(repo.dir, '.hestai'))).toBe(false);
  });

  it('refuses a .hestai/sessions symlink that escapes the worktree', async () => {
    const repo = makeRepo();
    const outside = tempDir();
    fs.mkdirSync(path.join(repo.dir, '.hestai'));
    fs.symlinkSync(outside, path.join(repo.dir, '.hestai/sessions'));
    const error = await rejection(clockIn({ working_dir: repo.dir, role: 'tester' }, deps(repo)));
    expect(error).toMatchObject({ exitCode: 2, code: 'PATH_TRAVERSAL' });
    expect(fs.readdirSync(outside)).toEqual([]);
  });
});

describe('clockIn: focus resolution', () => {
  it('reads the branch of a linked worktree and takes the issue number from it', async () => {
    const repo = makeRepo();
    const wt = path.join(path.dirname(repo.dir), 'wt-issue');
    repo.git(['worktree', 'add', '-q', '-b', 'feat/issue-7-login', wt]);
    const res = await clockIn({ working_dir: wt, role: 'implementation-lead', focus: '   ' }, deps(repo));
    expect(res.focus_resolved).toEqual({ value: 'GitHub issue #7', source: 'github_issue', issue_number: 7 });
    expect(readSession(workspacePaths(wt), res.session_id)!.branch).toBe('feat/issue-7-login');
    expect(fs.existsSync(path.join(repo.dir, '.hestai'))).toBe(false);
  });

  it('infers the focus from a feature prefix, and defaults to general', async () => {
    const repo = makeRepo();
    repo.git(['checkout', '-q', '-b', 'fix/crash-on-start']);
    expect((await clockIn({ working_dir: repo.dir, role: 'a' }, deps(repo))).focus_resolved).toEqual({
      value: 'fix: crash on start',
      source: 'branch',
    });
    repo.git(['checkout', '-q', '-b', 'wip']);
    expect((await clockIn({ working_dir: repo.dir, role: 'b' }, deps(repo))).focus_resolved).toEqual({
      value: 'general',
      source: 'default',
    });
  });
});

describe('clockIn: conflicts (CI-I5)', () => {
  it('continues by default and reports the live neighbour', async () => {
    const repo = makeRepo();
    const first = await clockIn({ working_dir: repo.dir, role: 'planner', focus: 'login' }, deps(repo));
    const second = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'login' }, deps(repo));
    expect(second.conflict).toMatchObject({
      existing_session_id: first.session_id,
      existing_role: 'planner',
      existing_focus: 'login',
      started_at: NOW,
      relation: 'same',
      resolution: 'continue',
      other_live_sessions: 1,
    });
    expect(listActiveSessions(workspacePaths(repo.dir)).sessions).toHaveLength(2);
  });

  it('aborts with exit 1 and creates nothing', async () => {
    const repo = makeRepo();
    const first = await clockIn({ working_dir: repo.dir, role: 'planner' }, deps(repo));
    const error = await rejection(clockIn({ working_dir: repo.dir, role: 'tester', on_conflict: 'abort' }, deps(repo)));
    expect(error).toMatchObject({ exitCode: 1, code: 'SESSION_CONFLICT' });
    expect(error.message).toContain(first.session_id);
    expect(fs.readdirSync(workspacePaths(repo.dir).active)).toEqual([first.session_id]);
  });

  it('takes over: the old session becomes STALE and both records log the transfer', async () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const first = await clockIn({ working_dir: repo.dir, role: 'planner' }, deps(repo));
    const second = await clockIn({ working_dir: repo.dir, role: 'tester', on_conflict: 'takeover' }, deps(repo));
    expect(second.conflict).toMatchObject({ existing_session_id: first.session_id, resolution: 'takeover' });
    const old = readSession(paths, first.session_id)!;
    const taker = readSession(paths, second.session_id)!;
    expect(old.state).toBe('STALE');
    expect(old.ownership_log).toEqual([{ at: NOW, event: 'taken_over', other_session_id: second.session_id }]);
    expect(taker.ownership_log).toEqual([{ at: NOW, event: 'took_over', other_session_id: first.session_id }]);
    const audit = readJsonl(paths.auditLog) as Record<string, unknown>[];
    expect(audit).toContainEqual(
      expect.objectContaining({
        event: 'session_takeover',
        session_id: second.session_id,
        previous_session_id: first.session_id,
      }),
    );
    const third = await clockIn({ working_dir: repo.dir, role: 'x' }, deps(repo));
    expect(third.conflict?.existing_session_id).toBe(second.session_id);
  });

  it('reports a corrupt neighbour without failing', async () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const bad = '11111111-2222-4333-8444-555555555555';
    fs.mkdirSync(path.join(paths.active, bad), { recursive: true });
    fs.writeFileSync(sessionFile(paths, bad), '{"version": 1,');
    const res = await clockIn({ working_dir: repo.dir, role: 'tester' }, deps(repo));
    expect(res.conflict).toBeNull();
    expect(res.corrupt_sessions).toEqual([
      expect.objectContaining({ session_id: bad, error: expect.stringContaining('corrupt') }),
    ]);
  });

  it('archives sessions inactive beyond the threshold and deletes expired archives, reported in its result', async () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    const at = (iso: string) => ({ ...deps(repo), clock: fixedClock(iso) });
    const done = await clockIn({ working_dir: repo.dir, role: 'writer' }, at('2025-12-09T00:00:00.000Z'));
    await clockOut({ working_dir: repo.dir, session_id: done.session_id }, at('2025-12-09T00:00:00.000Z'));
    const recent = await clockIn({ working_dir: repo.dir, role: 'reviewer' }, at('2026-01-06T00:00:00.000Z'));
    const old = await clockIn({ working_dir: repo.dir, role: 'planner' }, at('2026-01-07T11:00:00.000Z'));
    await markSessionWorking(paths, recent.session_id, '2026-01-10T11:00:00.000Z');
    const res = await clockIn({ working_dir: repo.dir, role: 'tester', on_stale: 'cleanup' }, deps(repo));
    expect(res.stale_sessions).toEqual([
      expect.objectContaining({
        session_id: old.session_id,
        role: 'planner',
        last_activity: '2026-01-07T11:00:00.000Z',
      }),
    ]);
    expect(res.cleanup.archived).toEqual([
      { session_id: old.session_id, archive_path: expect.stringContaining(old.session_id) },
    ]);
    expect(res.cleanup.deleted_archives).toEqual([expect.stringContaining(done.session_id)]);
    expect(res.cleanup_notice).toMatch(/archived/);
    expect(readSession(paths, old.session_id)).toBeNull();
    const archived = fs.readFileSync(path.join(repo.dir, res.cleanup.archived[0]!.archive_path), 'utf8');
    expect(toObject(parseOctave(archived))).toMatchObject({ SESSION_ID: old.session_id, STATE: 'STALE' });
    // A neighbour with recent activity is neither marked STALE nor archived: it is a live conflict.
    expect(readSession(paths, recent.session_id)!.state).toBe('ACTIVE');
    expect(res.conflict?.existing_session_id).toBe(recent.session_id);
    const audit = readJsonl(paths.auditLog) as Record<string, unknown>[];
    expect(audit).toContainEqual(
      expect.objectContaining({ event: 'session_archived', session_id: old.session_id, by_session_id: res.session_id }),
    );
    expect(audit).toContainEqual(expect.objectContaining({ event: 'archive_deleted', by_session_id: res.session_id }));
  });

  it('reads the stale threshold from the workspace file', async () => {
    const repo = makeRepo();
    repo.write('.hestai_workspace.yaml', 'cleanup:\n  stale_session_hours: 2\n');
    const old = await clockIn(
      { working_dir: repo.dir, role: 'planner' },
      { ...deps(repo), clock: fixedClock('2026-01-10T09:59:00.000Z') },
    );
    const res = await clockIn({ working_dir: repo.dir, role: 'tester', on_stale: 'continue' }, deps(repo));
    expect(res.stale_sessions.map((s) => s.session_id)).toEqual([old.session_id]);
  });
});

describe('clockIn: FAST layer (CI-I4)', () => {
  it('carries incomplete checklist items and unresolved blockers forward', async () => {
    const repo = makeRepo();
    repo.write(
      '.hestai/context/state/checklist.oct.md',
      writeOctave(octaveDocument('CHECKLIST', { PENDING: ['migrate store'], DONE: ['write docs'] })),
    );
    repo.write(
      '.hestai/context/state/blockers.oct.md',
      writeOctave(octaveDocument('BLOCKERS', { ACTIVE: ['CI red'], RESOLVED: ['flaky'] })),
    );
    const res = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'stabilise CI' }, deps(repo));
    expect(readFast(repo, 'checklist.oct.md')).toMatchObject({
      PENDING: ['session task: stabilise CI', 'migrate store'],
      OWNERS: [['session', res.session_id, 'stabilise CI'], []],
      DONE: ['write docs'],
      CAP: '50',
    });
    expect(readFast(repo, 'blockers.oct.md')).toMatchObject({
      ACTIVE: ['CI red'],
      RESOLVED: [],
      SESSION_CONTEXT: { SESSION_ID: res.session_id },
    });
  });

  it('does not grow without bound: 60 clock-ins without clock-out leave a capped list, reported', async () => {
    const repo = makeRepo();
    let last = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'focus 0' }, deps(repo));
    for (let i = 1; i < 60; i++)
      last = await clockIn({ working_dir: repo.dir, role: 'tester', focus: `focus ${i}` }, deps(repo));
    const pending = readFast(repo, 'checklist.oct.md')['PENDING'] as string[];
    expect(pending.length).toBeLessThanOrEqual(50);
    expect(pending[0]).toBe('session task: focus 59');
    expect(last.fast_layer.checklist).toMatchObject({ pending: pending.length, cap: 50 });
  });

  it('hands the items of an archived session to its focus, and the next session on that focus adopts them', async () => {
    const repo = makeRepo();
    const first = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'login' }, deps(repo));
    fs.rmSync(path.join(workspacePaths(repo.dir).active, first.session_id), { recursive: true });
    const other = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'billing' }, deps(repo));
    expect(readFast(repo, 'checklist.oct.md')).toMatchObject({
      PENDING: ['session task: billing', 'session task: login'],
      OWNERS: [
        ['session', other.session_id, 'billing'],
        ['focus', 'login'],
      ],
    });
    const next = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'login' }, deps(repo));
    expect(readFast(repo, 'checklist.oct.md')).toMatchObject({
      PENDING: ['session task: login', 'session task: billing'],
      OWNERS: [
        ['session', next.session_id, 'login'],
        ['session', other.session_id, 'billing'],
      ],
      CARRIED_FORWARD: ['session task: login'],
    });
  });

  it('moves a corrupt FAST file aside (nothing lost) and reports it', async () => {
    const repo = makeRepo();
    repo.write('.hestai/context/state/checklist.oct.md', 'this is not octave\n');
    const res = await clockIn({ working_dir: repo.dir, role: 'tester' }, deps(repo));
    const state = path.join(repo.dir, '.hestai/context/state');
    const aside = fs.readdirSync(state).filter((f) => f.startsWith('checklist.oct.md.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(fs.readFileSync(path.join(state, aside[0]!), 'utf8')).toBe('this is not octave\n');
    expect(res.warnings.join('\n')).toContain('checklist.oct.md');
  });

  it.each(['current-focus.oct.md', 'current-state.oct.md'])(
    'moves a corrupt %s aside too before it is regenerated (docs/sessions.md: every FAST file)',
    async (name) => {
      const repo = makeRepo();
      repo.write(`.hestai/context/state/${name}`, 'notes a person wrote, not octave\n');
      const res = await clockIn({ working_dir: repo.dir, role: 'tester' }, deps(repo));
      const state = path.join(repo.dir, '.hestai/context/state');
      const aside = fs.readdirSync(state).filter((f) => f.startsWith(`${name}.corrupt-`));
      expect(aside).toHaveLength(1);
      expect(fs.readFileSync(path.join(state, aside[0]!), 'utf8')).toBe('notes a person wrote, not octave\n');
      expect(res.warnings.join('\n')).toContain(name);
      expect(validateOctave(fs.readFileSync(path.join(state, name), 'utf8'))).toEqual([]);
    },
  );
});

describe('clockIn: a failure mid-creation leaves no partial session', () => {
  it('when the FAST-layer directory cannot be written', async () => {
    const repo = makeRepo();
    repo.write('.hestai/context/state', 'a file where a directory must go');
    const error = await rejection(clockIn({ working_dir: repo.dir, role: 'tester' }, deps(repo)));
    expect(error).toMatchObject({ exitCode: 2, code: 'STORAGE' });
    expect(error.remedy).toBeTruthy();
    expect(fs.readdirSync(workspacePaths(repo.dir).active)).toEqual([]);
  });

  it('when the sessions directory cannot be created', async () => {
    const repo = makeRepo();
    repo.write('.hestai/sessions', 'a file');
    const error = await rejection(clockIn({ working_dir: repo.dir, role: 'tester' }, deps(repo)));
    expect(error).toMatchObject({ exitCode: 2, code: 'STORAGE' });
    expect(fs.readFileSync(path.join(repo.dir, '.hestai/sessions'), 'utf8')).toBe('a file');
    expect(fs.existsSync(path.join(repo.dir, '.hestai/context/state'))).toBe(false);
  });
});

describe('clockIn: fresh context (CI-I2, CI-I3)', () => {
  it('gathers git state, human context, ADRs, structure and quality gates, and ranks deterministically', async () => {
    const repo = makeRepo();
    repo.commit('feat: session store', {
      '.hestai/context/PROJECT-CONTEXT.oct.md': '===PROJECT_CONTEXT===\nPHASE::B1\n===END===\n',
      'docs/adr/0001-session-storage.md':
        '# ADR-0001: Session storage\n\nStatus: Accepted\n\n## Decision\n\nSessions are JSON files under .hestai.\n',
      'src/session/store.ts': 'export {};\n',
      'src/other.ts': 'export {};\n',
    });
    repo.git(['branch', 'base', 'HEAD~1']);
    repo.git(['branch', '--set-upstream-to=base']);
    repo.write('src/other.ts', 'export const changed = 1;\n');
    repo.write(
      '.hestai_workspace.yaml',
      [
        'quality_gates:',
        '  - name: ok',
        '    command: echo all good',
        '  - name: broken',
        '    command: echo failing >&2; exit 3',
        '  - name: slow',
        '    command: sleep 5',
        '    timeout_ms: 200',
        '',
      ].join('\n'),
    );
    // The user trusts this content (issue 12): repository gates run only then.
    trustWorkspace(workspacePaths(repo.dir), repo.env, new Date(NOW));
    const res = await clockIn(
      { working_dir: repo.dir, role: 'implementation-lead', focus: 'session storage' },
      deps(repo),
    );
    const ctx = res.context;
    expect(ctx.git).toMatchObject({ branch: 'main', upstream: 'base', ahead: 1, behind: 0 });
    expect(ctx.git.changes).toMatchObject({ modified: 1, untracked: 1 });
    expect(ctx.git.recent_commits[0]).toMatchObject({ header: 'feat: session store' });
    expect(ctx.human_context).toEqual(['.hestai/context/PROJECT-CONTEXT.oct.md']);
    expect(ctx.adr_constraints).toEqual([
      {
        path: 'docs/adr/0001-session-storage.md',
        title: 'ADR-0001: Session storage',
        status: 'Accepted',
        decision: 'Sessions are JSON files under .hestai.',
      },
    ]);
    expect(ctx.structure.tracked_files).toBe(5);
    expect(ctx.quality_gates).toEqual([
      expect.objectContaining({ name: 'ok', status: 'pass', exit_code: 0, output: 'all good' }),
      expect.objectContaining({ name: 'broken', status: 'fail', exit_code: 3, output: 'failing' }),
      expect.objectContaining({ name: 'slow', status: 'timeout', exit_code: null }),
    ]);
    expect(res.selection).toMatchObject({ method: 'deterministic', reason: 'no AI provider configured' });
    const selected = ctx.selected.map((s) => s.path);
    expect(selected.slice(0, 2)).toEqual(
      expect.arrayContaining(['src/session/store.ts', 'docs/adr/0001-session-storage.md']),
    );
    expect(selected).toContain('.hestai/context/PROJECT-CONTEXT.oct.md');
    expect(selected).toContain('src/other.ts');
    expect(res.context_paths.project_context).toBe('.hestai/context/PROJECT-CONTEXT.oct.md');
    expect(readFast(repo, 'current-focus.oct.md')['SELECTED_CONTEXT']).toEqual(selected);
  });

  it('summarises the working-tree diff against HEAD: files, hunks, lines, binary; the largest files first', async () => {
    const repo = makeRepo();
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`);
    const files: Record<string, string> = { 'src/big.ts': `${lines.join('\n')}\n`, 'img.bin': 'a\0b' };
    for (let i = 0; i < 25; i++) files[`src/f${i}.ts`] = 'x\n';
    repo.commit('feat: files', files);
    const edited = [...lines];
    edited[2] = 'changed 2';
    edited[30] = 'changed 30';
    repo.write('src/big.ts', `${edited.join('\n')}\nappended\n`);
    repo.write('img.bin', 'c\0d');
    for (let i = 0; i < 25; i++) repo.write(`src/f${i}.ts`, 'y\n');
    repo.git(['add', 'src/f0.ts']);
    repo.write('new-untracked.ts', 'not in the diff\n');
    const res = await clockIn({ working_dir: repo.dir, role: 'tester' }, deps(repo));
    const diff = res.context.git.diff;
    expect(diff).toMatchObject({ available: true, files: 27, binary: 1, truncated: false });
    expect(diff.hunks).toBe(3 + 25);
    expect(diff.added).toBe(3 + 25);
    expect(diff.removed).toBe(2 + 25);
    expect(diff.top).toHaveLength(20);
    expect(diff.top[0]).toEqual({ path: 'src/big.ts', hunks: 3, added: 3, removed: 2, binary: false });
    expect(diff.top.map((f) => f.path)).not.toContain('new-untracked.ts');
  });

  it('writes current-state.oct.md (OCTAVE, validated) from the gathered context, so context_paths.current_state is set', async () => {
    const repo = makeRepo();
    repo.commit('feat: login', { 'src/login.ts': 'a\n' });
    repo.write('src/login.ts', 'b\n');
    const res = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'login' }, deps(repo));
    expect(res.context_paths.current_state).toBe('.hestai/context/state/current-state.oct.md');
    const text = fs.readFileSync(path.join(repo.dir, '.hestai/context/state/current-state.oct.md'), 'utf8');
    expect(validateOctave(text)).toEqual([]);
    const doc = toObject(parseOctave(text)) as Record<string, Record<string, unknown>>;
    expect(doc).toMatchObject({
      SESSION_ID: res.session_id,
      GENERATED_AT: NOW,
      ROLE: 'tester',
      FOCUS: 'login',
      GIT: { BRANCH: 'main', HEAD: res.context.git.head, MODIFIED: '1', CHANGED_FILES: ['src/login.ts'] },
      DIFF: { FILES: '1', HUNKS: '1', ADDED: '1', REMOVED: '1', TRUNCATED: 'false' },
      SELECTION: 'deterministic',
    });
    expect(doc['GIT']!['RECENT_COMMITS']).toEqual([
      expect.stringMatching(/^[0-9a-f]{7,} feat: login$/),
      expect.any(String),
    ]);
    expect(res.fast_layer.written).toContain(path.join(repo.dir, '.hestai/context/state/current-state.oct.md'));
  });

  it('works in a repository without commits', async () => {
    const repo = makeRepo({ initialCommit: false });
    const res = await clockIn({ working_dir: repo.dir, role: 'tester' }, deps(repo));
    expect(res.context.git).toMatchObject({ branch: 'main', head: null, recent_commits: [] });
    expect(readSession(workspacePaths(repo.dir), res.session_id)!.starting_commit).toBeNull();
  });
});

describe('clockIn: GitHub enrichment through gh', () => {
  it('is skipped cleanly when gh is not installed', async () => {
    const repo = makeRepo();
    const res = await clockIn({ working_dir: repo.dir, role: 'tester', focus: 'login' }, deps(repo));
    expect(res.github_context).toEqual({
      available: false,
      reason: 'gh is not installed',
      related_issues: [],
      active_pr: null,
    });
  });

  const GH = [
    '#!/bin/sh',
    'case "$1 $2" in',
    '  "auth status") echo "Logged in" >&2; exit 0 ;;',
    '  "issue view") echo \'{"number":7,"title":"Login fails on Safari","state":"OPEN","url":"https://github.com/o/r/issues/7","labels":[{"name":"bug"}]}\' ;;',
    '  "issue list") echo \'[{"number":8,"title":"Login timeout","state":"OPEN","url":"https://github.com/o/r/issues/8","labels":[]}]\' ;;',
    '  "pr view") echo \'{"number":12,"title":"Fix login","state":"OPEN","url":"https://github.com/o/r/pull/12","headRefName":"feat/issue-7"}\' ;;',
    '  *) echo "unexpected: $*" >&2; exit 1 ;;',
    'esac',
    '',
  ].join('\n');

  it('names the issue of the branch and adds related issues and the open PR', async () => {
    const repo = makeRepo();
    repo.git(['checkout', '-q', '-b', 'feat/issue-7']);
    const bin = fakeBin(path.dirname(repo.dir), 'gh', GH);
    const res = await clockIn(
      { working_dir: repo.dir, role: 'tester' },
      deps(repo, { PATH: `${bin}${path.delimiter}${pathWithoutGh()}` }),
    );
    expect(res.focus_resolved).toEqual({ value: '#7: Login fails on Safari', source: 'github_issue', issue_number: 7 });
    expect(res.github_context.available).toBe(true);
    expect(res.github_context.related_issues.map((i) => i.number)).toEqual([7, 8]);
    expect(res.github_context.related_issues[0]).toMatchObject({ title: 'Login fails on Safari', labels: ['bug'] });
    expect(res.github_context.active_pr).toMatchObject({ number: 12, title: 'Fix login' });
  });

  it('skips enrichment and proceeds when GitHub rate-limits every call (seed §8)', async () => {
    const repo = makeRepo();
    repo.git(['checkout', '-q', '-b', 'feat/issue-7']);
    const limited = [
      '#!/bin/sh',
      'if [ "$1 $2" = "auth status" ]; then echo "Logged in" >&2; exit 0; fi',
      'echo "GraphQL: API rate limit exceeded for user ID 1234." >&2',
      'exit 1',
      '',
    ].join('\n');
    const bin = fakeBin(path.dirname(repo.dir), 'gh', limited);
    const res = await clockIn(
      { working_dir: repo.dir, role: 'tester' },
      deps(repo, { PATH: `${bin}${path.delimiter}${pathWithoutGh()}` }),
    );
    expect(fs.readdirSync(workspacePaths(repo.dir).active)).toEqual([res.session_id]);
    expect(res.focus_resolved).toMatchObject({ source: 'github_issue', issue_number: 7 });
    expect(res.github_context).toMatchObject({ available: true, related_issues: [], active_pr: null });
    expect(res.github_context.reason).toMatch(/API rate limit exceeded/);
  });

  it('skips enrichment when gh is not authenticated', async () => {
    const repo = makeRepo();
    const bin = fakeBin(path.dirname(repo.dir), 'gh', '#!/bin/sh\necho "not logged in" >&2\nexit 1\n');
    const res = await clockIn(
      { working_dir: repo.dir, role: 'tester' },
      deps(repo, { PATH: `${bin}${path.delimiter}${pathWithoutGh()}` }),
    );
    expect(res.github_context).toMatchObject({
      available: false,
      reason: expect.stringContaining('not authenticated'),
    });
  });
});

describe('clockIn: AI-assisted selection over an OpenAI-compatible endpoint', () => {
  function aiWorkspace(repo: TempRepo, url: string, timeout = 2000): void {
    repo.write(
      '.hestai_workspace.yaml',
      `ai:\n  base_url: ${url}\n  model_override: test-model\n  timeout_ms: ${timeout}\n`,
    );
    repo.commit('feat: add files', { 'src/login.ts': 'x\n', 'src/logout.ts': 'y\n' });
    trustWorkspace(workspacePaths(repo.dir), repo.env, new Date(NOW));
  }

  it('uses the provider reply to select context and synthesise checklist items', async () => {
    const repo = makeRepo();
    const server = await chatServer(() =>
      completion(
        JSON.stringify({
          selected: [{ path: 'src/logout.ts', reason: 'the focus' }, { path: '/etc/passwd' }],
          checklist: ['write the logout test'],
        }),
      ),
    );
    aiWorkspace(repo, server.url);
    const res = await clockIn(
      { working_dir: repo.dir, role: 'implementation-lead', focus: 'login logout' },
      deps(repo, { HESTAI_AI_API_KEY: 'not-sent' }),
    );
    expect(res.selection).toMatchObject({
      method: 'ai',
      model: 'test-model',
      reason: null,
      prompt: { name: 'clock_in_synthesis', version: '1', source: 'package' },
    });
    expect(res.context.selected.map((s) => s.path)).toEqual(['src/logout.ts']);
    expect(res.context.selected[0]!.reasons).toContain('ai: the focus');
    // One request selects the context, one synthesises the FAST layer (fast-synthesis.test.ts).
    expect(server.requests).toHaveLength(2);
    const request = selectionRequest(server);
    expect(request.url).toBe('/v1/chat/completions');
    expect(request.body['model']).toBe('test-model');
    const messages = request.body['messages'] as { role: string; content: string }[];
    expect(messages[0]!.role).toBe('system');
    expect(messages[1]!.content).toContain('login logout');
    expect(messages[1]!.content).toContain('src/login.ts');
    expect(request.headers['authorization']).toBeUndefined();
    expect(readFast(repo, 'checklist.oct.md')['PENDING']).toEqual([
      'session task: login logout',
      'write the logout test',
    ]);
    expect(readFast(repo, 'current-focus.oct.md')['SELECTION']).toBe('ai');
  });

  it('falls back to the deterministic ranking on a malformed reply', async () => {
    const repo = makeRepo();
    const server = await chatServer(() => completion('I think you should read everything.'));
    aiWorkspace(repo, server.url);
    const res = await clockIn({ working_dir: repo.dir, role: 'implementation-lead', focus: 'login' }, deps(repo));
    expect(res.selection).toMatchObject({ method: 'deterministic', reason: expect.stringContaining('not JSON') });
    expect(res.context.selected.map((s) => s.path)).toContain('src/login.ts');
  });

  it('falls back on an HTTP error', async () => {
    const repo = makeRepo();
    const server = await chatServer(() => ({ status: 429, body: '{"error":"rate limited"}' }));
    aiWorkspace(repo, server.url);
    const res = await clockIn({ working_dir: repo.dir, role: 'implementation-lead', focus: 'login' }, deps(repo));
    expect(res.selection).toMatchObject({ method: 'deterministic', reason: expect.stringContaining('HTTP 429') });
  });

  it('falls back when the provider times out', async () => {
    const repo = makeRepo();
    const server = await chatServer(() => 'hang');
    aiWorkspace(repo, server.url, 300);
    const res = await clockIn({ working_dir: repo.dir, role: 'implementation-lead', focus: 'login' }, deps(repo));
    expect(res.selection).toMatchObject({
      method: 'deterministic',
      reason: expect.stringContaining('timed out after 300 ms'),
    });
    expect(fs.readdirSync(workspacePaths(repo.dir).active)).toEqual([res.session_id]);
  });

  it('reads ~/.hestai/config/ai.yaml and a prompt override, and sends the key with its own endpoint', async () => {
    const repo = makeRepo();
    const server = await chatServer(() => completion('{"selected":["README.md"]}'));
    fs.mkdirSync(path.join(repo.home, '.hestai/config'), { recursive: true });
    fs.writeFileSync(
      path.join(repo.home, '.hestai/config/ai.yaml'),
      `base_url: ${server.url}\nmodel: home-model\napi_key: sk-home\n`,
    );
    fs.mkdirSync(path.join(repo.home, '.hestai/prompts'), { recursive: true });
    fs.writeFileSync(
      path.join(repo.home, '.hestai/prompts/clock_in_synthesis.txt'),
      '# version: 9-local\n\nPick files. Reply with JSON {"selected": [...]}.\n',
    );
    const res = await clockIn({ working_dir: repo.dir, role: 'tester', model: 'flag-model' }, deps(repo));
    expect(res.selection).toMatchObject({
      method: 'ai',
      model: 'flag-model',
      prompt: { version: '9-local', source: 'user' },
    });
    expect(selectionRequest(server).headers['authorization']).toBe('Bearer sk-home');
    expect((selectionRequest(server).body['messages'] as { content: string }[])[0]!.content).toBe(
      'Pick files. Reply with JSON {"selected": [...]}.',
    );
    expect(readSession(workspacePaths(repo.dir), res.session_id)!.model).toBe('flag-model');
    // SS-I5: the prompt version used is recorded in session.json and in the audit line.
    const prompt = { name: 'clock_in_synthesis', version: '9-local', source: 'user' };
    expect(readSession(workspacePaths(repo.dir), res.session_id)!.prompts).toContainEqual(prompt);
    expect(readJsonl(workspacePaths(repo.dir).auditLog)).toContainEqual(
      expect.objectContaining({
        event: 'clock_in',
        session_id: res.session_id,
        prompts: expect.arrayContaining([prompt]),
      }),
    );
  });

  it('records the prompt version even when the reply was unusable, and none without a provider', async () => {
    const repo = makeRepo();
    const server = await chatServer(() => completion('not json'));
    aiWorkspace(repo, server.url);
    const res = await clockIn({ working_dir: repo.dir, role: 'tester' }, deps(repo));
    expect(readSession(workspacePaths(repo.dir), res.session_id)!.prompts).toContainEqual({
      name: 'clock_in_synthesis',
      version: '1',
      source: 'package',
    });
    const plain = makeRepo();
    const none = await clockIn({ working_dir: plain.dir, role: 'tester' }, deps(plain));
    expect(readSession(workspacePaths(plain.dir), none.session_id)!.prompts).toEqual([]);
    expect(readJsonl(workspacePaths(plain.dir).auditLog)).toContainEqual(
      expect.objectContaining({ event: 'clock_in', session_id: none.session_id, prompts: [] }),
    );
  });

  it('reads the provider from the worktree .env file', async () => {
    const repo = makeRepo();
    const server = await chatServer(() => completion('{"selected":["README.md"]}'));
    repo.write('.env', `HESTAI_AI_BASE_URL=${server.url}\nHESTAI_AI_MODEL=env-model\n`);
    const res = await clockIn({ working_dir: repo.dir, role: 'tester' }, deps(repo));
    expect(res.selection).toMatchObject({ method: 'ai', model: 'env-model' });
  });
});
