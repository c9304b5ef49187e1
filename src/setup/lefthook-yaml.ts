import { parseDocument } from 'yaml';
import { usageError } from '../errors.js';
import { HESTAI_HOOKS, lefthookCommand } from './install.js';

/**
 * lefthook.yml with hestai's command under `<hook>.commands.hestai` for each of its hooks, every other key,
 * command and comment kept (pre-push gets `use_stdin: true`: it reads the pushed refs). A file that is not
 * YAML is refused, naming it.
 */
export function withLefthookCommands(existing: string, hooksDir: string, file: string): string {
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
  }
  return doc.toString();
}
