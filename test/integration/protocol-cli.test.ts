import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, makeRepo, sharedFixture, type TempRepo } from '../helpers/git-repo.js';
import { seedAnchor } from '../helpers/session-fixture.js';
import { pathWithoutGh } from '../helpers/session-fixtures.js';

// The session protocol (seed 004) through the built CLI, on real temp repositories.

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const json = <T = Record<string, any>>(text: string): T => JSON.parse(text) as T;

type Setup = { protocol?: string; config?: string };
const setups = new Map<string, () => ReturnType<typeof freshSetup>>();

/** An adopted repository on feat/work with a clocked-in session: built once per file and options, copied per test. */
function setup(options: Setup = {}) {
  const key = JSON.stringify(options);
  if (!setups.has(key))
    setups.set(
      key,
      sharedFixture(() => freshSetup(options)),
    );
  return setups.get(key)!();
}

function freshSetup(options: Setup) {
  const repo = makeRepo();
  const env = { PATH: pathWithoutGh() };
  const run = (args: string[], extra: NodeJS.ProcessEnv = {}) => repo.hestai(args, { env: { ...env, ...extra } });
  expect(run(['init', '--no-husky']).status).toBe(0);
  if (options.protocol !== undefined) repo.write('.hestai/protocol.yaml', options.protocol);
  if (options.config !== undefined) repo.write('.hestai_workspace.yaml', options.config);
  repo.commit('chore: hestai init');
  repo.git(['switch', '-q', '-c', 'feat/work']);
  const clock = run(['clock-in', '--role', 'implementation-lead', '--focus', 'protocol', '--json']);
  expect(clock.status, clock.stderr).toBe(0);
  const token = json<{ session_id: string }>(clock.stdout).session_id;
  return { repo, run, token, statePath: path.join(repo.dir, '.hestai/sessions/active', token, 'protocol.json') };
}

const anchor = (repo: TempRepo, token: string) => seedAnchor(repo.dir, token, {}, { role: 'implementation-lead' });

