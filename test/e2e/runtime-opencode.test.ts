import { describe, it } from 'vitest';
import { expectPluginRuntimeRun } from '../helpers/runtime-agent.js';
import { runtimeBin } from '../helpers/runtimes.js';

// OpenCode itself (the pinned opencode-ai, issue 42) loads the plugin `hestai init --agent opencode` wrote in
// .opencode/plugins/: its provider is the scripted endpoint on 127.0.0.1 (OpenAI's chat API), and the test
// reads the tool results OpenCode sent back and what is on disk. OpenCode names an MCP tool
// `<server>_<tool>`; init registers hestai's server in the project's opencode.json.
const OPENCODE = await runtimeBin('opencode');

describe.skipIf(OPENCODE === null)(
  'OpenCode (the real program) runs the plugin hestai init --agent opencode wrote',
  () => {
    it('refuses an unanchored write and bash (the file untouched, the anchor step named); anchored through the MCP server OpenCode started, its write is allowed and its git commit carries the session and passes verify in a fresh clone', () =>
      expectPluginRuntimeRun('opencode'));
  },
);
