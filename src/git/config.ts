import { ask, runGit, type GitQuestion } from './exec.js';
import { splitNul } from './parse.js';

/** `git config KEY VALUE` in the repository's local config. */
export function configSetQuestion(key: string, value: string): GitQuestion<void> {
  return { args: ['config', '--local', key, value], answer: () => undefined };
}
export const configSet = (cwd: string, key: string, value: string): void => ask(cwd, configSetQuestion(key, value));

/** What `commit.cleanup` and `core.commentChar` say. */
export interface CommitMessageConfig {
  /** `core.commentChar` as configured (`#` when unset; may be `auto`). */
  commentChar: string;
  cleanup: 'strip' | 'whitespace' | 'verbatim' | 'scissors' | 'default';
}

const CLEANUPS: readonly string[] = ['strip', 'whitespace', 'verbatim', 'scissors', 'default'];

/** Pure: the message config from git's `key\nvalue` entries in its order (the last value of a key wins). */
export function messageConfigOf(entries: Iterable<{ key: string; value: string }>): CommitMessageConfig {
  const result: CommitMessageConfig = { commentChar: '#', cleanup: 'default' };
  for (const { key, value } of entries) {
    if (key === 'core.commentchar' && value !== '') result.commentChar = value;
    if (key === 'commit.cleanup' && CLEANUPS.includes(value)) result.cleanup = value as CommitMessageConfig['cleanup'];
  }
  return result;
}

/**
 * `core.commentChar` and `commit.cleanup` as git in `root` sees them (every config file, include, `git -c`
 * and environment variable git itself follows): ONE `git config -z --get-regexp`.
 */
export function commitMessageConfig(root: string): CommitMessageConfig {
  const out = runGit(['config', '-z', '--get-regexp', '^(core\\.commentchar|commit\\.cleanup)$'], {
    cwd: root,
    okCodes: [1],
  }).stdout;
  return messageConfigOf(
    splitNul(out).map((entry) => {
      const nl = entry.indexOf('\n');
      return nl === -1
        ? { key: entry.toLowerCase(), value: '' }
        : { key: entry.slice(0, nl).toLowerCase(), value: entry.slice(nl + 1) };
    }),
  );
}