describe('hestai session (the protocol state machine)', () => {
  it('runs the default protocol from start to a COMPLETE end with one history record', () => {
    const { repo, run, token, statePath } = setup();
    const start = run(['session', 'start', '--objective', 'ship the protocol', '--json']);
    expect(start.status, start.stderr).toBe(0);
    const started = json(start.stdout);
    expect(started).toMatchObject({
      session_id: token,
      phase: 'BINDING',
      blocked_until: ['BINDING'],
      objective: 'ship the protocol',
      branch: 'feat/work',
    });
    expect(started['checklist'].start.map((i: any) => [i.gate, i.req, i.status])).toEqual([
      ['clock_in', 'MUST', 'x'],
      ['read_context', 'MUST', ' '],
      ['anchor', 'MUST', ' '],
    ]);

    // One run per session: a second start is refused and changes nothing.
    const before = fs.readFileSync(statePath, 'utf8');
    const again = run(['session', 'start', '--objective', 'another']);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already has a protocol run');
    expect(fs.readFileSync(statePath, 'utf8')).toBe(before);

    const blocked = json(run(['session', 'blocked', '--json']).stdout);
    expect(blocked).toMatchObject({ is_blocked: true, current_phase: 'BINDING' });
    expect(blocked['blocked_phases'].map((b: any) => b.gate)).toEqual(['read_context', 'anchor']);
    expect(blocked['suggested_actions'][0]).toMatch(
      /^hestai session evidence BINDING --step read_context --type content_hash/,
    );

    const refused = run(['session', 'advance', '--json']);
    expect(refused.status).toBe(1);
    expect(json(refused.stdout)).toMatchObject({
      success: false,
      previous_phase: 'BINDING',
      current_phase: 'BINDING',
      blocked_by: ['BINDING/read_context', 'BINDING/anchor'],
    });

    const hash = sha256(path.join(repo.dir, '.hestai/context/PROJECT-CONTEXT.oct.md'));
    const ev = json(
      run(['session', 'evidence', 'BINDING', '--type', 'content_hash', '--value', hash, '--json']).stdout,
    );
    expect(ev).toMatchObject({
      phase: 'BINDING',
      step: 'read_context',
      evidence_recorded: true,
      auto_validated: true,
      gate_status: 'PASS',
    });
    anchor(repo, token);

    // validate_gate is idempotent and records its result.
    const g1 = run(['session', 'gate', 'BINDING', '--json']);
    const g2 = run(['session', 'gate', 'BINDING', '--json']);
    expect(g1.status).toBe(0);
    expect(json(g1.stdout)).toEqual(json(g2.stdout));
    expect(json(g1.stdout)).toMatchObject({
      phase: 'BINDING',
      requirement_level: 'MUST',
      status: 'PASS',
      blocking: true,
    });
    expect(Object.keys(json(fs.readFileSync(statePath, 'utf8'))['results'])).toEqual([
      'BINDING/clock_in',
      'BINDING/read_context',
      'BINDING/anchor',
    ]);

    expect(json(run(['session', 'advance', '--json']).stdout)).toMatchObject({
      success: true,
      previous_phase: 'BINDING',
      current_phase: 'WORK',
    });
    expect(json(run(['session', 'advance', '--json']).stdout)).toMatchObject({ success: true, current_phase: 'END' });

    // End: INCOMPLETE while MUST gates are unmet, and nothing is written to the history.
    const incomplete = run(['session', 'end', '--summary', 'done', '--json']);
    expect(incomplete.status).toBe(1);
    const inc = json(incomplete.stdout);
    expect(inc).toMatchObject({ status: 'INCOMPLETE', handoff_updated: false });
    // (clean_tree holds: the FAST layer clock-in wrote is git-ignored.)
    expect(inc['unmet'].map((u: string) => u.split(':')[0])).toEqual(['END/context_docs', 'END/committed']);
    expect(fs.existsSync(path.join(repo.dir, '.hestai/sessions/protocol-history.json'))).toBe(false);
    expect(fs.existsSync(statePath)).toBe(true);

    repo.commit('test(core): a failing test', { 'test/core.test.ts': 'test\n' });
    repo.commit('feat(core): the feature', {
      '.hestai/context/PROJECT-CONTEXT.oct.md': `${fs.readFileSync(path.join(repo.dir, '.hestai/context/PROJECT-CONTEXT.oct.md'), 'utf8')}NOTE::"updated"\n`,
      'src/core.ts': 'x\n',
    });
    const end = run([
      'session',
      'end',
      '--summary',
      'shipped',
      '--next',
      'wire the hooks',
      '--decision',
      'protocol is data',
      '--json',
    ]);
    expect(end.status, end.stdout + end.stderr).toBe(0);
    const done = json(end.stdout);
    expect(done).toMatchObject({
      session_id: token,
      status: 'COMPLETE',
      handoff_updated: true,
      commit_sha: repo.git(['rev-parse', 'HEAD']).stdout.trim(),
    });
    expect(fs.existsSync(statePath)).toBe(false);
    const history = json(run(['session', 'show', '--history', '--json']).stdout);
    expect(history['sessions']).toEqual([
      expect.objectContaining({
        session_id: token,
        objective: 'ship the protocol',
        outcome: 'COMPLETE',
        key_decisions: ['protocol is data'],
        next_session_notes: 'wire the hooks',
        forced: [],
        commits: repo.git(['rev-list', '--reverse', 'HEAD~2..HEAD']).stdout.trim().split('\n'),
      }),
    ]);
  });

  it('right after clock-in the tree is clean: the FAST layer clock-in writes is git-ignored by init', () => {
    const { repo, run } = setup();
    expect(fs.readdirSync(path.join(repo.dir, '.hestai/context/state')).length).toBeGreaterThan(0);
    expect(run(['session', 'start', '--objective', 'a clean start']).status).toBe(0);
    expect(repo.git(['status', '--porcelain', '--untracked-files=all']).stdout).toBe('');
    const gate = run(['session', 'gate', 'END', '--step', 'clean_tree', '--json']);
    expect(json(gate.stdout)).toMatchObject({ step: 'clean_tree', status: 'PASS' });
  });

  it('force advances once per limit and appends exactly one violation per skipped requirement', () => {
    const { run, repo } = setup({ config: 'protocol:\n  force_limit: 1\n' });
    run(['session', 'start', '--objective', 'forcing']);
    const forced = run(['session', 'advance', '--force', '--json']);
    expect(forced.status).toBe(0);
    expect(json(forced.stdout)).toMatchObject({
      success: true,
      current_phase: 'WORK',
      blocked_by: ['BINDING/read_context', 'BINDING/anchor'],
    });
    expect(json(forced.stdout)['violations']).toHaveLength(2);
    const log = fs
      .readFileSync(path.join(repo.dir, '.hestai/audit/protocol-violations.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(log.map((l) => json(l)['phase'])).toEqual(['BINDING', 'BINDING']);
    expect(json(log[0]!)).toMatchObject({
      severity: 'CRITICAL',
      requirement: expect.stringContaining('BINDING/read_context'),
    });
    // The branch is feat/work, so WORK has nothing blocking: a plain advance needs no force.
    expect(json(run(['session', 'advance', '--json']).stdout)).toMatchObject({ success: true, current_phase: 'END' });
    const limited = run(['session', 'advance', '--force', '--json']);
    expect(limited.status).toBe(1);
    expect(json(limited.stdout)['message']).toContain('force limit');
    expect(
      fs.readFileSync(path.join(repo.dir, '.hestai/audit/protocol-violations.jsonl'), 'utf8').trim().split('\n'),
    ).toHaveLength(2);
    expect(json(run(['session', 'show', '--violations', '--json']).stdout)['violations']).toHaveLength(2);
  });

  it('a run with a forced MUST skip ends COMPLETE_WITH_VIOLATIONS, never "every MUST gate holds", and records no commit when none was made', () => {
    const { run, token, repo } = setup({ config: 'protocol:\n  force_limit: 3\n' });
    run(['session', 'start', '--objective', 'forcing to the end']);
    expect(json(run(['session', 'advance', '--force', '--json']).stdout)).toMatchObject({ current_phase: 'WORK' });
    expect(json(run(['session', 'advance', '--json']).stdout)).toMatchObject({ current_phase: 'END' });
    const forced = json(run(['session', 'advance', '--force', '--json']).stdout);
    expect(forced).toMatchObject({ success: true, current_phase: 'COMPLETE' });
    const end = run(['session', 'end', '--summary', 'forced through', '--json']);
    expect(end.status, end.stderr).toBe(0);
    const res = json(end.stdout);
    expect(res).toMatchObject({ session_id: token, status: 'COMPLETE_WITH_VIOLATIONS', handoff_updated: true });
    expect(res['message']).not.toContain('every MUST gate holds');
    expect(res['message']).toContain('forced');
    expect(res['commit_sha']).toBeUndefined();
    const text = run(['session', 'show', '--history', '--json']);
    expect(json(text.stdout)['sessions']).toEqual([
      expect.objectContaining({ session_id: token, outcome: 'COMPLETE_WITH_VIOLATIONS', commit_sha: null }),
    ]);
    expect(json(text.stdout)['sessions'][0]['violations']).toBeGreaterThanOrEqual(4);
    // The record says what the run was judged by and what it skipped: simple fields for reports and CI.
    expect(json(text.stdout)['sessions'][0]).toMatchObject({
      protocol_sha256: sha256(path.join(repo.dir, '.hestai/protocol.yaml')),
      starting_commit: repo.git(['rev-parse', 'HEAD']).stdout.trim(),
      commits: [],
      forced: expect.arrayContaining(['BINDING/read_context', 'BINDING/anchor', 'END/committed']),
    });
  });

  it('key_decisions and the run evidence are bounded lists: too many is a clear error naming the field, nothing written', () => {
    const { run, statePath } = setup({ config: 'protocol:\n  force_limit: 3\n' });
    run(['session', 'start', '--objective', 'bounded']);
    const decisions = Array.from({ length: 21 }, (_, i) => ['--decision', `decision number ${i}`]).flat();
    const res = run(['session', 'end', '--summary', 'too many decisions', ...decisions]);
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('key_decisions');
    expect(res.stderr).toContain('20');
    expect(fs.existsSync(statePath)).toBe(true);
    const state = json(fs.readFileSync(statePath, 'utf8'));
    state['evidence'] = Array.from({ length: 200 }, (_, i) => ({
      phase: 'BINDING',
      step: 'read_context',
      type: 'manual',
      value: `observation number ${i}`,
      recorded_at: state['started_at'],
    }));
    fs.writeFileSync(statePath, JSON.stringify(state));
    const more = run(['session', 'evidence', 'BINDING', '--type', 'content_hash', '--value', 'a'.repeat(64)]);
    expect(more.status).toBe(2);
    expect(more.stderr).toContain('200 evidence records');
  });

  it('a target phase that would skip a blocking gate is refused', () => {
    const { run } = setup();
    run(['session', 'start', '--objective', 'skip ahead']);
    const res = run(['session', 'advance', '--to', 'END', '--json']);
    expect(res.status).toBe(1);
    expect(json(res.stdout)).toMatchObject({
      success: false,
      current_phase: 'BINDING',
      blocked_by: ['BINDING/read_context', 'BINDING/anchor'],
    });
  });

  it('a MUST gate cannot be demoted or removed by editing the session state', () => {
    const { run, statePath } = setup();
    run(['session', 'start', '--objective', 'tamper']);
    const state = json(fs.readFileSync(statePath, 'utf8'));
    state['results'] = {
      'BINDING/read_context': { status: 'PASS', message: 'forged', evidence: 'x', checked_at: state['started_at'] },
      'BINDING/anchor': { status: 'PASS', message: 'forged', evidence: 'x', checked_at: state['started_at'] },
    };
    state['gates'] = [{ id: 'anchor', level: 'MAY', blocking: false }];
    state['levels'] = { 'BINDING/anchor': 'MAY' };
    fs.writeFileSync(statePath, JSON.stringify(state));
    const res = run(['session', 'advance', '--json']);
    expect(res.status).toBe(1);
    expect(json(res.stdout)['blocked_by']).toEqual(['BINDING/read_context', 'BINDING/anchor']);
  });

  it('a run file whose phase was hand-edited does not match its own event log: an error naming the file, never COMPLETE', () => {
    const { run, statePath } = setup();
    run(['session', 'start', '--objective', 'rewrite the run']);
    const state = json(fs.readFileSync(statePath, 'utf8'));
    state['current_phase'] = 'COMPLETE';
    state['phases_completed'] = ['BINDING', 'WORK', 'END'];
    fs.writeFileSync(statePath, JSON.stringify(state));
    for (const args of [
      ['session', 'end', '--summary', 'rewritten'],
      ['session', 'advance'],
    ]) {
      const res = run(args);
      expect(res.status, args.join(' ')).toBe(2);
      expect(res.stderr).toContain(statePath);
      expect(res.stderr).toContain('event log');
    }
    expect(fs.existsSync(path.join(path.dirname(statePath), '../../protocol-history.json'))).toBe(false);
  });

  it('an advance forged into the event log is re-derived at the end: a passed phase without its evidence is INCOMPLETE', () => {
    const { run, statePath } = setup();
    run(['session', 'start', '--objective', 'forge the log']);
    const state = json(fs.readFileSync(statePath, 'utf8'));
    const at = state['started_at'];
    state['events'].push({
      type: 'advance',
      at,
      from: 'BINDING',
      to: 'COMPLETE',
      passed: ['BINDING', 'WORK', 'END'],
      forced: [],
    });
    state['current_phase'] = 'COMPLETE';
    state['phases_completed'] = ['BINDING', 'WORK', 'END'];
    fs.writeFileSync(statePath, JSON.stringify(state));
    const end = run(['session', 'end', '--summary', 'forged', '--json']);
    expect(end.status, end.stderr).toBe(1);
    expect(json(end.stdout)).toMatchObject({ status: 'INCOMPLETE', handoff_updated: false });
    expect(json(end.stdout)['unmet'].map((u: string) => u.split(':')[0])).toContain('BINDING/read_context');
  });

  it('protocol.yaml edited mid-run is reported and the run is judged by the version it started with (its MUST gates never drop)', () => {
    const { repo, run } = setup();
    run(['session', 'start', '--objective', 'weaken the protocol']);
    const weak = ['version: 1', 'phases:', '  - id: BINDING', '    gates: []', ''].join('\n');
    repo.write('.hestai/protocol.yaml', weak);
    const res = run(['session', 'advance', '--json']);
    expect(res.status).toBe(1);
    const out = json(res.stdout);
    expect(out['blocked_by']).toEqual(['BINDING/read_context', 'BINDING/anchor']);
    expect(out['warnings'].join('\n')).toContain('changed since the run started');
    expect(json(run(['session', 'show', '--json']).stdout)).toMatchObject({ protocol_changed: true });
    const end = json(run(['session', 'end', '--summary', 'weakened', '--json']).stdout);
    expect(end).toMatchObject({ status: 'INCOMPLETE' });
    expect(end['message']).toContain('changed since the run started');
  });

  it('a corrupt state file is a clear error, never a pass', () => {
    const { run, statePath } = setup();
    run(['session', 'start', '--objective', 'corrupt']);
    fs.writeFileSync(statePath, '{"version": 1, "session_id": ');
    for (const args of [
      ['session', 'advance'],
      ['session', 'gate', 'BINDING'],
      ['session', 'show'],
      ['session', 'end', '--summary', 'x'],
    ]) {
      const res = run(args);
      expect(res.status, args.join(' ')).toBe(2);
      expect(res.stderr).toContain('is corrupt');
      expect(res.stderr).toContain('protocol.json');
    }
    fs.writeFileSync(statePath, JSON.stringify({ version: 1, current_phase: 'END' }));
    expect(run(['session', 'advance']).stderr).toMatch(/is corrupt: session_id/);
  });

  it('refuses command gates in a workspace that is not trusted, with the remedy', () => {
    const protocol = [
      'version: 1',
      'phases:',
      '  - id: Q',
      '    gates:',
      '      - { id: lint, step: Lint passes, level: MUST, check: { type: command, run: "true" } }',
      '',
    ].join('\n');
    const { run } = setup({ protocol });
    run(['session', 'start', '--objective', 'commands']);
    const res = run(['session', 'gate', 'Q', '--json']);
    expect(res.status).toBe(1);
    expect(json(res.stdout)['gates'][0]).toMatchObject({
      status: 'FAIL',
      message: expect.stringContaining('workspace not trusted'),
    });
    expect(json(run(['session', 'blocked', '--json']).stdout)['suggested_actions'][0]).toContain('hestai trust');
  });

  it('runs command gates once the workspace is trusted: exit 0 passes, anything else fails, with a minimal environment', () => {
    const protocol = [
      'version: 1',
      'phases:',
      '  - id: Q',
      '    gates:',
      '      - { id: lint, step: Lint passes, level: MUST, check: { type: command, run: "test -z \\"$SECRET_TOKEN\\" && echo lint-ok" } }',
      '      - { id: slow, step: Tests pass, level: SHOULD, check: { type: command, run: "exit 3" } }',
      '',
    ].join('\n');
    const { repo, run } = setup({ protocol });
    repo.commit('chore: protocol');
    expect(run(['trust']).status).toBe(0);
    run(['session', 'start', '--objective', 'commands']);
    const res = run(['session', 'gate', 'Q', '--json'], { SECRET_TOKEN: 'leak' });
    const gates = json(res.stdout)['gates'];
    expect(gates[0]).toMatchObject({ gate: 'lint', status: 'PASS', evidence: 'lint-ok' });
    expect(gates[1]).toMatchObject({ gate: 'slow', status: 'FAIL', message: expect.stringContaining('exited 3') });
    expect(res.status).toBe(0); // only the SHOULD gate fails
  });

  it("session end publishes the run's command gates and how each ended (the report matches them to an anchor's GATE)", () => {
    const protocol = [
      'version: 1',
      'phases:',
      '  - id: Q',
      '    gates:',
      '      - { id: tests, step: Tests pass, level: MUST, check: { type: command, run: "echo tests-ok" } }',
      '      - { id: slow, step: Slow tests pass, level: SHOULD, check: { type: command, run: "exit 3" } }',
      '',
    ].join('\n');
    const { repo, run, token } = setup({ protocol });
    repo.commit('chore: protocol');
    expect(run(['trust']).status).toBe(0);
    run(['session', 'start', '--objective', 'commands']);
    const end = run(['session', 'end', '--summary', 'ran the gates', '--json']);
    expect(end.status, end.stdout + end.stderr).toBe(0);
    const files = repo.git(['ls-tree', '-r', '--name-only', 'hestai/anchors', `protocol/${token}`]).stdout.trim();
    expect(files.split('\n')).toHaveLength(1);
    const record = json(repo.git(['show', `hestai/anchors:${files}`]).stdout);
    expect(record['commands']).toEqual([
      { gate: 'Q/tests', run: 'echo tests-ok', result: 'passed' },
      { gate: 'Q/slow', run: 'exit 3', result: 'failed' },
    ]);
  });

  it('reports an invalid protocol file with file, line, key and the nearest known key', () => {
    const { run } = setup({ protocol: 'version: 1\nphases:\n  - id: A\n    gatse: []\n' });
    const res = run(['session', 'start', '--objective', 'x']);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/protocol\.yaml:4:\d+: phases\.0\.gatse: unknown key "gatse"; did you mean "gates"\?/);
  });

  it('two agents recording evidence on one session at once never lose a record', async () => {
    const { repo, token, statePath } = setup();
    repo.hestai(['session', 'start', '--objective', 'race'], { env: { PATH: pathWithoutGh() } });
    const N = 8;
    const runs = Array.from(
      { length: N },
      (_, i) =>
        new Promise<number>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            [
              CLI,
              'session',
              'evidence',
              'BINDING',
              '--step',
              'read_context',
              '--type',
              'manual',
              '--value',
              `agent ${i} observed epic ${i}`,
              '--session',
              token,
            ],
            {
              cwd: repo.dir,
              env: { ...repo.env, PATH: pathWithoutGh() },
              stdio: 'ignore',
            },
          );
          child.on('error', reject);
          child.on('exit', (code) => resolve(code ?? -1));
        }),
    );
    expect(await Promise.all(runs)).toEqual(Array(N).fill(0));
    const state = json(fs.readFileSync(statePath, 'utf8'));
    const values = state['evidence'].map((e: any) => e.value).sort();
    expect(values).toEqual(Array.from({ length: N }, (_, i) => `agent ${i} observed epic ${i}`).sort());
  });

  it('init replaces the inert protocol file of earlier versions but keeps an edited one', () => {
    const repo = makeRepo();
    const inert = `# hestai session protocol: phases, gates and requirement levels as data (see README "Session protocol").
version: 1
phases:
  - name: binding
    gates:
      - { name: clock_in, level: required }
      - { name: anchor, level: required }
  - name: work
    gates:
      - { name: test_first, level: required }
      - { name: fresh_context, level: required }
  - name: closing
    gates:
      - { name: clock_out, level: recommended }
`;
    repo.write('.hestai/protocol.yaml', inert);
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    expect(fs.readFileSync(path.join(repo.dir, '.hestai/protocol.yaml'), 'utf8')).toContain('id: BINDING');
    repo.write('.hestai/protocol.yaml', 'version: 1\nphases:\n  - id: MINE\n');
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    expect(fs.readFileSync(path.join(repo.dir, '.hestai/protocol.yaml'), 'utf8')).toBe(
      'version: 1\nphases:\n  - id: MINE\n',
    );
  });
});

