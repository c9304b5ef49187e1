/** BIND rules: ROLE, COGNITION `TYPE::ARCHETYPE[⊕ARCHETYPE…]`, AUTHORITY `RESPONSIBLE[...]|DELEGATED[...]`. Pure. */
import { ARCHETYPES, COGNITION_TYPES } from '../constants.js';
import { entry, type VectorLine, type VectorSection } from '../vector.js';
import type { BindFacts } from '../../records/handshake.js';
import { UUID_V4 } from '../../util/validate.js';
import type { DeclaredCognition, SessionLookup, Violation } from './types.js';

/** The BIND section once it passed, normalized (`+` → `⊕`). */
export type { BindFacts };

const COGNITION = /^([A-Za-z]+)::(.+)$/;
const AUTHORITY = /^(RESPONSIBLE|DELEGATED)\[(.*)\]$/;

function bind(rule: string, message: string, fix: string, line?: number): Violation {
  return {
    rule,
    section: 'BIND',
    message: line === undefined ? message : `line ${line}: ${message}`,
    fix,
    ...(line === undefined ? {} : { line }),
  };
}

/** Why a DELEGATED[...] scope does not name a parent session, or null (seed 003: `DELEGATED[{parent_session_id}]`). */
function delegationProblem(
  parent: string,
  { sessions, sessionId }: { sessions?: SessionLookup | undefined; sessionId?: string | null | undefined },
): string | null {
  if (!UUID_V4.test(parent)) return 'is not a session id (a lower-case UUID v4 from clock-in)';
  if (sessionId !== undefined && sessionId !== null && parent === sessionId)
    return 'names this session itself; a delegation names the parent session';
  if (sessions !== undefined && sessions(parent) === null)
    return 'names no session of this worktree (neither live in .hestai/sessions/active/ nor archived)';
  return null;
}

/** ROLE: present, and the role requested. */
function checkRole(roleLine: VectorLine | undefined, role: string, out: Violation[]): void {
  if (roleLine === undefined || roleLine.value === '') {
    out.push(
      bind(
        'BIND_ROLE_MISSING',
        roleLine === undefined ? 'ROLE is missing' : 'ROLE is empty',
        `Add "ROLE::${role}".`,
        roleLine?.line,
      ),
    );
  } else if (roleLine.value !== role) {
    out.push(
      bind(
        'BIND_ROLE_MISMATCH',
        `ROLE is "${roleLine.value}" but the requested role is "${role}"`,
        `Write "ROLE::${role}" (the role you are binding as).`,
        roleLine.line,
      ),
    );
  }
}

const COGNITION_FIX = `Write "COGNITION::TYPE::ARCHETYPE" with TYPE one of ${COGNITION_TYPES.join(', ')} and archetypes joined by ⊕ (or +), e.g. "COGNITION::LOGOS::ATHENA⊕HEPHAESTUS"; take them from your constitution.`;

/** A COGNITION whose type or archetypes the constitution does not declare, or null. */
function constitutionMismatch(
  type: string,
  names: readonly string[],
  declared: DeclaredCognition,
  line: number,
): Violation | null {
  const wrongType = declared.type !== null && declared.type !== type;
  const foreign = declared.archetypes.length > 0 ? names.filter((n) => !declared.archetypes.includes(n)) : [];
  if (!wrongType && foreign.length === 0) return null;
  const want = `${declared.type ?? type}::${(declared.archetypes.length > 0 ? declared.archetypes : names).join('⊕')}`;
  return bind(
    'BIND_COGNITION_CONSTITUTION',
    wrongType
      ? `COGNITION type ${type} differs from the constitution's ${declared.type}`
      : `COGNITION archetype${foreign.length > 1 ? 's' : ''} ${foreign.join(', ')} not declared by the constitution (${declared.archetypes.join(', ')})`,
    `Extract the cognition from your constitution: "COGNITION::${want}" (or a subset of its archetypes).`,
    line,
  );
}

