import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/git-repo.js';
import { protocolRepo } from '../helpers/protocol-repo.js';
import { validateProtocolText } from '../../src/protocol/validate.js';

// Seed 004, QA_VALIDATION: "Check `.agents/qa/` for report matching session". A report changed since the run
// started is not enough: `names_session: true` wants one that names the run's session id.

const PROTOCOL = [
  'version: 1',
  'phases:',
  '  - id: QA_VALIDATION',
  '    stage: end',
  '    gates:',
  '      - id: qa_report',
  '        step: "Route to the qa agent: a QA report in .agents/qa/ naming the session"',
  '        level: MUST',
  '        check: { type: file_modified_since_start, path: ".agents/qa/**", names_session: true }',
  '',
].join('\n');

describe('QA_VALIDATION: a report that names the session (seed 004)', () => {
  it('fails on a new report without the session id, passes once a report names it', () => {
    const { repo, run, token } = protocolRepo({ protocol: PROTOCOL, objective: 'qa' });
    const gate = () =>
      JSON.parse(run(['session', 'gate', 'QA_VALIDATION', '--json']).stdout) as Record<string, unknown>;
    repo.write('.agents/qa/report.md', '# QA report\n\nall good\n');
    const anonymous = gate();
    expect(anonymous).toMatchObject({ status: 'FAIL' });
    expect(String(anonymous['message'])).toContain(token);
    repo.write('.agents/qa/report-2.md', `# QA report for session ${token}\n\nall good\n`);
    expect(gate()).toMatchObject({ status: 'PASS', evidence: '.agents/qa/report-2.md' });
  });

  it("the seed-004 template's QA gate asks for it", () => {
    const text = fs.readFileSync(path.join(PROJECT_ROOT, 'templates/protocol/seed-004.yaml'), 'utf8');
    const { protocol, errors } = validateProtocolText(text);
    expect(errors).toEqual([]);
    const qa = protocol!.phases.find((p) => p.id === 'QA_VALIDATION')!.gates[0]!;
    expect(qa.check).toEqual({ type: 'file_modified_since_start', path: '.agents/qa/**', names_session: true });
  });
});
