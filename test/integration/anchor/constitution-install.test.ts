import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEMPLATE_AGENTS_DIR } from '../../../src/anchor/constitution.js';
import { anchor } from '../../../src/anchor/handshake.js';
import { odysseanAnchor } from '../../../src/anchor/one-shot.js';
import { readJsonl } from '../../../src/state/store.js';
import { tempDir } from '../../helpers/git-repo.js';
import { anchorRepo, clock, vector } from './setup.js';

// Issue 18, seed 001 STAGE_IDENTITY "Ensure .hestai-sys injection is present for working_dir": a role
// whose constitution is missing gets the packaged default installed (and the result says so) instead of
// a refusal, unless the workspace pins `anchor.constitutions: strict`.

const ROLE = 'implementation-lead';
const FILE = `.hestai-sys/agents/${ROLE}.oct.md`;
const packaged = () => fs.readFileSync(path.join(TEMPLATE_AGENTS_DIR, `${ROLE}.oct.md`), 'utf8');

describe('identity installs a missing constitution from the packaged defaults', () => {
  it('installs it, says so in the result and the audit log, and binds as usual', async () => {
    const { repo, paths, token } = anchorRepo();
    fs.rmSync(path.join(repo.dir, FILE));
    const result = await anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token }, { clock });
    expect(result.success).toBe(true);
    expect(result.constitution_path).toBe(FILE);
    expect(result.constitution_excerpt).toContain('MISSION::');
    expect(result.warnings).toEqual([
      `CONSTITUTION_INSTALLED: ${FILE} was missing: the packaged default for ${ROLE} was installed (commit it: hestai verify checks it at the anchored commit; pin anchor.constitutions: strict to refuse instead)`,
    ]);
    expect(result.guidance).toContain(`installed the packaged default constitution at ${FILE}`);
    expect(fs.readFileSync(path.join(repo.dir, FILE), 'utf8')).toBe(packaged());
    expect(readJsonl(paths.auditLog)).toContainEqual(
      expect.objectContaining({ event: 'constitution_installed', session_id: token, role: ROLE, file: FILE }),
    );
    // The next identity finds it: nothing more is installed or said.
    const again = await anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token }, { clock });
    expect(again.warnings).toEqual([]);
  });

  it("never overwrites a constitution that exists (an edited one is the team's)", async () => {
    const { repo, token } = anchorRepo();
    const mine = '===MINE===\nMISSION::"ours"\nCOGNITION:\n  TYPE::LOGOS\n  ARCHETYPES::[ATHENA]\n===END===\n';
    fs.writeFileSync(path.join(repo.dir, FILE), mine);
    const result = await anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token }, { clock });
    expect(result.success).toBe(true);
    expect(result.warnings).toEqual([]);
    expect(fs.readFileSync(path.join(repo.dir, FILE), 'utf8')).toBe(mine);
  });

  it('a role with no packaged default is still refused, listing the roles there are', async () => {
    const { repo, token } = anchorRepo({ role: 'poet' });
    const result = await anchor({ stage: 'identity', working_dir: repo.dir, role: 'poet', token }, { clock });
    expect(result.success).toBe(false);
    expect(result.errors).toEqual([
      'NO_CONSTITUTION: role "poet" has no constitution at .hestai-sys/agents/poet.oct.md',
    ]);
    expect(fs.existsSync(path.join(repo.dir, '.hestai-sys/agents/poet.oct.md'))).toBe(false);
  });

  it('anchor.constitutions: strict refuses instead, and writes nothing', async () => {
    const { repo, token } = anchorRepo();
    fs.rmSync(path.join(repo.dir, FILE));
    repo.write('.hestai_workspace.yaml', 'anchor:\n  constitutions: strict\n');
    const result = await anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token }, { clock });
    expect(result.success).toBe(false);
    expect(result.errors).toEqual([`NO_CONSTITUTION: role "${ROLE}" has no constitution at ${FILE}`]);
    expect(result.guidance).toContain('anchor.constitutions is strict');
    expect(result.guidance).toContain('hestai init');
    expect(fs.existsSync(path.join(repo.dir, FILE))).toBe(false);
  });

  it('the one-shot entry installs it too', async () => {
    const { repo, token } = anchorRepo();
    // Removed from the working tree only: once reinstalled (the same bytes) git shows no change, so the
    // vector's FILES::0[] stays true.
    fs.rmSync(path.join(repo.dir, FILE));
    const result = await odysseanAnchor(
      { working_dir: repo.dir, session_id: token, role: ROLE, vector_candidate: vector() },
      { clock },
    );
    expect(result.errors).toEqual([]);
    expect(result.validated).toBe(true);
    expect(result.warnings).toContainEqual(expect.stringMatching(/^CONSTITUTION_INSTALLED: /));
    expect(fs.readFileSync(path.join(repo.dir, FILE), 'utf8')).toBe(packaged());
  });

  it('attack: .hestai-sys/agents is a symlink out of the worktree: refused (exit 2), nothing written there', async () => {
    const { repo, token } = anchorRepo();
    const outside = tempDir('hestai-outside-');
    fs.rmSync(path.join(repo.dir, '.hestai-sys/agents'), { recursive: true });
    fs.symlinkSync(outside, path.join(repo.dir, '.hestai-sys/agents'));
    await expect(
      anchor({ stage: 'identity', working_dir: repo.dir, role: ROLE, token }, { clock }),
    ).rejects.toMatchObject({ exitCode: 2, code: 'PATH_TRAVERSAL' });
    expect(fs.readdirSync(outside)).toEqual([]);
  });
});
