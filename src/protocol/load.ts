import { usageError } from '../errors.js';
import type { WorkspacePaths } from '../paths.js';
import { readTextIfExists } from '../state/store.js';
import { sha256Hex } from '../util/sha256.js';
import { validateProtocolText } from './validate.js';
import type { Protocol } from './types.js';

export interface LoadedProtocol {
  protocol: Protocol;
  file: string;
  /** sha256 of the file's text: recorded in the run so a changed protocol is visible. */
  sha256: string;
  /** The file's text (sealed into a run at its start: the run is judged by this version). */
  text: string;
}

/** A loaded protocol whose `sha256` (only the run's start and views need it) is computed when first read. */
function loaded(protocol: Protocol, file: string, text: string): LoadedProtocol {
  let sha256: string | undefined;
  return {
    protocol,
    file,
    text,
    get sha256() {
      return (sha256 ??= sha256Hex(text));
    },
  };
}

/** Formats validation problems the way the workspace config does: `file:line:col: key: message`. */
export function protocolError(
  file: string,
  errors: ReadonlyArray<{ key: string; line?: number; column?: number; message: string }>,
) {
  const details = errors.map(
    (e) =>
      `${file}${e.line ? `:${e.line}${e.column ? `:${e.column}` : ''}` : ''}: ${e.key ? `${e.key}: ` : ''}${e.message}`,
  );
  return usageError(`invalid session protocol ${file} (${errors.length} problem${errors.length === 1 ? '' : 's'})`, {
    file,
    details,
    code: 'PROTOCOL_INVALID',
    remedy: 'Fix the keys listed above (see "Session protocol" in the README for every key and check type).',
  });
}

/**
 * Loads and validates `.hestai/protocol.yaml`; null when the workspace has none. The text is the only
 * source of phases, gates and levels (never the session state), validated on every run.
 */
export async function loadProtocol(paths: WorkspacePaths): Promise<LoadedProtocol | null> {
  const file = paths.protocol;
  const text = readTextIfExists(file);
  if (text === null) return null;
  return protocolFromText(text, file);
}

/** The protocol of `text` (a run's sealed copy of the file it started with, or the file itself); `file` names it in errors. */
export function protocolFromText(text: string, file: string): LoadedProtocol {
  const { protocol, errors } = validateProtocolText(text);
  if (protocol === null) throw protocolError(file, errors);
  return loaded(protocol, file, text);
}

/** Like {@link loadProtocol}, but a missing file is a usage error with the remedy. */
export async function requireProtocol(paths: WorkspacePaths): Promise<LoadedProtocol> {
  const loaded = await loadProtocol(paths);
  if (loaded === null) {
    throw usageError(`no session protocol: ${paths.protocol} does not exist`, {
      file: paths.protocol,
      code: 'PROTOCOL_MISSING',
      remedy:
        'Run `hestai init` to install the default protocol, or copy templates/protocol/seed-004.yaml to .hestai/protocol.yaml.',
    });
  }
  return loaded;
}