describe('hestai session history', () => {
  it('caps the history at protocol.history_limit and composes with clock-out', () => {
    const { repo, run } = setup({
      protocol: 'version: 1\nphases:\n  - id: ONLY\n',
      config: 'protocol:\n  history_limit: 2\n',
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      if (i > 0) {
        const clock = run(['clock-in', '--role', 'implementation-lead', '--focus', `round ${i}`, '--json']);
        expect(clock.status, clock.stderr).toBe(0);
      }
      const start = json(run(['session', 'start', '--objective', `round ${i}`, '--json']).stdout);
      ids.push(start['session_id']);
      const end = run(['session', 'end', '--summary', `round ${i} done`, '--json']);
      expect(end.status, end.stderr).toBe(0);
      // session end writes the history; clock-out then archives the clock-in session as before.
      expect(run(['clock-out', '--summary', `round ${i}`]).status).toBe(0);
    }
    const stored = json(fs.readFileSync(path.join(repo.dir, '.hestai/sessions/protocol-history.json'), 'utf8'));
    expect(stored['sessions'].map((s: any) => s.objective)).toEqual(['round 1', 'round 2']);
    expect(
      json(run(['session', 'show', '--history', '--json']).stdout)['sessions'].map((s: any) => s.session_id),
    ).toEqual([ids[2], ids[1]]);
  });
});
