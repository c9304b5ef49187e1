/**
 * OCTAVE: the structured text format of the state files (`.oct.md`) — the subset this project reads and
 * writes. Pure functions; no file access.
 *
 * ```
 * ===CURRENT_FOCUS===
 * META:
 *   TYPE::"FAST_LAYER"
 * ROLE::implementation-lead
 * ITEMS::[a,b,"c d"]
 * ===END===
 * ```
 */
export type {
  OctaveAssignment,
  OctaveBlock,
  OctaveDocument,
  OctaveEntry,
  OctaveParseResult,
  OctaveSyntaxError,
  OctaveValue,
} from './types.js';
export { formatOctaveError, isBlock } from './types.js';
export { parseOctave, tryParseOctave, validateOctave, type ParseOctaveOptions } from './parse.js';
export { writeOctave } from './write.js';
export {
  getValue,
  octaveDocument,
  toObject,
  type OctaveListInput,
  type OctaveObject,
  type OctaveObjectInput,
  type OctaveScalarInput,
} from './model.js';
export { normalizeOperators, OPERATORS } from './operators.js';
export { isValidKey, isValidEnvelopeName } from './syntax.js';
