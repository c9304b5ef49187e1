import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { makeRepo, tempDir, templateRepo, type RunResult, type TempRepo } from './git-repo.js';

// A repository adopted with `hestai init --no-husky` (all three hooks), a bare remote `origin`, and the
// real ceremony (clock-in, the three anchor stages) through the built CLI: what a team's machine does.

export interface AnchoredRepo extends TempRepo {
  remote: string;
  /** A real `git commit` through the installed hooks. */
  commitHooked(message: string, files?: Record<string, string>, env?: NodeJS.ProcessEnv): RunResult;
  /** Clock-in and the three anchor stages; returns the session id. `cite` are CTX paths (committed files). */
  anchor(cite?: string[], cwd?: string): string;
  /** Clock-in, identity and context; then the proof stage citing `cite`, whose result is returned unjudged. */
  tryProof(cite: string[], cwd?: string): { token: string; proof: RunResult };
  /** A fresh clone of the remote on `branch`, as CI makes it. */
  freshClone(branch: string, extra?: string[]): string;
  /** `hestai verify --format json` in `cwd`. */
  verifyJson(cwd: string, args?: string[]): { status: number; report: VerifyReport; stderr: string };
}

export interface VerifyReport {
  ok: boolean;
  commits: { sha: string; header: string; verdicts: { rule: string; status: string; message: string }[] }[];
  errors: number;
  warnings: number;
}

export function verdictOf(report: VerifyReport, header: string, rule: string) {
  return report.commits.find((c) => c.header === header)?.verdicts.find((v) => v.rule === rule);
}

export function anchoredRepo(config = ''): AnchoredRepo {
  // The adopted repository (no remote yet, no absolute path of its own): made once per file and config.
  const repo = templateRepo(`anchored-repo:${config}`, () => {
    const adopted = makeRepo();
    expect(adopted.hestai(['init', '--no-husky']).status).toBe(0);
    adopted.write(
      '.hestai_workspace.yaml',
      `${fs.readFileSync(path.join(adopted.dir, '.hestai_workspace.yaml'), 'utf8')}github:\n  issue_search: false\n  pr_context: false\n${config}`,
    );
    adopted.git(['add', '-A']);
    adopted.git(['commit', '-q', '--no-verify', '-m', 'chore: adopt hestai']);
    return adopted;
  });
  const remote = path.join(tempDir('hestai-remote-'), 'origin.git');
  repo.git(['init', '-q', '--bare', remote]);
  repo.git(['remote', 'add', 'origin', remote]);
  repo.git(['push', '-q', 'origin', 'main']);
  const self: AnchoredRepo = {
    ...repo,
    remote,
    commitHooked(message, files = {}, env = {}) {
      for (const [file, content] of Object.entries(files)) repo.write(file, content);
      repo.git(['add', '-A']);
      return repo.git(['commit', '-q', '--allow-empty', '-m', message], { allowFail: true, env });
    },
    anchor(cite = ['README.md:1-1', '.hestai_workspace.yaml'], cwd = repo.dir) {
      const { token, proof } = self.tryProof(cite, cwd);
      expect(proof.status, `proof: ${proof.stdout}${proof.stderr}`).toBe(0);
      return token;
    },
    tryProof(cite, cwd = repo.dir) {
      const clockIn = repo.hestai(['--json', 'clock-in', '--role', 'implementation-lead', '--focus', 'anchored work'], {
        cwd,
      });
      expect(clockIn.status, clockIn.stderr).toBe(0);
      const token = (JSON.parse(clockIn.stdout) as { session_id: string }).session_id;
      const dir = tempDir('hestai-payload-');
      const bind = path.join(dir, 'bind.oct');
      const proof = path.join(dir, 'proof.oct');
      fs.writeFileSync(
        bind,
        [
          '## BIND (Identity Lock)',
          'ROLE::implementation-lead',
          'COGNITION::LOGOS::HEPHAESTUS+ATHENA',
          'AUTHORITY::RESPONSIBLE[anchored work]',
          '',
        ].join('\n'),
      );
      fs.writeFileSync(
        proof,
        [
          '## TENSION (Cognitive Proof - AGENT GENERATED)',
          ...cite.map(
            (c, i) => `L${i + 1}::[CITED_${i + 1}_STAYS_TRUE]<->CTX:${c}[what it says today]->TRIGGER[keep it true]`,
          ),
          '## COMMIT (Falsifiable Contract)',
          'ARTIFACT::docs/',
          'GATE::npm test',
          '',
        ].join('\n'),
      );
      for (const args of [
        ['--stage', 'identity', '--role', 'implementation-lead', '--token', token],
        ['--stage', 'context', '--token', token, '--payload-file', bind],
      ]) {
        const step = repo.hestai(['--json', 'anchor', ...args], { cwd });
        expect(step.status, `${args[1]}: ${step.stdout}${step.stderr}`).toBe(0);
      }
      return {
        token,
        proof: repo.hestai(['--json', 'anchor', '--stage', 'proof', '--token', token, '--payload-file', proof], {
          cwd,
        }),
      };
    },
    freshClone(branch, extra = []) {
      const clone = path.join(tempDir('hestai-ci-'), 'clone');
      repo.git(['clone', '-q', ...extra, '--branch', branch, `file://${remote}`, clone]);
      return clone;
    },
    verifyJson(cwd, args = []) {
      const result = repo.hestai(['verify', '--format', 'json', ...args], { cwd });
      return {
        status: result.status,
        stderr: result.stderr,
        report: (result.stdout ? JSON.parse(result.stdout) : null) as VerifyReport,
      };
    },
  };
  return self;
}

