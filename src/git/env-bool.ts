/**
 * Pure: a boolean environment variable as git reads it (`git_env_bool` / `git_parse_maybe_bool`): empty,
 * `false`, `no`, `off` or `0` are false; `true`, `yes`, `on` or any other integer are true (case-insensitive);
 * anything else is null (git refuses it as a bad boolean: callers treat it as "unsure").
 */
export function gitEnvBool(value: string): boolean | null {
  const v = value.toLowerCase();
  if (v === '' || v === 'false' || v === 'no' || v === 'off') return false;
  if (v === 'true' || v === 'yes' || v === 'on') return true;
  if (/^[+-]?\d+$/.test(v)) return Number(v) !== 0;
  return null;
}
