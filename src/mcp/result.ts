import { isHestaiError, type HestaiError } from '../errors.js';

/**
 * Tool results of the MCP adapter. Success: structured content (matching the tool's output schema) plus a
 * readable text. Failure: an `isError` result carrying the same error, details and remedy the CLI prints,
 * so an agent gets the same guidance a human does. Kept free of the SDK so it is a plain, testable mapping.
 */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A successful result: structured content and its readable text. */
export function okResult(structured: object, text: string): ToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured as Record<string, unknown> };
}

/**
 * A result the library returned but that says the step failed (e.g. a handshake payload that did not
 * validate): the library's own document, flagged `isError` so clients treat it as a failure.
 */
export function failedResult(structured: object, text: string): ToolResult {
  return { ...okResult(structured, text), isError: true };
}

/** The CLI's rendering of a user error (see `formatUserError` in src/cli/run.ts), without colour. */
export function formatError(error: HestaiError): string {
  const lines = [`hestai: ${error.message}`];
  for (const detail of error.details) lines.push(`  - ${detail}`);
  if (error.remedy) lines.push(`hint: ${error.remedy}`);
  lines.push(`code: ${error.code}`);
  return lines.join('\n');
}

/**
 * Maps anything a handler threw to an `isError` result. A `HestaiError` keeps its message, details,
 * remedy and code (in the text); anything else is an internal error whose stack goes to the diagnostic
 * log (stderr), never to stdout, and the server keeps serving.
 */
export function errorResult(error: unknown, log: (line: string) => void = () => {}): ToolResult {
  // No structuredContent: an error result cannot match the tool's declared output schema, and a client
  // that validates it (the TypeScript SDK v1 does) would turn the error into a -32602 and lose the hint.
  // Everything is in the text: message, detail lines, `hint:` and `code:`.
  if (isHestaiError(error)) return { content: [{ type: 'text', text: formatError(error) }], isError: true };
  const message = error instanceof Error ? error.message : String(error);
  log(`hestai mcp: internal error: ${error instanceof Error ? (error.stack ?? message) : message}`);
  return {
    content: [
      {
        type: 'text',
        text: `hestai: internal error: ${message}\nPlease report this at the project's issue tracker.\ncode: INTERNAL`,
      },
    ],
    isError: true,
  };
}
