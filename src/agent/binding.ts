import fs from 'node:fs';
import path from 'node:path';
import type { ProcessId } from '../util/proc.js';
import { usageError } from '../errors.js';
import type { WorkspacePaths } from '../paths.js';
import { readJsonIfExists, writeJsonAtomic, type Validate } from '../state/store.js';
import { AGENT_RUNTIMES, type AgentRuntime } from '../setup/runtime-settings.js';
import * as z from 'zod/mini';
import { isoDate, recordChecker, UUID_V4 } from '../util/validate.js';

/** A runtime's own session id: plain characters only, so it can name a file. */
export const RUNTIME_SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** `.hestai/sessions/bindings/{runtime}/{runtime_session_id}.json`: one agent session → one hestai session. */
export interface SessionBinding {
  version: 1;
  runtime: AgentRuntime;
  runtime_session_id: string;
  session_id: string;
  bound_at: string;
  /**
   * The runtime's processes as the SessionStart hook saw them (its parent, the `sh -c` the runtime ran it
   * through, and that shell's parent, the runtime itself; pid and start time): how the MCP server the same
   * runtime started finds this binding (`runtimeBindings`). Absent where there is no /proc.
   */
  runtime_processes?: ProcessId[];
}

const validateBinding: Validate<SessionBinding> = recordChecker(
  z.looseObject({
    version: z.literal(1),
    runtime: z.enum(AGENT_RUNTIMES),
    runtime_session_id: z.string().check(z.regex(RUNTIME_SESSION_ID)),
    session_id: z.string().check(z.regex(UUID_V4)),
    bound_at: isoDate,
    runtime_processes: z.optional(z.array(z.looseObject({ pid: z.int(), start: z.string() })).check(z.maxLength(8))),
  }),
);

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

/**
 * The bindings of the runtime process that started the caller (issue 26, item 5: how the MCP server the
 * runtime started learns the session its SessionStart hook bound): those whose `runtime_processes` include
 * one of `ancestors` (the caller's own ancestors, pid and start time, parent first), newest first. Under
 * Claude Code the hook runs as `sh -c` under the runtime and the MCP server as the runtime's child, so they
 * meet at the runtime's process. A binding unreadable or of no live process is skipped.
 */
export function runtimeBindings(
  paths: WorkspacePaths,
  runtime: AgentRuntime,
  ancestors: readonly ProcessId[],
): SessionBinding[] {
  if (ancestors.length === 0) return [];
  let names: string[];
  try {
    names = fs.readdirSync(path.join(paths.bindings, runtime));
  } catch {
    return [];
  }
  const found: Array<{ binding: SessionBinding; nearest: number }> = [];
  for (const name of names) {
    if (!name.endsWith('.json') || !RUNTIME_SESSION_ID.test(name.slice(0, -5))) continue;
    let binding: SessionBinding | null;
    try {
      binding = readBinding(paths, runtime, name.slice(0, -5));
    } catch {
      continue;
    }
    const procs = binding?.runtime_processes ?? [];
    const nearest = ancestors.findIndex((a) => procs.some((p) => a.pid === p.pid && a.start === p.start));
    if (binding !== null && nearest !== -1) found.push({ binding, nearest });
  }
  // The binding met at the caller's nearest ancestor first (its runtime, not a terminal both share), then the newest.
  return found
    .sort((a, b) => a.nearest - b.nearest || b.binding.bound_at.localeCompare(a.binding.bound_at))
    .map((f) => f.binding);
}
