// How git will clean a commit message, for the hooks that judge it (commit-msg) or add to it (prepare-commit-msg).
import { commitMessageConfig } from '../git/config.js';
import { readCommitInvocation } from '../git/invocation.js';
import { autoCommentChar, type MessageOptions } from '../tdd/message.js';

const CLEANUP_MODES = new Set(['default', 'strip', 'whitespace', 'verbatim', 'scissors']);

/**
 * How git will clean this message: `commit.cleanup` and `core.commentChar` (one git process: git answers
 * from every config source it follows), and
 * whether an editor was used (git runs the hook with `GIT_EDITOR=:` when it was not). A `--cleanup`
 * or `-v` on git's command line is not visible to the hook (see src/tdd/message.ts).
 */
export function messageOptions(root: string, raw: string, env: NodeJS.ProcessEnv): MessageOptions {
  const editor = env['GIT_EDITOR'] !== ':';
  const config = commitMessageConfig(root);
  // A --cleanup=<mode> on git's command line wins over commit.cleanup; git passes it to no hook, so it is read
  // from git's argv (Linux /proc, src/git/invocation.ts); elsewhere the config's mode is judged and verify,
  // which judges the stored message, remains the backstop (docs/enforcement.md).
  const found = readCommitInvocation();
  const given = found.kind === 'found' ? (found.invocation?.cleanup ?? null) : null;
  const cleanup = given !== null && CLEANUP_MODES.has(given) ? (given as MessageOptions['cleanup']) : config.cleanup;
  return {
    commentChar: config.commentChar === 'auto' ? autoCommentChar(raw, editor) : config.commentChar,
    cleanup,
    editor,
  };
}
