import { describe, expect, it } from 'vitest';
import { DEFAULT_TEST_GLOBS } from '../../../src/config/defaults.js';
import { testFileMatcher } from '../../../src/tdd/test-files.js';

// Issue 40 item 5: the default test globs match the layouts people use.
describe('default tdd.test_globs', () => {
  const isTest = testFileMatcher(DEFAULT_TEST_GLOBS);
  it.each([
    'packages/angular/src/app.component_spec.ts',
    'packages/vite/src/node/__tests_dts__/plugin.ts',
    'spec/models/user_spec.rb',
    'src/a.spec.ts',
    'src/__tests__/a.ts',
    'pkg/json_test.go',
    'tests/test_conf.py',
    'test_conf.py',
    'conf_test.py',
    'crates/core/tests/it.rs',
  ])('%s is a test file', (file) => expect(isTest(file)).toBe(true));
  it.each(['src/spectrum.ts', 'src/specs.ts', 'src/app.ts'])('%s is not', (file) => expect(isTest(file)).toBe(false));
});
