/** BIND rules: ROLE, COGNITION `TYPE::ARCHETYPE[⊕ARCHETYPE…]`, AUTHORITY `RESPONSIBLE[...]|DELEGATED[...]`. Pure. */
import { ARCHETYPES, COGNITION_TYPES } from '../constants.js';
import { entry, type VectorSection } from '../vector.js';
import type { BindFacts } from '../../records/handshake.js';
import type { DeclaredCognition, Violation } from './types.js';

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

/** Validates BIND against the requested role (and the constitution's cognition, when it declares one). */
export function checkBind(
  section: VectorSection | undefined,
  role: string,
  declared: DeclaredCognition | null = null,
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
    } else authority = `${m[1]}[${m[2]!.trim()}]`;
  }

  const facts =
    out.length === 0 && roleLine !== undefined && cognition !== null && authority !== null
      ? { role: roleLine.value, cognition, authority }
      : null;
  return { violations: out, facts };
}
