import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isProtocol } from '../../../src/protocol/shape.js';
import { validateProtocolText } from '../../../src/protocol/validate.js';

// The protocol cache's read check: what the zod schema produces passes; anything else is a cache miss.

const templates = ['templates/protocol/default.yaml', 'templates/protocol/seed-004.yaml'];

describe('isProtocol (the protocol cache check, no zod)', () => {
  it.each(templates)('accepts what the schema produces from %s', (file) => {
    const { protocol } = validateProtocolText(fs.readFileSync(file, 'utf8'));
    expect(protocol).not.toBeNull();
    expect(isProtocol(JSON.parse(JSON.stringify(protocol)))).toBe(true);
  });

  it('refuses every shape the schema would not produce', () => {
    const { protocol } = validateProtocolText(fs.readFileSync(templates[0]!, 'utf8'));
    const mutate = (f: (p: any) => void) => {
      const copy = JSON.parse(JSON.stringify(protocol));
      f(copy);
      return copy;
    };
    for (const bad of [
      null,
      [],
      mutate((p) => (p.version = 2)),
      mutate((p) => (p.phases = [])),
      mutate((p) => (p.extra = true)),
      mutate((p) => (p.phases[0].stage = 'later')),
      mutate((p) => (p.phases[0].id = 'COMPLETE')),
      mutate((p) => p.phases.push(p.phases[0])),
      mutate((p) => delete p.phases[0].gates[0].blocking),
      mutate((p) => (p.phases[0].gates[0].level = 'MAYBE')),
      mutate((p) => (p.phases[0].gates[0].check = { type: 'always_pass' })),
      mutate((p) => (p.phases[0].gates[0].check.extra = 1)),
      mutate((p) => (p.phases[0].gates[1].check.path = '../outside')),
      mutate((p) => delete p.phases[0].gates[1].check.path),
      mutate((p) => (p.phases[2].gates[4].pre_commit = true)),
      mutate((p) => p.phases[0].gates.push(p.phases[0].gates[0])),
      mutate((p) => (p.phases[2].gates[1].check.timeout_ms = -1)),
    ]) {
      expect(isProtocol(bad), JSON.stringify(bad)?.slice(0, 200)).toBe(false);
    }
  });
});
