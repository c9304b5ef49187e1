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
export type { OctaveDocument, OctaveEntry, OctaveValue } from './types.js';
export { formatOctaveError } from './types.js';
export { parseOctave, tryParseOctave, validateOctave } from './parse.js';
export { writeOctave } from './write.js';
export { getValue, octaveDocument, toObject, type OctaveObject, type OctaveObjectInput } from './model.js';
export { normalizeOperators, OPERATORS } from './operators.js';
