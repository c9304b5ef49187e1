import path from 'node:path';
import { usageError } from '../errors.js';
import type { WorkspacePaths } from '../paths.js';
import { readJsonIfExists, writeJsonAtomic, type Validate } from '../state/store.js';
import { expectIsoDate, expectString, isRecord, UUID_V4, type Problems } from '../util/validate.js';

/** The agent runtimes hestai binds sessions for. */
export const AGENT_RUNTIMES = ['claude-code', 'codex', 'gemini'] as const;
export type AgentRuntime = (typeof AGENT_RUNTIMES)[number];

/** A runtime's own session id: plain characters only, so it can name a file. */
export const RUNTIME_SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** `.hestai/sessions/bindings/{runtime}/{runtime_session_id}.json`: one agent session → one hestai session. */
export interface SessionBinding {
  version: 1;
  runtime: AgentRuntime;
  runtime_session_id: string;
  session_id: string;
  bound_at: string;
}

const validateBinding: Validate<SessionBinding> = (value) => {
  if (!isRecord(value)) return { ok: false, errors: ['(root): expected an object'] };
  const problems: Problems = [];
  if (value['version'] !== 1) problems.push('version: expected 1');
  if (!(AGENT_RUNTIMES as readonly unknown[]).includes(value['runtime']))
    problems.push(`runtime: expected one of ${AGENT_RUNTIMES.join(', ')}`);
  expectString(value, 'runtime_session_id', problems, { pattern: RUNTIME_SESSION_ID });
  expectString(value, 'session_id', problems, { pattern: UUID_V4 });
  expectIsoDate(value, 'bound_at', problems);
  return problems.length === 0
    ? { ok: true, value: value as unknown as SessionBinding }
    : { ok: false, errors: problems };
};

/** Checks a runtime session id taken from a hook's input (exit 2 naming it when it is not plain). */
export function checkRuntimeSessionId(id: unknown): string {
  if (typeof id !== 'string' || !RUNTIME_SESSION_ID.test(id)) {
    throw usageError(
      `the runtime session id ${JSON.stringify(id)} is not a plain identifier (letters, digits, . _ : -; at most 128)`,
      {
        code: 'AGENT_INPUT_INVALID',
        remedy: 'The agent runtime sends session_id in the hook input; check what calls the hook.',
      },
    );
  }
  return id;
}

export function bindingFile(paths: WorkspacePaths, runtime: AgentRuntime, runtimeSessionId: string): string {
  return path.join(paths.bindings, runtime, `${checkRuntimeSessionId(runtimeSessionId)}.json`);
}

/** The binding of a runtime session, or null. A corrupt binding file is an error naming it. */
export function readBinding(
  paths: WorkspacePaths,
  runtime: AgentRuntime,
  runtimeSessionId: string,
): SessionBinding | null {
  const binding = readJsonIfExists(bindingFile(paths, runtime, runtimeSessionId), validateBinding);
  if (binding && (binding.runtime !== runtime || binding.runtime_session_id !== runtimeSessionId)) {
    throw usageError(
      `the binding file ${bindingFile(paths, runtime, runtimeSessionId)} names another runtime session (${binding.runtime} ${binding.runtime_session_id})`,
      {
        file: bindingFile(paths, runtime, runtimeSessionId),
        code: 'STATE_CORRUPT',
        remedy: 'Do not edit .hestai/ by hand. Remove the file; the next SessionStart binds the session again.',
      },
    );
  }
  return binding;
}

/** Binds a runtime session to a hestai session (atomic write; a re-bind replaces the old one). */
export function writeBinding(paths: WorkspacePaths, binding: SessionBinding): void {
  if (!UUID_V4.test(binding.session_id))
    throw usageError(`cannot bind to ${JSON.stringify(binding.session_id)}: not a session id`, {
      code: 'SESSION_INVALID',
    });
  writeJsonAtomic(bindingFile(paths, binding.runtime, binding.runtime_session_id), binding);
}
