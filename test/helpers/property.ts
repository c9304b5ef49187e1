import { runnerEnv } from './packed.js';

// The one place property tests take their run counts from (issue 38, item 6). Each count is sized so its
// file passes well inside the unit project's 20 s limit on a loaded 2-core machine; HESTAI_PROPERTY_SCALE
// (a positive number) multiplies every count for a deeper run, e.g. HESTAI_PROPERTY_SCALE=10 npx vitest run.

/** fast-check's options for one property: `n` runs, times HESTAI_PROPERTY_SCALE when it is set (at least 1). */
export function runs(n: number, env: NodeJS.ProcessEnv = runnerEnv()): { numRuns: number } {
  const raw = env['HESTAI_PROPERTY_SCALE'];
  if (raw === undefined) return { numRuns: n };
  const scale = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(scale) || scale <= 0)
    throw new Error(`HESTAI_PROPERTY_SCALE is "${raw}": set it to a positive number (10 runs ten times as many cases)`);
  return { numRuns: Math.max(1, Math.round(n * scale)) };
}
