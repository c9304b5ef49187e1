import type { AgentRuntime } from '../../setup/runtime-settings.js';
import { claudeCodeAdapter } from './claude-code.js';
import { clineAdapter } from './cline.js';
import { codexAdapter } from './codex.js';
import { copilotAdapter } from './copilot.js';
import { cursorAdapter } from './cursor.js';
import { droidAdapter } from './droid.js';
import { geminiAdapter } from './gemini.js';
import { qwenAdapter } from './qwen.js';
import { kiloAdapter, opencodeAdapter } from './opencode.js';
import type { RuntimeAdapter } from './types.js';

/** Every runtime's adapter, by runtime: they all feed the one decision function. */
export const ADAPTERS: Readonly<Record<AgentRuntime, RuntimeAdapter>> = {
  'claude-code': claudeCodeAdapter,
  codex: codexAdapter,
  gemini: geminiAdapter,
  cursor: cursorAdapter,
  copilot: copilotAdapter,
  qwen: qwenAdapter,
  droid: droidAdapter,
  opencode: opencodeAdapter,
  kilo: kiloAdapter,
  cline: clineAdapter,
};
