import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/defaults.js';
import { validateConfigText } from '../../src/config/validate.js';

// Issue 18: `anchor.constitutions` (install | strict) decides what the identity stage does when a role's
// constitution is missing.
describe('anchor.constitutions', () => {
  it('defaults to install', () => {
    expect(DEFAULTS.anchor.constitutions).toBe('install');
    expect(validateConfigText('anchor:\n  required: true\n').config?.anchor.constitutions).toBe('install');
  });

  it('accepts strict', () => {
    expect(validateConfigText('anchor:\n  constitutions: strict\n').config?.anchor.constitutions).toBe('strict');
  });

  it('refuses anything else, naming the key, the line and both values', () => {
    const { config, errors } = validateConfigText('anchor:\n  constitutions: lenient\n');
    expect(config).toBeNull();
    expect(errors).toEqual([
      expect.objectContaining({
        key: 'anchor.constitutions',
        line: 2,
        message:
          'expected "install" (a missing role constitution is installed from the packaged defaults) or "strict" (it is refused)',
      }),
    ]);
  });
});
