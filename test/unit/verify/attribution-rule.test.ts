import { describe, expect, it } from 'vitest';
import {
  attributionOf,
  attributionTrailers,
  clientIdentity,
  namesAgent,
  payloadModel,
} from '../../../src/records/attribution.js';
import { commitFacts } from '../../../src/tdd/commit.js';
import { checkAttribution } from '../../../src/verify/trailer-rules.js';

// commit.attribution (issue 42): the pure rule verify applies from the agent an anchor's proof record names.

const facts = (message: string) => commitFacts({ sha: 'a', message, files: [], parents: ['p'] }, () => false);
const agent = { runtime: 'claude-code', model: 'claude-opus-4-1' };

describe('checkAttribution', () => {
  it('judges only sessions an agent runtime made, and nothing under off', () => {
    expect(checkAttribution(facts('docs: x'), undefined, 'required')).toBeNull();
    expect(checkAttribution(facts('docs: x'), agent, 'off')).toBeNull();
  });

  it('a missing Assisted-by fails under required and warns under warn, naming the runtime and model', () => {
    const required = checkAttribution(facts('docs: x'), agent, 'required');
    expect(required).toMatchObject({ rule: 'attribution', status: 'fail' });
    expect(required?.message).toContain('claude-code:claude-opus-4-1');
    expect(checkAttribution(facts('docs: x'), agent, 'warn')?.status).toBe('warn');
  });

  it('a Signed-off-by names the kernel rule, also when Assisted-by is missing', () => {
    const signed = 'docs: x\n\nSigned-off-by: A <a@example.com>';
    expect(checkAttribution(facts(`${signed}\nAssisted-by: claude-code`), agent, 'required')).toMatchObject({
      status: 'warn',
    });
    const both = checkAttribution(facts(signed), agent, 'required');
    expect(both?.status).toBe('fail');
    expect(both?.message).toContain('must not add Signed-off-by');
  });

  it('passes a commit whose Assisted-by names the recorded runtime (and model, or none, or tools after it)', () => {
    for (const value of ['claude-code:claude-opus-4-1', 'claude-code', 'claude-code:claude-opus-4-1 [coccinelle]'])
      expect(checkAttribution(facts(`docs: x\n\nAssisted-by: ${value}`), agent, 'required')?.status).toBe('pass');
    const two = 'docs: x\n\nAssisted-by: codex:gpt-5\nAssisted-by: claude-code:claude-opus-4-1';
    expect(checkAttribution(facts(two), agent, 'required')?.status).toBe('pass');
  });

  it('an Assisted-by naming another runtime or model than the anchor record fails under required, warns under warn', () => {
    for (const value of ['codex:gpt-5', 'claude-code:claude-haiku-4', 'codex', 'claude-codex:claude-opus-4-1']) {
      const required = checkAttribution(facts(`docs: x\n\nAssisted-by: ${value}`), agent, 'required');
      expect(required, value).toMatchObject({ rule: 'attribution', status: 'fail' });
      expect(required?.message).toContain(`Assisted-by: ${value}`);
      expect(required?.message).toContain('claude-code:claude-opus-4-1');
      expect(checkAttribution(facts(`docs: x\n\nAssisted-by: ${value}`), agent, 'warn')?.status).toBe('warn');
    }
  });
});

describe('the trailer the hooks add', () => {
  it('is runtime:model, the runtime alone without a model, and none for a person or under off', () => {
    expect(attributionTrailers(agent, 'warn')).toEqual([
      { key: 'Assisted-by', value: 'claude-code:claude-opus-4-1', add: true },
    ]);
    expect(attributionTrailers({ runtime: 'codex', model: null }, 'required')).toEqual([
      { key: 'Assisted-by', value: 'codex', add: true },
    ]);
    expect(attributionTrailers(undefined, 'required')).toEqual([]);
    expect(attributionTrailers(agent, 'off')).toEqual([]);
  });

  it('takes a payload model only when it is one safe word (no forged trailers)', () => {
    expect(payloadModel('gpt-5.1-codex')).toBe('gpt-5.1-codex');
    expect(payloadModel({ id: 'claude-sonnet-4-5', display_name: 'Sonnet' })).toBe('claude-sonnet-4-5');
    expect(payloadModel('opus\nSigned-off-by: X <x@y>')).toBeNull();
    expect(payloadModel('two words')).toBeNull();
    expect(payloadModel(42)).toBeNull();
    expect(attributionTrailers({ runtime: 'evil\nSigned-off-by: x', model: null }, 'warn')).toEqual([]);
  });

  it('names an MCP client whose name holds a colon so that its own trailer names it (a runtime holds no colon)', () => {
    const client = clientIdentity('my:client');
    expect(client).toEqual({ runtime: 'my-client', model: null });
    expect(namesAgent(attributionOf(client!), client!)).toBe(true);
    expect(clientIdentity('opencode')).toEqual({ runtime: 'opencode', model: null });
    expect(clientIdentity('x\nSigned-off-by: s')).toBeNull();
    // a recorded runtime with a colon could not be told from runtime:model: no trailer, not an agent's session
    expect(attributionTrailers({ runtime: 'my:client', model: null }, 'required')).toEqual([]);
  });
});
