/** The payload files and the text of a handshake result, shared by `anchor`, its person flow and `odyssean-anchor`. */
import fs from 'node:fs';
import path from 'node:path';
import { usageError } from '../../errors.js';
import type { AnchorHandshakeResult } from '../../anchor/results.js';
import { paint, type Output } from '../output.js';

/** Reads a payload file (`-` = stdin); a missing file is a usage error naming it. */
export function readPayloadFile(file: string | undefined, flag: string): string | undefined {
  if (file === undefined) return undefined;
  try {
    return fs.readFileSync(file === '-' ? 0 : path.resolve(file), 'utf8');
  } catch (error) {
    throw usageError(`cannot read ${flag} ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, {
      file,
      code: 'PAYLOAD_UNREADABLE',
      remedy: `Pass a readable file, or "-" to read from stdin.`,
    });
  }
}

/** The human-readable form of a handshake result. */
export function formatHandshake(out: Output, r: AnchorHandshakeResult): string {
  const lines = [
    r.success
      ? `${paint(out, 'green', 'ok')} anchor ${r.stage}${r.token ? ` (token ${r.token})` : ''}`
      : `${paint(out, 'red', 'FAILED')} anchor ${r.stage}${r.token ? ` (token ${r.token})` : ''}`,
  ];
  for (const e of r.errors) lines.push(`  - ${e}`);
  if (r.constitution_path) lines.push(`constitution: ${r.constitution_path}`);
  if (r.server_arm) lines.push('', r.server_arm);
  if (r.anchor) lines.push('', r.anchor);
  if (!r.success && r.guidance) lines.push('', r.guidance);
  else if (r.template) lines.push('', 'template:', r.template);
  for (const w of r.warnings) lines.push(`${paint(out, 'yellow', 'warn')} ${w}`);
  if (r.next_step) lines.push('', `next: ${r.next_step}`);
  return lines.join('\n');
}