/** COGNITION `TYPE::ARCHETYPE[⊕ARCHETYPE…]`, within the constitution's when it declares one; normalized, or null. */
function checkCognition(
  cogLine: VectorLine | undefined,
  declared: DeclaredCognition | null,
  out: Violation[],
): string | null {
  if (cogLine === undefined || cogLine.value === '') {
    out.push(
      bind(
        'BIND_COGNITION_MISSING',
        cogLine === undefined ? 'COGNITION is missing' : 'COGNITION is empty',
        COGNITION_FIX,
        cogLine?.line,
      ),
    );
    return null;
  }
  const m = COGNITION.exec(cogLine.value);
  if (m === null) {
    out.push(
      bind('BIND_COGNITION_FORMAT', `COGNITION "${cogLine.value}" is not TYPE::ARCHETYPE`, COGNITION_FIX, cogLine.line),
    );
    return null;
  }
  const type = m[1]!;
  const names = m[2]!.split(/\s*[+⊕]\s*/).map((n) => n.trim());
  let ok = true;
  if (!(COGNITION_TYPES as readonly string[]).includes(type)) {
    ok = false;
    out.push(
      bind(
        'BIND_COGNITION_TYPE',
        `COGNITION type "${type}" is not one of ${COGNITION_TYPES.join(', ')}`,
        COGNITION_FIX,
        cogLine.line,
      ),
    );
  }
  const unknown = names.filter((n) => !(ARCHETYPES as readonly string[]).includes(n));
  if (unknown.length > 0) {
    ok = false;
    out.push(
      bind(
        'BIND_COGNITION_ARCHETYPE',
        `COGNITION archetype${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')} not in ${ARCHETYPES.join(', ')}`,
        COGNITION_FIX,
        cogLine.line,
      ),
    );
  }
  if (ok && declared !== null) {
    const mismatch = constitutionMismatch(type, names, declared, cogLine.line);
    if (mismatch !== null) {
      ok = false;
      out.push(mismatch);
    }
  }
  return ok ? `${type}::${names.join('⊕')}` : null;
}

const AUTHORITY_FIX =
  'Write "AUTHORITY::RESPONSIBLE[scope of what you own]" or "AUTHORITY::DELEGATED[parent_session_id]" (brackets required, not empty).';

/** AUTHORITY `RESPONSIBLE[scope]` or `DELEGATED[parent session]` (a session of this worktree); normalized, or null. */
function checkAuthority(
  authLine: VectorLine | undefined,
  delegation: { sessions?: SessionLookup | undefined; sessionId?: string | null | undefined },
  out: Violation[],
): string | null {
  if (authLine === undefined || authLine.value === '') {
    out.push(
      bind(
        'BIND_AUTHORITY_MISSING',
        authLine === undefined ? 'AUTHORITY is missing' : 'AUTHORITY is empty',
        AUTHORITY_FIX,
        authLine?.line,
      ),
    );
    return null;
  }
  const m = AUTHORITY.exec(authLine.value);
  if (m === null || m[2]!.trim() === '' || /^\{.*\}$/.test(m[2]!.trim())) {
    out.push(
      bind(
        'BIND_AUTHORITY_FORMAT',
        m === null
          ? `AUTHORITY "${authLine.value}" is not RESPONSIBLE[...] or DELEGATED[...]`
          : `AUTHORITY "${authLine.value}" has no scope in its brackets`,
        AUTHORITY_FIX,
        authLine.line,
      ),
    );
    return null;
  }
  const scope = m[2]!.trim();
  const problem = m[1] === 'DELEGATED' ? delegationProblem(scope, delegation) : null;
  if (problem === null) return `${m[1]}[${scope}]`;
  out.push(
    bind(
      'BIND_AUTHORITY_DELEGATED',
      `AUTHORITY DELEGATED[${scope}] ${problem}`,
      'Write "AUTHORITY::DELEGATED[parent_session_id]" with the session id of the session that delegated this work to you (from its clock-in; it must be live or archived in this worktree), or "AUTHORITY::RESPONSIBLE[scope]" when no session delegated it.',
      authLine.line,
    ),
  );
  return null;
}

/** Validates BIND against the requested role (and the constitution's cognition, when it declares one). */
export function checkBind(
  section: VectorSection | undefined,
  role: string,
  declared: DeclaredCognition | null = null,
  delegation: { sessions?: SessionLookup | undefined; sessionId?: string | null | undefined } = {},
): { violations: Violation[]; facts: BindFacts | null } {
  if (section === undefined) return { violations: [], facts: null };
  const out: Violation[] = [];
  const roleLine = entry(section, 'ROLE');
  checkRole(roleLine, role, out);
  const cognition = checkCognition(entry(section, 'COGNITION'), declared, out);
  const authority = checkAuthority(entry(section, 'AUTHORITY'), delegation, out);
  const facts =
    out.length === 0 && roleLine !== undefined && cognition !== null && authority !== null
      ? { role: roleLine.value, cognition, authority }
      : null;
  return { violations: out, facts };
}
