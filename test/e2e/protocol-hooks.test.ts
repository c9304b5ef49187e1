import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { protocolRepo } from '../helpers/protocol-repo.js';

// protocol.enforce through the installed hooks and real `git commit`s.

function setup(options: { protocol?: string; enforce?: boolean } = {}) {
  const { repo, env, run, token } = protocolRepo(options);
  const commit = (message: string) => {
    repo.write(`notes/${Date.now()}-${Math.random()}.md`, 'x\n');
    repo.git(['add', '-A']);
    return repo.git(['commit', '-q', '-m', message], { allowFail: true, env });
  };
  return { repo, run, token, commit };
}

describe('pre-commit with protocol.enforce', () => {
  it('blocks without a protocol run, then while a blocking gate of the current phase is unmet, naming the gate, the command and the tool call', () => {
    const { repo, run, commit } = setup();
    const none = commit('chore: before start');
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('has not started the session protocol');
    expect(none.stderr).toContain('hestai session start');

    expect(run(['session', 'start', '--objective', 'enforced']).status).toBe(0);
    const blocked = commit('chore: before evidence');
    expect(blocked.status).toBe(1);
    expect(blocked.stderr).toContain('BINDING/read_context');
    expect(blocked.stderr).toContain('run: hestai session evidence BINDING --step read_context --type content_hash');
    expect(blocked.stderr).toContain(
      `MCP: record_evidence({"working_dir":${JSON.stringify(fs.realpathSync(repo.dir))},"session_id":`,
    );
    expect(blocked.stderr).not.toContain('BINDING/anchor'); // anchored

    const hash = createHash('sha256')
      .update(fs.readFileSync(path.join(repo.dir, '.hestai/context/PROJECT-CONTEXT.oct.md')))
      .digest('hex');
    expect(run(['session', 'evidence', 'BINDING', '--type', 'content_hash', '--value', hash]).status).toBe(0);
    const ok = commit('chore: after evidence');
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stderr).toContain('protocol phase BINDING: no blocking gate unmet');
  });

  it('never checks a gate that can only hold after the commit', () => {
    const protocol = [
      'version: 1',
      'phases:',
      '  - id: FINISH',
      '    gates:',
      '      - { id: committed, step: Commit the work, level: MUST, check: { type: git_commit_since_start } }',
      '      - { id: clean, step: Clean tree, level: MUST, check: { type: git_clean } }',
      '',
    ].join('\n');
    const { run, commit } = setup({ protocol });
    expect(run(['session', 'start', '--objective', 'post-commit gates']).status).toBe(0);
    // No commit since the start and a dirty tree: both gates are unmet, yet the commit that satisfies them passes.
    const res = commit('chore: the commit itself');
    expect(res.status, res.stderr).toBe(0);
    const gate = run(['session', 'gate', 'FINISH', '--json']);
    expect(JSON.parse(gate.stdout)).toMatchObject({ status: 'PASS' });
  });

  it('is off unless the workspace enables it', () => {
    const { commit } = setup({ enforce: false });
    expect(commit('chore: no protocol run needed').status).toBe(0);
  });

  it('a corrupt protocol state blocks the commit with a clear error, never a pass', () => {
    const { repo, run, token, commit } = setup();
    expect(run(['session', 'start', '--objective', 'corrupt']).status).toBe(0);
    fs.writeFileSync(path.join(repo.dir, '.hestai/sessions/active', token, 'protocol.json'), '{"version":');
    const res = commit('chore: corrupt');
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('is corrupt');
  });
});
