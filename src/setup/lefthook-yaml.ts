import { parseDocument } from 'yaml';
import { usageError } from '../errors.js';
import { basename } from 'node:path';
import { HESTAI_HOOKS, lefthookCommand, lefthookFilesCommand } from './install.js';

/**
 * lefthook.yml with hestai's command under `<hook>.commands.hestai` for each of its hooks, every other key,
 * command and comment kept (pre-push gets `use_stdin: true`: it reads the pushed refs; pre-commit gets `files`,
 * so it runs when nothing is staged). `hooksDir` null: the global `hestai check`. A file that is not YAML is
 * refused, naming it.
 */
export function withLefthookCommands(existing: string, hooksDir: string | null, file: string): string {
  const doc = parseDocument(existing);
  if (doc.errors.length > 0)
    throw usageError(`${file} is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`, {
      file,
      code: 'HOOK_CONFLICT',
      remedy: `Fix ${file}, then run hestai init again; it was left unchanged.`,
    });
  for (const hook of HESTAI_HOOKS) {
    const path = [hook, 'commands', 'hestai'];
    if (doc.getIn([...path, 'run']) !== lefthookCommand(hook, hooksDir))
      doc.setIn([...path, 'run'], lefthookCommand(hook, hooksDir));
    if (hook === 'pre-push' && doc.getIn([...path, 'use_stdin']) !== true) doc.setIn([...path, 'use_stdin'], true);
    const files = lefthookFilesCommand(basename(file));
    if (hook === 'pre-commit' && doc.getIn([...path, 'files']) !== files) doc.setIn([...path, 'files'], files);
  }
  return doc.toString();
}
