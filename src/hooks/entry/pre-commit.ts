// Entry of `hooks/pre-commit`: git runs it in the worktree root.
import { runHook } from '../main.js';

process.exitCode = await runHook('pre-commit', process.cwd(), process.argv.slice(2));
