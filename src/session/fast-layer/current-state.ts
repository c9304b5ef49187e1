import { octaveDocument, type OctaveDocument } from '../../octave/index.js';
import type { SessionRecord } from '../../records/session.js';
import type { GatheredContext } from '../context/gather.js';
import { oneLine } from './build.js';

const RECENT = 10;
const LISTED = 20;

/**
 * `current-state.oct.md` (seed 000 STEP_8): the generated picture of the repository at the session's
 * context generation — git state with the bounded diff summary, recent commits, structure, quality gates,
 * ADR constraints, related issues and the selected context. Every value is one line (always valid OCTAVE).
 */
export function buildCurrentState(input: {
  session: SessionRecord;
  gathered: GatheredContext;
  selected: readonly string[];
  selection: 'ai' | 'deterministic';
}): OctaveDocument {
  const { session: s, gathered: g } = input;
  const git = g.git;
  const diff = git.diff;
  const count = (n: number | null) => (n === null ? 'unknown' : String(n));
  return octaveDocument('CURRENT_STATE', {
    META: { TYPE: 'GENERATED_STATE', FILE: 'current-state', VERSION: '1', GENERATED_BY: 'hestai' },
    GENERATED_AT: oneLine(s.context_generated_at),
    SESSION_ID: oneLine(s.session_id),
    ROLE: oneLine(s.role),
    FOCUS: oneLine(s.focus),
    GIT: {
      BRANCH: git.branch === null ? '(detached)' : oneLine(git.branch),
      HEAD: git.head ?? 'none',
      UPSTREAM: git.upstream === null ? 'none' : oneLine(git.upstream),
      AHEAD: count(git.ahead),
      BEHIND: count(git.behind),
      STAGED: String(git.changes.staged),
      MODIFIED: String(git.changes.modified),
      UNTRACKED: String(git.changes.untracked),
      CONFLICTED: String(git.changes.conflicted),
      CHANGED_FILES: git.changes.files.map(oneLine),
      RECENT_COMMITS: git.recent_commits.slice(0, RECENT).map((c) => oneLine(`${c.sha.slice(0, 12)} ${c.header}`)),
    },
    DIFF: {
      AVAILABLE: String(diff.available),
      ...(diff.reason === null ? {} : { REASON: oneLine(diff.reason) }),
      FILES: String(diff.files),
      HUNKS: String(diff.hunks),
      ADDED: String(diff.added),
      REMOVED: String(diff.removed),
      BINARY: String(diff.binary),
      TRUNCATED: String(diff.truncated),
      TOP: diff.top.map((f) =>
        oneLine(f.binary ? `${f.path} (binary)` : `${f.path} +${f.added} -${f.removed} (${f.hunks} hunks)`),
      ),
    },
    STRUCTURE: {
      TRACKED_FILES: String(g.structure.tracked_files),
      TOP_DIRECTORIES: g.structure.top_directories.map((d) => oneLine(`${d.path} ${d.files}`)),
      EXTENSIONS: g.structure.extensions.map((e) => oneLine(`${e.ext} ${e.files}`)),
    },
    QUALITY_GATES: g.quality_gates.map((q) => oneLine(`${q.name}: ${q.status}`)),
    ADR_CONSTRAINTS: g.adr_constraints
      .slice(0, LISTED)
      .map((a) => oneLine(`${a.path}: ${a.title}${a.status ? ` (${a.status})` : ''}`)),
    RELATED_ISSUES: g.github.related_issues.slice(0, LISTED).map((i) => oneLine(`#${i.number} ${i.title}`)),
    SELECTION: input.selection,
    SELECTED_CONTEXT: input.selected.map(oneLine),
  });
}
