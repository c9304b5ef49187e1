import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveAiSettings } from '../../src/ai/config.js';
import { loadConfig } from '../../src/config/load.js';
import { clockIn } from '../../src/session/clock-in.js';
import { makeRepo, type TempRepo } from '../helpers/git-repo.js';
import { chatServer, fixedClock, pathWithoutGh } from '../helpers/session-fixtures.js';

// docs/sessions.md, "The AI provider": each setting is taken from the first source that defines it. A
// workspace file that does not name a key does not define it: the schema's defaults must not shadow
// ~/.hestai/config/ai.yaml (issue 44: timeout_ms 1500 there, and clock-in waited 10,000 ms).

function homeAi(repo: TempRepo, yaml: string): void {
  fs.mkdirSync(path.join(repo.home, '.hestai/config'), { recursive: true });
  fs.writeFileSync(path.join(repo.home, '.hestai/config/ai.yaml'), yaml);
}

async function settings(repo: TempRepo, env: NodeJS.ProcessEnv = {}) {
  const { config } = await loadConfig(repo.dir);
  return resolveAiSettings({ root: repo.dir, env: { HOME: repo.home, ...env }, workspaceAi: config.ai });
}

describe('AI settings: the first source that defines a key', () => {
  it('a provider on 127.0.0.1 that never answers is abandoned after the timeout_ms of ai.yaml', async () => {
    const repo = makeRepo();
    const server = await chatServer(() => 'hang');
    homeAi(repo, `base_url: ${server.url}\nmodel: home-model\ntimeout_ms: 300\n`);
    const res = await clockIn(
      { working_dir: repo.dir, role: 'tester', focus: 'login' },
      { clock: fixedClock('2026-01-10T12:00:00.000Z'), env: { ...repo.env, PATH: pathWithoutGh() } },
    );
    expect(server.requests.length).toBeGreaterThan(0);
    expect(res.selection).toMatchObject({
      method: 'deterministic',
      reason: expect.stringContaining('timed out after 300 ms'),
    });
  });

  it.each([
    ['ai.yaml alone', {}, '', 1500, 'home-model'],
    ['a workspace file without ai keys', {}, 'freshness:\n  max_age_hours: 24\n', 1500, 'home-model'],
    ['a workspace file with an empty ai section', {}, 'ai: {}\n', 1500, 'home-model'],
    ['the workspace file over ai.yaml', {}, 'ai:\n  timeout_ms: 2500\n  model_override: ws-model\n', 2500, 'ws-model'],
    [
      'the environment over both',
      { HESTAI_AI_TIMEOUT_MS: '700', HESTAI_AI_MODEL: 'env-model' },
      'ai:\n  timeout_ms: 2500\n',
      700,
      'env-model',
    ],
  ])('%s', async (_name, env, workspace, timeout, model) => {
    const repo = makeRepo();
    homeAi(repo, 'base_url: http://127.0.0.1:9/v1\nmodel: home-model\ntimeout_ms: 1500\n');
    if (workspace !== '') repo.write('.hestai_workspace.yaml', workspace);
    expect(await settings(repo, env)).toMatchObject({ timeout_ms: timeout, model });
  });

  it('with no source naming it, the timeout is 10,000 ms', async () => {
    const repo = makeRepo();
    homeAi(repo, 'base_url: http://127.0.0.1:9/v1\n');
    expect(await settings(repo)).toMatchObject({ timeout_ms: 10_000 });
  });
});
