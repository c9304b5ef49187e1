import { describe, expect, it } from 'vitest';
import { nodeVersionSupported } from '../../src/setup/doctor.js';

describe('nodeVersionSupported', () => {
  it('accepts 20.19 and newer, refuses older', () => {
    expect(nodeVersionSupported('20.19.0')).toBe(true);
    expect(nodeVersionSupported('22.1.0')).toBe(true);
    expect(nodeVersionSupported('24.0.0')).toBe(true);
    expect(nodeVersionSupported('20.18.3')).toBe(false);
    expect(nodeVersionSupported('18.20.0')).toBe(false);
  });
});
