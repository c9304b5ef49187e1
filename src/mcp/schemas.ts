import { z } from 'zod';

/**
 * Input fields shared by the tools. Every field carries a description: it is what an agent reads in
 * `tools/list` to call the tool correctly.
 */
export const workingDir = z
  .string()
  .describe('Absolute path of the repository (any directory inside it resolves to its worktree root).');

export const sessionId = z.string().describe('The session id returned by clock_in (a UUID v4; it is also the anchor token).');

export const optionalSessionId = sessionId
  .optional()
  .describe(
    'The session id returned by clock_in (a UUID v4). Default: HESTAI_SESSION, else the most recently anchored live session, else the most recently started one.',
  );

/** The structured content of every isError result (see errorResult in result.ts), for documentation. */
export const errorShape = z.object({
  ok: z.literal(false).describe('Always false on an error result.'),
  error: z
    .object({
      code: z.string().describe('Machine-readable error code, e.g. TOOL_LOCKED or WORKDIR_INVALID.'),
      message: z.string().describe('What is wrong and where.'),
      exit_code: z.number().describe('The exit code the CLI uses for this error: 1 blocked, 2 usage/config/environment.'),
      file: z.string().optional().describe('The file the error is about, if any.'),
      details: z.array(z.string()).describe('One line per problem found.'),
      remedy: z.string().optional().describe('What to do next.'),
    })
    .describe('The error, as the CLI prints it with --json.'),
  errors: z.array(z.string()).describe('The message followed by every detail line.'),
  guidance: z.string().describe('What to do next (the remedy), or empty.'),
});
