import { isMap, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
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
export function validateYamlText<S extends z.ZodType>(
  text: string,
  schema: S,
): { value: z.infer<S> | null; errors: ConfigProblem[] } {
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

/** The keys a strict object accepts at `keyPath` in the schema. */
function knownKeysAt(root: z.ZodType, keyPath: readonly PropertyKey[]): string[] {
  let schema: z.ZodType = root;
  for (const segment of keyPath) {
    schema = unwrap(schema);
    if (schema instanceof z.ZodObject) {
      const next = (schema.shape as Record<string, z.ZodType>)[String(segment)];
      if (!next) return [];
      schema = next;
    } else if (schema instanceof z.ZodArray) {
      schema = schema.element as z.ZodType;
    } else {
      return [];
    }
  }
  schema = unwrap(schema);
  if (schema instanceof z.ZodUnion) {
    // A union of objects (e.g. the protocol's check types): every key any member accepts.
    const keys = new Set<string>();
    for (const option of schema.options as readonly z.ZodType[])
      for (const key of knownKeysAt(option, [])) keys.add(key);
    return [...keys];
  }
  return schema instanceof z.ZodObject ? Object.keys(schema.shape as object) : [];
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (;;) {
    if (current instanceof z.ZodDefault || current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      current = current.in as z.ZodType;
    } else {
      return current;
    }
  }
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
