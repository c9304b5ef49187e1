import { validateYamlText, type ConfigProblem } from '../config/validate.js';
import { protocolSchema } from './schema.js';
import type { Protocol } from './types.js';

/**
 * Validates the text of a protocol file without throwing: every problem with its key path, line and
 * column, unknown keys with the nearest known key (the same helper as the workspace config).
 */
export function validateProtocolText(text: string): { protocol: Protocol | null; errors: ConfigProblem[] } {
  const { value, errors } = validateYamlText(text, protocolSchema);
  return { protocol: value as Protocol | null, errors };
}