/**
 * A RAPH v4.0 canonical anchor as a forger writes it into a record (BIND and ARM fixed, on branch feat/x): the two
 * TENSION lines (`L1::...`, `L2::...`) and the COMMIT section's ARTIFACT and GATE are the test's.
 */
export const forgedCanonical = (tension: readonly [string, string], artifact: string, gate = 'npm test'): string =>
  [
    '===RAPH_VECTOR::v4.0===',
    '## BIND (Identity Lock)',
    'ROLE::implementation-lead',
    'COGNITION::LOGOS::HEPHAESTUS⊕ATHENA',
    'AUTHORITY::RESPONSIBLE[forged]',
    '## ARM (Context Proof - SERVER INJECTED)',
    'PHASE::B1',
    'BRANCH::feat/x[0↑0↓]',
    'FILES::0[]',
    'FOCUS::forged',
    'CONTEXT_HASH::sha256:0000000000000000',
    '## TENSION (Cognitive Proof - AGENT GENERATED)',
    ...tension,
    '## COMMIT (Falsifiable Contract)',
    `ARTIFACT::${artifact}`,
    `GATE::${gate}`,
    '===END_RAPH_VECTOR===',
  ].join('\n');

/**
 * Writes a proof record for `canonical` into hestai/anchors by hand, as an attacker would (no hook, no
 * validation), and returns its digest.
 */
export function forgeRecord(repo: AnchoredRepo, token: string, head: string, canonical: string): string {
  const record = {
    acknowledgments: [],
    // Anchored a minute before the commits that cite it: inside its validity window (anchor.valid_hours).
    anchored_at: new Date(Date.now() - 60_000).toISOString(),
    canonical_anchor: canonical,
    context_generated_at: new Date().toISOString(),
    head,
    kind: 'hestai.anchor-proof',
    mode: 'full',
    resets: [],
    role: 'implementation-lead',
    session_id: token,
    source: 'anchor',
    tier: 'default',
    version: 1,
  };
  const bytes = JSON.stringify(record);
  const digest = createHash('sha256').update(bytes).digest('hex');
  const blob = repo.git(['hash-object', '-w', '--stdin'], { input: bytes }).stdout.trim();
  const tip = repo.git(['rev-parse', 'refs/heads/hestai/anchors']).stdout.trim();
  const env = { GIT_INDEX_FILE: `${repo.dir}/.git/forge-index` };
  repo.git(['read-tree', tip], { env });
  repo.git(['update-index', '--add', '--cacheinfo', `100644,${blob},records/${digest}.json`], { env });
  const tree = repo.git(['write-tree'], { env }).stdout.trim();
  const forgedTip = repo.git(['commit-tree', tree, '-p', tip, '-m', 'forged record']).stdout.trim();
  repo.git(['update-ref', 'refs/heads/hestai/anchors', forgedTip]);
  return digest;
}
