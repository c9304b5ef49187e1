import {
  CHECK_TYPES,
  COMPLETE,
  EVIDENCE_TYPES,
  LEVELS,
  POST_COMMIT_CHECKS,
  STAGES,
  type CheckType,
  type Protocol,
} from './types.js';

// Pure, free of zod: is a value read back from the protocol cache exactly what `protocolSchema` produces?
// A cache can be edited by anyone who can write the user's cache directory; what fails here is ignored (the
// file is validated again and the cache rewritten), so a cache can never drop, demote or invent a gate.

type Obj = Record<string, unknown>;

const ID = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const isId = (v: unknown) => typeof v === 'string' && ID.test(v);
const isText = (v: unknown) => typeof v === 'string' && v.length > 0;
const isRelPath = (v: unknown) =>
  isText(v) &&
  !(v as string).startsWith('/') &&
  !/^[A-Za-z]:[\\/]/.test(v as string) &&
  !(v as string).split(/[\\/]/).includes('..');
/** Only these keys, and every required one. */
const keys = (o: Obj, required: readonly string[], optional: readonly string[] = []) =>
  required.every((k) => k in o) && Object.keys(o).every((k) => required.includes(k) || optional.includes(k));

function isCheck(c: unknown): boolean {
  if (!isObj(c) || !(CHECK_TYPES as readonly unknown[]).includes(c['type'])) return false;
  switch (c['type'] as CheckType) {
    case 'file_exists':
    case 'file_modified_since_start':
      return keys(c, ['type', 'path']) && isRelPath(c['path']);
    case 'command': {
      const t = c['timeout_ms'];
      return (
        keys(c, ['type', 'run', 'timeout_ms']) &&
        isText(c['run']) &&
        typeof t === 'number' &&
        Number.isInteger(t) &&
        t > 0 &&
        t <= 600_000
      );
    }
    case 'branch_not': {
      const b = c['branches'];
      return keys(c, ['type', 'branches']) && Array.isArray(b) && b.length > 0 && b.every(isText);
    }
    case 'evidence': {
      const a = c['accepts'];
      if (!keys(c, ['type', 'accepts'], ['path'])) return false;
      if (!Array.isArray(a) || a.length === 0 || !a.every((t) => (EVIDENCE_TYPES as readonly unknown[]).includes(t)))
        return false;
      if (c['path'] === undefined) return !a.includes('content_hash');
      return isRelPath(c['path']);
    }
    default:
      return keys(c, ['type']);
  }
}

function isGate(g: unknown): boolean {
  if (!isObj(g) || !keys(g, ['id', 'step', 'level', 'blocking', 'check', 'pre_commit'])) return false;
  if (!isId(g['id']) || !isText(g['step']) || !(LEVELS as readonly unknown[]).includes(g['level'])) return false;
  if (typeof g['blocking'] !== 'boolean' || typeof g['pre_commit'] !== 'boolean' || !isCheck(g['check'])) return false;
  return !(g['pre_commit'] && POST_COMMIT_CHECKS.has((g['check'] as { type: CheckType }).type));
}

function isPhase(p: unknown): boolean {
  if (!isObj(p) || !keys(p, ['id', 'title', 'stage', 'gates'])) return false;
  if (!isId(p['id']) || p['id'] === COMPLETE || !isText(p['title'])) return false;
  if (!(STAGES as readonly unknown[]).includes(p['stage']) || !Array.isArray(p['gates'])) return false;
  const gates = p['gates'] as unknown[];
  return gates.every(isGate) && new Set(gates.map((g) => (g as Obj)['id'])).size === gates.length;
}

/** Whether `value` has exactly the shape (and the invariants) of a validated protocol. */
export function isProtocol(value: unknown): value is Protocol {
  if (!isObj(value) || !keys(value, ['version', 'phases']) || value['version'] !== 1) return false;
  const phases = value['phases'];
  if (!Array.isArray(phases) || phases.length === 0 || !phases.every(isPhase)) return false;
  return new Set(phases.map((p) => (p as Obj)['id'])).size === phases.length;
}
