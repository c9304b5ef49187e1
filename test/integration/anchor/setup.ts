import { randomUUID } from 'node:crypto';
import { installConstitutions } from '../../../src/anchor/constitution.js';
import { workspacePaths, type WorkspacePaths } from '../../../src/paths.js';
import { writeSession, type SessionRecord } from '../../../src/records/session.js';
import { makeRepo, type TempRepo } from '../../helpers/git-repo.js';

export const NOW = '2026-11-22T10:00:00.000Z';
export const clockAt = (iso: string) => () => new Date(iso);
export const clock = clockAt(NOW);

/** A repository with PROJECT-CONTEXT (PHASE B1), a few real files, the default constitutions and one clocked-in session. */
export function anchorRepo(options: { role?: string; focus?: string } = {}): {
  repo: TempRepo;
  paths: WorkspacePaths;
  token: string;
} {
  const repo = makeRepo();
  const paths = workspacePaths(repo.dir);
  installConstitutions(paths);
  repo.commit('chore: project files and constitutions', {
    '.hestai/context/PROJECT-CONTEXT.oct.md': '===PROJECT_CONTEXT===\nPHASE::B1\nNAME::"demo"\n===END===\n',
    'src/clock-in.ts': `${Array.from({ length: 40 }, (_, i) => `// line ${i + 1}`).join('\n')}\n`,
    'src/git/exec.ts': `${Array.from({ length: 73 }, (_, i) => `// line ${i + 1}`).join('\n')}\n`,
    '.gitignore': '.hestai/sessions/\n.hestai/audit/\n',
  });
  const token = randomUUID();
  writeSession(
    paths,
    session(token, repo.dir, options.role ?? 'implementation-lead', options.focus ?? 'implement clock_in'),
  );
  return { repo, paths, token };
}

export function session(
  id: string,
  root: string,
  role: string,
  focus: string,
  overrides: Partial<SessionRecord> = {},
): SessionRecord {
  return {
    version: 1,
    session_id: id,
    role,
    focus,
    focus_source: 'explicit',
    branch: 'main',
    working_dir: root,
    model: null,
    started_at: NOW,
    context_generated_at: NOW,
    last_activity: NOW,
    state: 'CREATED', // as clock-in leaves it
    starting_commit: null,
    ownership_log: [],
    acknowledgments: [],
    ...overrides,
  };
}

export const BIND = [
  '## BIND (Identity Lock)',
  'ROLE::implementation-lead',
  'COGNITION::LOGOS::HEPHAESTUS+ATHENA',
  'AUTHORITY::RESPONSIBLE[clock_in implementation]',
].join('\n');

export const PROOF = [
  '## TENSION (Cognitive Proof - AGENT GENERATED)',
  'L1::[TDD_MANDATE]<->CTX:src/clock-in.ts:10-20[no failing test yet]->TRIGGER[write the failing test first]',
  'L2::[ARGUMENT_ARRAYS_ONLY]⇌CTX:src/git/exec.ts:1-5[git runs through one gateway]→TRIGGER[add git calls there]',
  'L3::[MINIMAL_INTERVENTION]⇌CTX:README.md:1[a one-line readme]→TRIGGER[keep docs in step]',
  '## COMMIT (Falsifiable Contract)',
  'ARTIFACT::src/clock-in.ts',
  'GATE::npm test',
].join('\n');

/** A whole vector with the given ARM lines (defaults: the true values of `anchorRepo`). */
export function vector(
  arm: Partial<Record<'PHASE' | 'BRANCH' | 'FILES' | 'FOCUS', string>> = {},
  proof = PROOF,
): string {
  const a = { PHASE: 'B1', BRANCH: 'main[0↑0↓]', FILES: '0[]', FOCUS: 'implement clock_in', ...arm };
  return [
    '===RAPH_VECTOR::v4.0===',
    BIND,
    '## ARM (Context Proof - SERVER INJECTED)',
    `PHASE::${a.PHASE}`,
    `BRANCH::${a.BRANCH}`,
    `FILES::${a.FILES}`,
    `FOCUS::${a.FOCUS}`,
    proof,
    '===END_RAPH_VECTOR===',
  ].join('\n');
}
