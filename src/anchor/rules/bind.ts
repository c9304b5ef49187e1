/** BIND rules: ROLE, COGNITION `TYPE::ARCHETYPE[⊕ARCHETYPE…]`, AUTHORITY `RESPONSIBLE[...]|DELEGATED[...]`. Pure. */
import { ARCHETYPES, COGNITION_TYPES } from '../constants.js';
import { entry, type VectorSection } from '../vector.js';
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

  let cognition: string | null = null;
  const cogLine = entry(section, 'COGNITION');
  const cogFix = `Write "COGNITION::TYPE::ARCHETYPE" with TYPE one of ${COGNITION_TYPES.join(', ')} and archetypes joined by ⊕ (or +), e.g. "COGNITION::LOGOS::ATHENA⊕HEPHAESTUS"; take them from your constitution.`;
  if (cogLine === undefined || cogLine.value === '') {
    out.push(
      bind(
        'BIND_COGNITION_MISSING',
        cogLine === undefined ? 'COGNITION is missing' : 'COGNITION is empty',
        cogFix,
        cogLine?.line,
      ),
    );
  } else {
    const m = COGNITION.exec(cogLine.value);
    if (m === null) {
      out.push(
        bind('BIND_COGNITION_FORMAT', `COGNITION "${cogLine.value}" is not TYPE::ARCHETYPE`, cogFix, cogLine.line),
      );
    } else {
      const type = m[1]!;
      const names = m[2]!.split(/\s*[+⊕]\s*/).map((n) => n.trim());
      let ok = true;
      if (!(COGNITION_TYPES as readonly string[]).includes(type)) {
        ok = false;
        out.push(
          bind(
            'BIND_COGNITION_TYPE',
            `COGNITION type "${type}" is not one of ${COGNITION_TYPES.join(', ')}`,
            cogFix,
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
            cogFix,
            cogLine.line,
          ),
        );
      }
      if (ok && declared !== null) {
        const wrongType = declared.type !== null && declared.type !== type;
        const foreign = declared.archetypes.length > 0 ? names.filter((n) => !declared.archetypes.includes(n)) : [];
        if (wrongType || foreign.length > 0) {
          ok = false;
          const want = `${declared.type ?? type}::${(declared.archetypes.length > 0 ? declared.archetypes : names).join('⊕')}`;
          out.push(
            bind(
              'BIND_COGNITION_CONSTITUTION',
              wrongType
                ? `COGNITION type ${type} differs from the constitution's ${declared.type}`
                : `COGNITION archetype${foreign.length > 1 ? 's' : ''} ${foreign.join(', ')} not declared by the constitution (${declared.archetypes.join(', ')})`,
              `Extract the cognition from your constitution: "COGNITION::${want}" (or a subset of its archetypes).`,
              cogLine.line,
            ),
          );
        }
      }
      if (ok) cognition = `${type}::${names.join('⊕')}`;
    }
  }

  let authority: string | null = null;
  const authLine = entry(section, 'AUTHORITY');
  const authFix =
    'Write "AUTHORITY::RESPONSIBLE[scope of what you own]" or "AUTHORITY::DELEGATED[parent_session_id]" (brackets required, not empty).';
  if (authLine === undefined || authLine.value === '') {
    out.push(
      bind(
        'BIND_AUTHORITY_MISSING',
        authLine === undefined ? 'AUTHORITY is missing' : 'AUTHORITY is empty',
        authFix,
        authLine?.line,
      ),
    );
  } else {
    const m = AUTHORITY.exec(authLine.value);
    if (m === null || m[2]!.trim() === '' || /^\{.*\}$/.test(m[2]!.trim())) {
      out.push(
        bind(
          'BIND_AUTHORITY_FORMAT',
          m === null
            ? `AUTHORITY "${authLine.value}" is not RESPONSIBLE[...] or DELEGATED[...]`
            : `AUTHORITY "${authLine.value}" has no scope in its brackets`,
          authFix,
          authLine.line,
        ),
      );
    } else {
      const scope = m[2]!.trim();
      const problem = m[1] === 'DELEGATED' ? delegationProblem(scope, delegation) : null;
      if (problem === null) authority = `${m[1]}[${scope}]`;
      else
        out.push(
          bind(
            'BIND_AUTHORITY_DELEGATED',
            `AUTHORITY DELEGATED[${scope}] ${problem}`,
            'Write "AUTHORITY::DELEGATED[parent_session_id]" with the session id of the session that delegated this work to you (from its clock-in; it must be live or archived in this worktree), or "AUTHORITY::RESPONSIBLE[scope]" when no session delegated it.',
            authLine.line,
          ),
        );
    }
  }

  const facts =
    out.length === 0 && roleLine !== undefined && cognition !== null && authority !== null
      ? { role: roleLine.value, cognition, authority }
      : null;
  return { violations: out, facts };
}
