/** The state of `HESTAI_BYPASS`: unset, a usable reason, or set but empty (refused). */
export type Bypass = { kind: 'none' } | { kind: 'reason'; reason: string } | { kind: 'empty' };

/** Pure: reads `HESTAI_BYPASS` from an environment. A bypass is never silent, so a reason is required. */
export function readBypass(env: NodeJS.ProcessEnv): Bypass {
  if (!('HESTAI_BYPASS' in env) || env['HESTAI_BYPASS'] === undefined) return { kind: 'none' };
  const reason = env['HESTAI_BYPASS'].replace(/[\r\n]+/g, ' ').trim();
  return reason === '' ? { kind: 'empty' } : { kind: 'reason', reason };
}

export const EMPTY_BYPASS_LINES = [
  'hestai: HESTAI_BYPASS is set but empty: a bypass needs a reason, and is recorded.',
  'hint: HESTAI_BYPASS="why this commit cannot follow the rules" git commit ...  (or unset HESTAI_BYPASS)',
];
