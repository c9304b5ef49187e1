import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspacePaths } from '../../src/paths.js';
import { makeRepo } from '../helpers/git-repo.js';
import { CEREMONY_FILES, CEREMONY_ROLE, connectStdio, type ToolResult } from '../helpers/mcp.js';

// A warm anchor_status answers from what this connection already knows (issue 14, speed), yet every change
// another process makes to the session's state shows in the very next call on the same connection: a
// clock-in, a written anchor, an anchor edited in place (same size, same inode), a handshake gone terminal
// through the CLI, the active directory swapped for another, the workspace config edited, a session closed.

const BIND = [
  '## BIND (Identity Lock)',
  `ROLE::${CEREMONY_ROLE}`,
  'COGNITION::LOGOS::ATHENA',
  'AUTHORITY::RESPONSIBLE[x]',
];

describe('MCP anchor_status on a warm connection', () => {
  it('sees every change another process makes to the session state at the next call', async () => {
    const repo = makeRepo();
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    repo.commit('chore: app', CEREMONY_FILES);
    const mcp = await connectStdio(repo.dir, repo.env);
    const status = async (id: string) => {
      // Twice: the second call is the one a cache would answer.
      await mcp.call('anchor_status', { working_dir: repo.dir, session_id: id });
      const result: ToolResult = await mcp.call('anchor_status', { working_dir: repo.dir, session_id: id });
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      return result.structuredContent as { code: string; unlocked: boolean };
    };
    const paths = workspacePaths(repo.dir);

    // Another process clocks in a session this connection has already been asked about.
    const clock = repo.hestai(['--json', 'clock-in', '--role', CEREMONY_ROLE]);
    expect(clock.status, clock.stderr).toBe(0);
    const id = (JSON.parse(clock.stdout) as { session_id: string }).session_id;
    expect(await status(id)).toMatchObject({ code: 'NO_ANCHOR', unlocked: false });

    // The CLI anchors it: unlocked at once.
    repo.write('bind.oct', `${BIND.join('\n')}\n`);
    repo.write(
      'proof.oct',
      [
        '## TENSION (Cognitive Proof - AGENT GENERATED)',
        'L1::[TDD_MANDATE]<->CTX:src/app.ts:1-3[no failing test yet]->TRIGGER[write the failing test first]',
        'L2::[MINIMAL_INTERVENTION]<->CTX:README.md[documents the app]->TRIGGER[keep the contract stable]',
        '## COMMIT (Falsifiable Contract)',
        'ARTIFACT::src/app.ts',
        'GATE::npm test',
        '',
      ].join('\n'),
    );
    for (const args of [
      ['--stage', 'identity', '--role', CEREMONY_ROLE, '--token', id],
      ['--stage', 'context', '--token', id, '--payload-file', 'bind.oct'],
      ['--stage', 'proof', '--token', id, '--payload-file', 'proof.oct'],
    ]) {
      const step = repo.hestai(['--json', 'anchor', ...args]);
      expect(step.status, `${args[1]}: ${step.stdout}${step.stderr}`).toBe(0);
    }
    expect(await status(id)).toMatchObject({ code: 'UNLOCKED', unlocked: true });

    // anchor.json edited in place: same size, same inode, written right after the last call.
    const anchorFile = path.join(paths.active, id, 'anchor.json');
    const before = fs.statSync(anchorFile);
    const text = fs.readFileSync(anchorFile, 'utf8');
    const edited = text.replace(`"role": "${CEREMONY_ROLE}"`, `"role": "${CEREMONY_ROLE.toUpperCase()}"`);
    expect(edited).not.toBe(text);
    expect(Buffer.byteLength(edited)).toBe(Buffer.byteLength(text));
    fs.writeFileSync(anchorFile, edited);
    expect(fs.statSync(anchorFile).ino).toBe(before.ino);
    expect(await status(id)).toMatchObject({ code: 'TAMPERED', unlocked: false });
    fs.writeFileSync(anchorFile, text);
    expect(await status(id)).toMatchObject({ code: 'UNLOCKED' });

    // The active directory swapped for an empty one: the session is gone from this worktree.
    fs.renameSync(paths.active, `${paths.active}.moved`);
    fs.mkdirSync(paths.active);
    expect(await status(id)).toMatchObject({ code: 'NO_SESSION', unlocked: false });
    fs.rmSync(paths.active, { recursive: true });
    fs.renameSync(`${paths.active}.moved`, paths.active);
    expect(await status(id)).toMatchObject({ code: 'UNLOCKED' });

    // A second session, driven to a terminal handshake by the CLI: TERMINAL on the warm connection.
    const other = repo.hestai(['--json', 'clock-in', '--role', CEREMONY_ROLE]);
    const second = (JSON.parse(other.stdout) as { session_id: string }).session_id;
    expect(await status(second)).toMatchObject({ code: 'NO_ANCHOR' });
    expect(repo.hestai(['anchor', '--stage', 'identity', '--role', CEREMONY_ROLE, '--token', second]).status).toBe(0);
    expect(await status(second)).toMatchObject({ code: 'NO_ANCHOR' });
    repo.write('bad.oct', `${BIND.join('\n').replace(`ROLE::${CEREMONY_ROLE}`, 'ROLE::')}\n`);
    for (let attempt = 0; attempt < 3; attempt++) {
      repo.hestai(['anchor', '--stage', 'context', '--token', second, '--payload-file', 'bad.oct']);
      await status(second);
    }
    expect(await status(second)).toMatchObject({ code: 'TERMINAL', unlocked: false });

    // The workspace config edited by another process (protocol.enforce turned on, then off again): a warm
    // connection keeps its answers only while the config it read is unchanged.
    const enforced = async (id: string) =>
      ((await status(id)) as unknown as { protocol_gate: { enforced: boolean } | null }).protocol_gate?.enforced;
    expect(await enforced(id)).toBe(false);
    const configFile = path.join(repo.dir, '.hestai_workspace.yaml');
    const config = fs.readFileSync(configFile, 'utf8');
    fs.writeFileSync(configFile, `${config}\nprotocol:\n  enforce: true\n`);
    expect(await enforced(id)).toBe(true);
    fs.writeFileSync(configFile, config);
    expect(await enforced(id)).toBe(false);

    // The first session closed by the CLI: no longer active.
    expect(repo.hestai(['clock-out', '--session', id]).status).toBe(0);
    expect(await status(id)).toMatchObject({ unlocked: false });
    expect((await status(id)).code).not.toBe('UNLOCKED');
  });
});
