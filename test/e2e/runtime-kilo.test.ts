import { describe, it } from 'vitest';
import { expectPluginRuntimeRun } from '../helpers/runtime-agent.js';
import { runtimeBin } from '../helpers/runtimes.js';

// Kilo Code itself (the pinned @kilocode/cli, OpenCode's fork; issue 42) loads the plugin `hestai init --agent
// kilo` wrote in .kilo/plugins/: its provider is the scripted endpoint on 127.0.0.1 (OpenAI's chat API), and
// the test reads the tool results Kilo sent back and what is on disk. Kilo names an MCP tool `<server>_<tool>`;
// init registers hestai's server in the project's kilo.json.
const KILO = await runtimeBin('kilo');

describe.skipIf(KILO === null)('Kilo Code (the real program) runs the plugin hestai init --agent kilo wrote', () => {
  it('refuses an unanchored write and bash (the file untouched, the anchor step named); anchored through the MCP server Kilo Code started, its write is allowed and its git commit carries the session and passes verify in a fresh clone', () =>
    expectPluginRuntimeRun('kilo'));
});
