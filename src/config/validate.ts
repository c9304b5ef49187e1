import { isMap, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import type { core, output, ZodMiniType } from 'zod/mini';
import '../util/validate.js'; // zod/mini's English messages
import { configSchema, type WorkspaceConfig } from './schema.js';
import { nearest } from './suggest.js';

/** Alias expansions allowed when loading workspace YAML (yaml's `maxAliasCount`). */
export const MAX_ALIAS_COUNT = 100;

export interface ConfigProblem {
  /** Dotted key path, e.g. `tdd.policy` (empty for the document itself). */
  key: string;
  /** 1-based line of the offending key or value, when known. */
  line?: number;
  column?: number;
  message: string;
}

export interface ConfigValidation {
  config: WorkspaceConfig | null;
  errors: ConfigProblem[];
}

/**
 * Validates the text of a workspace file without throwing (changesets' `validateConfig` shape): every
 * problem is collected, each with its key path and line, and unknown keys get a nearest-key suggestion.
 */
export function validateConfigText(text: string): ConfigValidation {
  const { value, errors } = validateYamlText(text, configSchema);
  return { config: value, errors };
}

/**
 * Validates YAML text against any strict zod schema (the workspace config, the session protocol): every
 * problem with its key path, line and column, and a nearest-key suggestion for unknown keys.
 */
export function validateYamlText<S extends ZodMiniType>(
  text: string,
  schema: S,
): { value: output<S> | null; errors: ConfigProblem[] } {
  const parsed = parseYaml(text);
  if ('errors' in parsed) return { value: null, errors: parsed.errors };
  const { doc, lineCounter } = parsed;
  const raw = parsed.value ?? {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { value: null, errors: [{ key: '', line: 1, message: 'expected a mapping of keys at the top level' }] };
  }
  const result = schema.safeParse(raw);
  if (result.success) return { value: result.data, errors: [] };
  const errors: ConfigProblem[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const keyPath = [...issue.path, key];
        const known = knownKeysAt(schema, issue.path);
        const suggestion = nearest(key, known);
        errors.push({
          key: keyPath.join('.'),
          ...position(doc, lineCounter, keyPath, true),
          message: `unknown key "${key}"${suggestion ? `; did you mean "${suggestion}"?` : ''} (known keys: ${known.join(', ')})`,
        });
      }
    } else {
      errors.push({
        key: issue.path.join('.'),
        ...position(doc, lineCounter, issue.path, false),
        message: issue.message,
      });
    }
  }
  return { value: null, errors };
}

function parseYaml(
  text: string,
): { doc: Document; lineCounter: LineCounter; value: unknown } | { errors: ConfigProblem[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      errors: doc.errors.map((error) => {
        const pos = error.linePos?.[0] ?? lineCounter.linePos(error.pos[0]);
        return {
          key: '',
          ...(pos ? { line: pos.line, column: pos.col } : {}),
          message: `invalid YAML: ${error.message.split('\n')[0]}`,
        };
      }),
    };
  }
  try {
    // An alias bomb (aliases of aliases) expands exponentially: refused past MAX_ALIAS_COUNT expansions.
    return { doc, lineCounter, value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (error) {
    return {
      errors: [
        {
          key: '',
          line: 1,
          message: `invalid YAML: ${(error as Error).message} (at most ${MAX_ALIAS_COUNT} alias expansions)`,
        },
      ],
    };
  }
}

type Def = { type: string; shape?: Record<string, Schema>; element?: Schema; options?: readonly Schema[] };
type Schema = core.$ZodType;
const defOf = (schema: Schema) => schema._zod.def as Def;

/** The keys a strict object accepts at `keyPath` in the schema. */
function knownKeysAt(root: Schema, keyPath: readonly PropertyKey[]): string[] {
  let schema = root;
  for (const segment of keyPath) {
    const def = defOf(unwrap(schema));
    const next = def.type === 'object' ? def.shape?.[String(segment)] : def.type === 'array' ? def.element : undefined;
    if (next === undefined) return [];
    schema = next;
  }
  const def = defOf(unwrap(schema));
  // A union of objects (e.g. the protocol's check types): every key any member accepts.
  if (def.type === 'union') return [...new Set((def.options ?? []).flatMap((option) => knownKeysAt(option, [])))];
  return def.type === 'object' ? Object.keys(def.shape ?? {}) : [];
}

/** The schema inside defaults, optionals, nullables and pipes. */
function unwrap(schema: Schema): Schema {
  const def = schema._zod.def as { type: string; innerType?: Schema; in?: Schema };
  if (def.innerType !== undefined && ['default', 'optional', 'nullable'].includes(def.type))
    return unwrap(def.innerType);
  return def.type === 'pipe' && def.in !== undefined ? unwrap(def.in) : schema;
}

/** Line and column of a key (or its value) in the YAML source. */
function position(
  doc: Document,
  lineCounter: LineCounter,
  keyPath: readonly PropertyKey[],
  wantKey: boolean,
): { line?: number; column?: number } {
  let node: unknown = doc.contents;
  let keyNode: unknown = null;
  for (const segment of keyPath) {
    if (isMap(node)) {
      const pair = node.items.find((item) => {
        const k = item.key as { value?: unknown } | null;
        return k !== null && typeof k === 'object' && String(k.value) === String(segment);
      });
      if (!pair) break;
      keyNode = pair.key;
      node = pair.value;
    } else if (isSeq(node)) {
      keyNode = null;
      node = node.items[Number(segment)];
    } else {
      break;
    }
  }
  const target = (wantKey && keyNode ? keyNode : (node ?? keyNode)) as { range?: [number, number, number] } | null;
  const offset = target?.range?.[0];
  if (offset === undefined) return {};
  const pos = lineCounter.linePos(offset);
  return { line: pos.line, column: pos.col };
}
