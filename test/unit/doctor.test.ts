import { describe, expect, it } from 'vitest';
import { gitVersionSupported, nodeVersionSupported } from '../../src/setup/doctor.js';

describe('nodeVersionSupported', () => {
  it('accepts 20.19 and newer, refuses older', () => {
    expect(nodeVersionSupported('20.19.0')).toBe(true);
    expect(nodeVersionSupported('22.1.0')).toBe(true);
    expect(nodeVersionSupported('24.0.0')).toBe(true);
    expect(nodeVersionSupported('20.18.3')).toBe(false);
    expect(nodeVersionSupported('18.20.0')).toBe(false);
  });
});

describe('gitVersionSupported', () => {
  // verify asks one `git cat-file --batch-command` and reads merges with `--diff-merges=remerge`: both git 2.36.
  it('accepts git 2.36 and newer (any build suffix), refuses older and what it cannot read', () => {
    expect(gitVersionSupported('git version 2.36.0')).toBe(true);
    expect(gitVersionSupported('git version 2.39.5')).toBe(true);
    expect(gitVersionSupported('git version 2.43.0.windows.1')).toBe(true);
    expect(gitVersionSupported('git version 2.39.3 (Apple Git-146)')).toBe(true);
    expect(gitVersionSupported('git version 3.0.0')).toBe(true);
    expect(gitVersionSupported('git version 2.35.8')).toBe(false);
    expect(gitVersionSupported('git version 2.34.1')).toBe(false);
    expect(gitVersionSupported('git version 1.99.0')).toBe(false);
    expect(gitVersionSupported('not git')).toBe(false);
  });
});
