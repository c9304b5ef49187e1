// Entry of `hooks/commit-msg`: git runs it in the worktree root with the message file as its argument.
import { runHook } from '../main.js';

process.exitCode = await runHook('commit-msg', process.cwd(), process.argv.slice(2));
