import fs from 'node:fs';
import path from 'node:path';
import type { WorkspaceConfig } from '../config/schema.js';
import { relativeToRoot, type WorkspacePaths } from '../paths.js';
import type { AdrConstraint } from './context/adr.js';
import type { GitContext } from './context/gather.js';
import type { QualityGateResult } from './context/quality-gates.js';
import type { SelectedContext } from './context/rank.js';
import type { StructureSummary } from './context/structure.js';
import type { GeneratedContext } from './generate.js';

/** Seed 000 `context_paths` (workspace-relative; null when a human-authored file does not exist). */
export interface ContextPaths {
  project_context: string | null;
  current_state: string | null;
  checklist: string;
  blockers: string;
  current_focus: string;
  negatives: string | null;
  /** `context_paths.additional` from the workspace file. */
  additional: string[];
}

/** The fresh context returned by clock-in and refresh (CI-I2, CI-I3). */
export interface SessionContext {
  selected: SelectedContext[];
  git: GitContext;
  human_context: string[];
  adr_constraints: AdrConstraint[];
  structure: StructureSummary;
  quality_gates: QualityGateResult[];
}

function existing(paths: WorkspacePaths, file: string): string | null {
  return fs.existsSync(file) ? relativeToRoot(paths, file) : null;
}

export function contextPaths(paths: WorkspacePaths, config: WorkspaceConfig): ContextPaths {
  return {
    project_context: existing(paths, paths.projectContext),
    current_state: existing(paths, paths.currentState),
    checklist: relativeToRoot(paths, paths.checklist),
    blockers: relativeToRoot(paths, paths.blockers),
    current_focus: relativeToRoot(paths, paths.currentFocus),
    negatives: existing(paths, paths.contextNegatives),
    additional: [...config.context_paths.additional],
  };
}

/** The human-authored layout clock-in expects (`hestai init` creates it): what is missing. */
export function missingStructure(paths: WorkspacePaths, role: string): string[] {
  const required = [paths.projectContext, path.join(paths.agents, `${role}.oct.md`)];
  return required.filter((f) => !fs.existsSync(f)).map((f) => relativeToRoot(paths, f));
}

export function sessionContext(generated: GeneratedContext): SessionContext {
  const g = generated.gathered;
  return {
    selected: generated.selection.selected,
    git: g.git,
    human_context: g.human_context,
    adr_constraints: g.adr_constraints,
    structure: g.structure,
    quality_gates: g.quality_gates,
  };
}
