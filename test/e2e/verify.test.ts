import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { makeSession } from '../helpers/session-fixture.js';

describe('hestai verify catches what the hooks did not see', () => {
  it('a --no-verify feat without a test fails verify; a bypass is listed', () => {
    const repo = makeRepo();
    expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
    makeSession(repo.dir);
    repo.git(['checkout', '-q', '-b', 'feat/x']);
    fs.mkdirSync(`${repo.dir}/src`);
    fs.writeFileSync(`${repo.dir}/src/a.ts`, 'x');
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '-m', 'docs: hooked'], { allowFail: false });
    fs.writeFileSync(`${repo.dir}/src/b.ts`, 'x');
    repo.git(['add', '-A']);
    // Past every hook: --no-verify alone still runs prepare-commit-msg, which adds the session's trailers.
    repo.git(['-c', 'core.hooksPath=/dev/null', 'commit', '-q', '--no-verify', '-m', 'feat: sneaked past the hooks']);
    fs.writeFileSync(`${repo.dir}/src/c.ts`, 'x');
    repo.git(['add', '-A']);
    repo.git(['commit', '-q', '-m', 'chore: urgent'], { env: { HESTAI_BYPASS: 'release blocker' } });
    const result = repo.hestai(['verify', '--from', 'main', '--format', 'json']);
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout) as {
      commits: { header: string; verdicts: { rule: string; status: string; message: string }[] }[];
    };
    const byHeader = (h: string) => report.commits.find((c) => c.header === h)!.verdicts;
    expect(byHeader('feat: sneaked past the hooks').find((v) => v.rule === 'test-first')?.status).toBe('fail');
    // A commit made past the hooks carries no trailers: an error by default (verify.trailers: error).
    expect(byHeader('feat: sneaked past the hooks').find((v) => v.rule === 'trailers')?.status).toBe('fail');
    expect(byHeader('docs: hooked').find((v) => v.rule === 'trailers')?.status).toBe('pass');
    expect(byHeader('chore: urgent').find((v) => v.rule === 'bypass')?.message).toContain('release blocker');
  });
});
