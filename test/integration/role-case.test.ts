import { describe, expect, it } from 'vitest';
import { validateRole } from '../../src/session/rules/input.js';
import { assertRoleName } from '../../src/anchor/constitution.js';
import { HestaiError } from '../../src/errors.js';
import { makeRepo } from '../helpers/git-repo.js';
import { pathWithoutGh } from '../helpers/session-fixtures.js';

// The seed allows alphanumerics and hyphens in a role; hestai keeps role names lower case, because a role
// names files (its constitution, its terminal lock) and macOS and Windows fold case: "ImplLead" and "impllead"
// would be one file there but two roles. The refusal says so and names the lower-case role (docs/seeds.md).

function refusal(fn: () => unknown): HestaiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof HestaiError) return error;
    throw error;
  }
  throw new Error('expected a HestaiError');
}

describe('a role with upper-case letters', () => {
  it.each([
    ['ImplLead', 'impllead'],
    ['Implementation-Lead', 'implementation-lead'],
  ])('%s is refused with the reason and the lower-case name', (role, lower) => {
    for (const check of [() => validateRole(role), () => assertRoleName(role)]) {
      const error = refusal(check);
      expect(error.code).toBe('ROLE_INVALID');
      expect(error.message).toMatch(/case/);
      expect(error.message).toMatch(/file/);
      expect(error.remedy).toContain(`hestai clock-in --role ${lower}`);
    }
  });

  it('the built CLI prints a command that works', () => {
    const repo = makeRepo();
    const env = { PATH: pathWithoutGh() };
    const refused = repo.hestai(['clock-in', '--role', 'ImplLead'], { env });
    expect(refused.status).toBe(2);
    const printed = /hestai (clock-in --role [a-z0-9-]+)/.exec(refused.stderr);
    expect(printed, refused.stderr).not.toBeNull();
    const run = repo.hestai(printed![1]!.split(' '), { env });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('session');
  });
});
