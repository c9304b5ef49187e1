/**
 * One error type per audience (STYLE.md §6).
 *
 * `HestaiError` is a user error: it carries the exit code of the CLI contract, says what is wrong and
 * where, and a remedy (what to do next). Anything else that escapes is an internal error and is printed
 * with its stack.
 */
import { truncateText } from './util/quote.js';
export const ExitCode = {
  /** Everything passed. */
  Ok: 0,
  /** Blocked, validation failed or a rule was violated. */
  Blocked: 1,
  /** Usage, config or environment error: bad flag, not a git repository, corrupt config or state. */
  Usage: 2,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface HestaiErrorOptions {
  /** What to do next, in one sentence (printed after the message as "hint: ..."). */
  remedy?: string;
  /** A file the error is about (shown in messages and JSON). */
  file?: string;
  /** Further detail lines (one problem each), e.g. every config error at once. */
  details?: readonly string[];
  /** A stable machine-readable code, e.g. `CONFIG_INVALID`. */
  code?: string;
  cause?: unknown;
}

/** Bounds of an error's text (issue 12: every echoed input is bounded). */
const MAX_MESSAGE = 1000;
const MAX_DETAILS = 200;

export class HestaiError extends Error {
  readonly exitCode: ExitCode;
  readonly remedy: string | undefined;
  readonly file: string | undefined;
  readonly details: readonly string[];
  readonly code: string;

  constructor(message: string, exitCode: ExitCode, options: HestaiErrorOptions = {}) {
    // A backstop for inputs quoted without `quoteInput`: no message or detail ever comes back huge.
    super(truncateText(message, MAX_MESSAGE), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HestaiError';
    this.exitCode = exitCode;
    this.remedy = options.remedy;
    this.file = options.file;
    this.details = (options.details ?? []).slice(0, MAX_DETAILS).map((d) => truncateText(d, MAX_MESSAGE));
    this.code = options.code ?? (exitCode === ExitCode.Usage ? 'USAGE' : 'BLOCKED');
  }

  /** A plain object for `--json` output and MCP error results. */
  toJSON(): {
    code: string;
    message: string;
    exit_code: number;
    file?: string;
    details: readonly string[];
    remedy?: string;
  } {
    return {
      code: this.code,
      message: this.message,
      exit_code: this.exitCode,
      ...(this.file === undefined ? {} : { file: this.file }),
      details: this.details,
      ...(this.remedy === undefined ? {} : { remedy: this.remedy }),
    };
  }
}

/** A usage, configuration or environment error (exit 2). */
export function usageError(message: string, options: HestaiErrorOptions = {}): HestaiError {
  return new HestaiError(message, ExitCode.Usage, options);
}

/** A rule or validation failure (exit 1). */
export function blockedError(message: string, options: HestaiErrorOptions = {}): HestaiError {
  return new HestaiError(message, ExitCode.Blocked, options);
}

/**
 * True for a user error. Also recognises one thrown by another copy of this module (the bundled hooks
 * load the full config validation from dist/, whose HestaiError is a different class object).
 */
export function isHestaiError(error: unknown): error is HestaiError {
  if (error instanceof HestaiError) return true;
  if (!(error instanceof Error) || error.name !== 'HestaiError') return false;
  const e = error as Error & { exitCode?: unknown; details?: unknown };
  return typeof e.exitCode === 'number' && Array.isArray(e.details);
}
