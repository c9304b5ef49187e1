import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir, type TempRepo } from '../helpers/git-repo.js';

// Issue 41 item 5: a mistake gets a remedy that works; each remedy printed here is run as printed.

function adopted(): TempRepo {
  const repo = makeRepo();
  expect(repo.hestai(['init', '--no-husky']).status).toBe(0);
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
  return repo;
}

const sessions = (repo: TempRepo) => fs.readdirSync(path.join(repo.dir, '.hestai/sessions/active'));

/** Runs the `hestai ...` command a hint printed (split on spaces, as a shell would split it). */
function runPrinted(repo: TempRepo, output: string, pattern: RegExp, env: NodeJS.ProcessEnv = {}) {
  const printed = pattern.exec(output);
  expect(printed, output).not.toBeNull();
  return repo.hestai(printed![1]!.split(' '), { env });
}

describe('mistakes get remedies that run as printed', () => {
  it('an unknown role is an error that lists the roles and creates nothing; the printed clock-in runs', () => {
    const repo = adopted();
    const wrong = repo.hestai(['clock-in', '--role', 'developer', '--focus', 'greet']);
    const output = `${wrong.stdout}${wrong.stderr}`;
    expect(wrong.status, output).toBe(2);
    expect(output).toContain('code-review-specialist, holistic-orchestrator, implementation-lead');
    expect(sessions(repo)).toEqual([]);
    const fixed = runPrinted(repo, output, /hint: .*?"hestai (clock-in --role implementation-lead --focus greet)"/);
    expect(fixed.status, fixed.stderr).toBe(0);
    expect(sessions(repo)).toHaveLength(1);
  });

  it('an expired handshake: the printed identity command renews it, and the context stage then passes', () => {
    const repo = adopted();
    const clockIn = repo.hestai(['--json', 'clock-in', '--role', 'implementation-lead', '--focus', 'greet']);
    const token = (JSON.parse(clockIn.stdout) as { session_id: string }).session_id;
    expect(
      repo.hestai(['anchor', '--stage', 'identity', '--role', 'implementation-lead', '--token', token]).status,
    ).toBe(0);
    const bind = path.join(tempDir('hestai-payload-'), 'bind.oct');
    fs.writeFileSync(
      bind,
      '## BIND (Identity Lock)\nROLE::implementation-lead\nCOGNITION::LOGOS::HEPHAESTUS+ATHENA\nAUTHORITY::RESPONSIBLE[greet]\n',
    );
    const later = { HESTAI_NOW: new Date(Date.now() + 3 * 3_600_000).toISOString() };
    const expired = repo.hestai(['anchor', '--stage', 'context', '--token', token, '--payload-file', bind], {
      env: later,
    });
    const output = `${expired.stdout}${expired.stderr}`;
    expect(expired.status, output).not.toBe(0);
    expect(output).toContain('expired');
    const renewed = runPrinted(repo, output, /"hestai (anchor --stage identity --token [0-9a-f-]{36})"/, later);
    expect(renewed.status, `${renewed.stdout}${renewed.stderr}`).toBe(0);
    const context = repo.hestai(['anchor', '--stage', 'context', '--token', token, '--payload-file', bind], {
      env: later,
    });
    expect(context.status, `${context.stdout}${context.stderr}`).toBe(0);
  });
});
