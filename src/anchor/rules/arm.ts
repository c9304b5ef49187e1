/**
 * ARM rules (one-shot v4 vector only): the agent's ARM is compared with the server-authoritative ARM.
 * A mismatch names the true value; placeholders are refused. The canonical anchor always carries the
 * server's ARM. Pure.
 */
import { isPlaceholder } from '../constants.js';
import type { ArmSnapshot } from '../../records/anchor.js';
import { entry, type VectorLine, type VectorSection } from '../vector.js';
import type { Violation } from './types.js';

/** The PHASE the server reports when PROJECT-CONTEXT.oct.md declares none. */
export const UNKNOWN_PHASE = 'UNKNOWN';

const BRANCH = /^(.+?)(?:\[(\d+)\s*[↑^]\s*(\d+)\s*[↓v]\])?$/;
const FILES = /^(\d+)\s*(?:\[(.*)\])?$/;

function arm(rule: string, message: string, fix: string, line?: number): Violation {
  return {
    rule,
    section: 'ARM',
    message: line === undefined ? message : `line ${line}: ${message}`,
    fix,
    ...(line === undefined ? {} : { line }),
  };
}

/** The largest difference between the agent's and the server's FILES count that is still plausible. */
export function filesTolerance(serverCount: number): number {
  return Math.max(2, Math.ceil(serverCount * 0.2));
}

/** Renders the server BRANCH value: `name[A↑B↓]`. */
export function renderBranch(a: ArmSnapshot): string {
  return `${a.branch}[${a.ahead}↑${a.behind}↓]`;
}

/** PHASE: the one PROJECT-CONTEXT.oct.md declares (only warned about when it declares none). */
function checkPhase(phase: VectorLine, server: ArmSnapshot, out: Violation[], warnings: string[]): void {
  if (phase.value === server.phase) return;
  if (isPlaceholder(phase.value)) {
    out.push(
      arm(
        'ARM_PLACEHOLDER',
        `PHASE "${phase.value}" is a placeholder`,
        `Read PHASE from .hestai/context/PROJECT-CONTEXT.oct.md: it is ${server.phase}.`,
        phase.line,
      ),
    );
  } else if (server.phase === UNKNOWN_PHASE) {
    warnings.push(`ARM PHASE "${phase.value}" not verified: PROJECT-CONTEXT.oct.md declares no PHASE`);
  } else {
    out.push(
      arm(
        'ARM_PHASE_MISMATCH',
        `ARM shows PHASE::${phase.value} but PROJECT-CONTEXT.oct.md shows ${server.phase}`,
        `Update PHASE to match context: PHASE::${server.phase}.`,
        phase.line,
      ),
    );
  }
}

/** BRANCH: git's branch; a different ahead/behind count is only a warning. */
function checkBranch(branch: VectorLine, server: ArmSnapshot, out: Violation[], warnings: string[]): void {
  const m = BRANCH.exec(branch.value);
  if (isPlaceholder(branch.value) || m === null || isPlaceholder(m[1]!)) {
    out.push(
      arm(
        'ARM_PLACEHOLDER',
        `BRANCH "${branch.value}" is a placeholder`,
        `Read the branch from git: BRANCH::${renderBranch(server)}.`,
        branch.line,
      ),
    );
  } else if (m[1]!.trim() !== server.branch) {
    out.push(
      arm(
        'ARM_BRANCH_MISMATCH',
        `ARM shows BRANCH::${m[1]!.trim()} but git shows ${server.branch}`,
        `Update BRANCH to match git: BRANCH::${renderBranch(server)}.`,
        branch.line,
      ),
    );
  } else if (m[2] !== undefined && (Number(m[2]) !== server.ahead || Number(m[3]) !== server.behind)) {
    warnings.push(
      `ARM BRANCH says ${m[2]}↑${m[3]}↓ but git shows ${server.ahead}↑${server.behind}↓ (the canonical anchor carries git's)`,
    );
  }
}

/** FILES: COUNT[top files], the count within {@link filesTolerance} of git status's. */
function checkFiles(files: VectorLine, server: ArmSnapshot, out: Violation[]): void {
  const m = FILES.exec(files.value);
  if (m === null) {
    out.push(
      arm(
        'ARM_FORMAT',
        `FILES "${files.value}" is not COUNT[top files]`,
        `Write FILES::${server.files_count}[${server.top_files.join(',')}].`,
        files.line,
      ),
    );
  } else {
    const count = Number(m[1]);
    const listed = (m[2] ?? '').trim();
    if (count === 0 && listed === '' && server.files_count > 0) {
      out.push(
        arm(
          'ARM_PLACEHOLDER',
          `FILES::0[] while git shows ${server.files_count} changed file${server.files_count === 1 ? '' : 's'}`,
          `Read git status: FILES::${server.files_count}[${server.top_files.join(',')}].`,
          files.line,
        ),
      );
    } else if (Math.abs(count - server.files_count) > filesTolerance(server.files_count)) {
      out.push(
        arm(
          'ARM_FILES_IMPLAUSIBLE',
          `ARM shows FILES::${count} but git shows ${server.files_count} changed file${server.files_count === 1 ? '' : 's'}`,
          `Update FILES to match git status: FILES::${server.files_count}[${server.top_files.join(',')}].`,
          files.line,
        ),
      );
    }
  }
}

/** FOCUS: the session's (a different one is only a warning; the canonical anchor carries the session's). */
function checkFocus(focus: VectorLine, server: ArmSnapshot, out: Violation[], warnings: string[]): void {
  if (focus.value === server.focus) return;
  if (isPlaceholder(focus.value)) {
    out.push(
      arm(
        'ARM_PLACEHOLDER',
        `FOCUS "${focus.value}" is a placeholder`,
        `Use the session's focus: FOCUS::${server.focus}.`,
        focus.line,
      ),
    );
  } else
    warnings.push(
      `ARM FOCUS "${focus.value}" differs from the session's "${server.focus}" (the canonical anchor carries the session's)`,
    );
}

/** Compares a submitted ARM with the server's; returns violations and (non-failing) warnings. */
export function checkArm(
  section: VectorSection | undefined,
  server: ArmSnapshot,
): { violations: Violation[]; warnings: string[] } {
  const out: Violation[] = [];
  const warnings: string[] = [];
  if (section === undefined) return { violations: out, warnings };
  const field = (key: string) => {
    const e = entry(section, key);
    if (e === undefined)
      out.push(arm('ARM_FIELD_MISSING', `${key} is missing`, `Copy the server's ARM: ${key} is required.`));
    return e;
  };
  const phase = field('PHASE');
  if (phase !== undefined) checkPhase(phase, server, out, warnings);
  const branch = field('BRANCH');
  if (branch !== undefined) checkBranch(branch, server, out, warnings);
  const files = field('FILES');
  if (files !== undefined) checkFiles(files, server, out);
  const focus = entry(section, 'FOCUS');
  if (focus !== undefined) checkFocus(focus, server, out, warnings);
  return { violations: out, warnings };
}
