import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFromText, loadConfig } from '../../src/config/load.js';
import { validateConfigText } from '../../src/config/validate.js';
import { makeRepo } from '../helpers/git-repo.js';

// `tdd.since` is a commit sha, and a sha can be all digits (1234...) or look like a float (1234e5...): written
// plain, YAML reads it as a number. `hestai init` writes it (and the branch name) in double quotes; a plain
// one that YAML reads as a number is refused with the key and the quoted form to write.

const DIGITS = '1234567890123456789012345678901234567890';
const EXPONENT = '1234e56789012345678901234567890123456789';
const LEADING_ZERO = '0123456789012345678901234567890123456789';

const read = (text: string) => ({ full: validateConfigText(text) });

describe('tdd.since is a string', () => {
  it('hestai init writes tdd.since and tdd.default_branch in double quotes, read back as the sha and the branch', async () => {
    const repo = makeRepo();
    const init = repo.hestai(['init', '--no-husky']);
    expect(init.status, init.stderr).toBe(0);
    const head = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    const text = fs.readFileSync(path.join(repo.dir, '.hestai_workspace.yaml'), 'utf8');
    expect(text).toMatch(new RegExp(`^  since: "${head}" `, 'm'));
    expect(text).toMatch(/^ {2}default_branch: "main" /m);
    const { config } = await loadConfig(repo.dir);
    expect(config.tdd.since).toBe(head);
    expect(config.tdd.default_branch).toBe('main');
  });

  it.each([DIGITS, EXPONENT, LEADING_ZERO])('a quoted %s is that sha', (sha) => {
    const { full } = read(`tdd:\n  since: "${sha}"\n`);
    expect(full.errors).toEqual([]);
    expect(full.config?.tdd.since).toBe(sha);
  });

  it.each([DIGITS, EXPONENT, LEADING_ZERO])(
    'a plain %s, which YAML reads as a number, is refused naming tdd.since and the quoted form',
    async (sha) => {
      const text = `tdd:\n  since: ${sha}\n`;
      const { full } = read(text);
      expect(full.config).toBeNull();
      expect(full.errors).toHaveLength(1);
      expect(full.errors[0]).toMatchObject({ key: 'tdd.since', line: 2 });
      expect(full.errors[0]!.message).toContain('YAML reads it as the number');
      expect(full.errors[0]!.message).toContain('write the sha in double quotes: since: "');
      await expect(configFromText(text, 'main:.hestai_workspace.yaml')).rejects.toMatchObject({
        code: 'CONFIG_INVALID',
        details: [
          expect.stringMatching(
            /^main:\.hestai_workspace\.yaml:2: tdd\.since: YAML reads it as the number .*double quotes/,
          ),
        ],
      });
    },
  );
});
