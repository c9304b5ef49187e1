import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  availableRoles,
  declaredCognition,
  installConstitutions,
  readConstitution,
  TEMPLATE_AGENTS_DIR,
} from '../../../src/anchor/constitution.js';
import { getValue, parseOctave } from '../../../src/octave/index.js';
import { workspacePaths } from '../../../src/paths.js';
import { makeRepo } from '../../helpers/git-repo.js';

const ROLES = [
  'code-review-specialist',
  'holistic-orchestrator',
  'implementation-lead',
  'requirements-steward',
  'system-steward',
  'technical-architect',
];

describe('default constitutions', () => {
  it('ship one valid OCTAVE constitution per seed role with mission, cognition, authority, must and never', () => {
    const files = fs.readdirSync(TEMPLATE_AGENTS_DIR).sort();
    expect(files).toEqual(ROLES.map((r) => `${r}.oct.md`));
    for (const file of files) {
      const doc = parseOctave(fs.readFileSync(path.join(TEMPLATE_AGENTS_DIR, file), 'utf8'), { file });
      expect(getValue(doc, 'META.ROLE')).toBe(file.replace('.oct.md', ''));
      expect((getValue(doc, 'MISSION') as string).length).toBeGreaterThan(40);
      expect(['ETHOS', 'LOGOS', 'PATHOS']).toContain(getValue(doc, 'COGNITION.TYPE'));
      expect((getValue(doc, 'COGNITION.ARCHETYPES') as string[]).length).toBeGreaterThan(0);
      expect((getValue(doc, 'AUTHORITY.RESPONSIBLE') as string[]).length).toBeGreaterThan(0);
      expect((getValue(doc, 'MUST') as string[]).length).toBeGreaterThanOrEqual(3);
      expect((getValue(doc, 'NEVER') as string[]).length).toBeGreaterThanOrEqual(3);
    }
  });

  it('installConstitutions writes the defaults once and keeps existing (edited) files', () => {
    const repo = makeRepo();
    const paths = workspacePaths(repo.dir);
    repo.write(
      '.hestai-sys/agents/implementation-lead.oct.md',
      '===MINE===\nCOGNITION:\n  TYPE::PATHOS\n  ARCHETYPES::[APOLLO]\n===END===\n',
    );
    const first = installConstitutions(paths);
    expect(first.kept).toEqual(['.hestai-sys/agents/implementation-lead.oct.md']);
    expect(first.written).toHaveLength(5);
    expect(installConstitutions(paths)).toEqual({
      written: [],
      kept: ROLES.map((r) => `.hestai-sys/agents/${r}.oct.md`),
    });
    expect(availableRoles(paths)).toEqual(ROLES);
    expect(readConstitution(paths, 'implementation-lead')?.cognition).toEqual({
      type: 'PATHOS',
      archetypes: ['APOLLO'],
    });
    expect(readConstitution(paths, 'nobody')).toBeNull();
  });

  it('declares no cognition for a constitution that is not OCTAVE (the check is skipped, not failed)', () => {
    expect(declaredCognition('# just markdown\n')).toBeNull();
  });
});
