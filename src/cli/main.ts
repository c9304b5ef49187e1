import { Command, CommanderError } from 'commander';
import { ExitCode } from '../errors.js';
import { VERSION } from '../version.js';
import { commands } from './commands/index.js';
import { createOutput } from './output.js';
import { reportError } from './run.js';

/** Builds the `hestai` program: global options, every command, and the exit-code contract. */
export function buildProgram(): Command {
  const program = new Command('hestai')
    .description('Hold AI coding agents and humans to the same verifiable discipline: clock in, anchor, test first.')
    .version(VERSION, '-V, --version', 'print the version')
    .option('--cwd <dir>', 'run as if started in <dir> (any path inside the repository)')
    .option('--json', 'print exactly one JSON document on stdout')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      outputError: (message, write) => {
        write(
          `hestai: ${message.replace(/^error: /, '').trim()}\nhint: run "hestai --help" (or "hestai <command> --help") for usage.\n`,
        );
      },
    });
  program.addHelpText(
    'after',
    '\nExit codes: 0 ok · 1 blocked / validation failed / rule violated · 2 usage, config or environment error.',
  );
  for (const register of commands) register(program);
  for (const sub of program.commands) sub.exitOverride().showSuggestionAfterError(true);
  return program;
}

/** Runs the CLI with `argv` (as process.argv) and returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  if (argv.length <= 2) {
    program.outputHelp();
    return ExitCode.Usage;
  }
  try {
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.Ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      ) {
        return ExitCode.Ok;
      }
      return ExitCode.Usage;
    }
    return reportError(createOutput(argv.includes('--json')), error);
  }
}
