import type { Command } from 'commander';
import { registerDoctor } from './doctor.js';

/**
 * Every command, one file each. A command file only declares its flags and calls the library lazily,
 * so `hestai <command>` loads just what that command needs.
 */
export const commands: ReadonlyArray<(program: Command) => void> = [registerDoctor];
