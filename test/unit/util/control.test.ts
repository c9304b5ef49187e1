import { describe, expect, it } from 'vitest';
import { parseTopic } from '../../../src/anchor/inputs.js';
import { evidencePathOf } from '../../../src/protocol/evidence.js';
import { normalizeFocus } from '../../../src/session/rules/input.js';
import { resolveWorkspace } from '../../../src/workspace.js';

// One definition of a control character (util/text.ts): C0, DEL, C1 and the Unicode line and paragraph
// separators. Before, paths and topics let C1 and U+2028 through while a focus refused them.
const CONTROLS = ['\u0000', '\u001f', '\u007f', '\u0085', '\u009f', '\u2028', '\u2029'];

describe('control characters are refused the same way everywhere', () => {
  it.each(CONTROLS.map((c) => [`U+${c.codePointAt(0)!.toString(16).padStart(4, '0')}`, c]))(
    '%s in a working directory, a topic, a focus and an evidence path',
    (_label, c) => {
      expect(() => resolveWorkspace(`/tmp/a${c}b`, { requireAbsolute: true })).toThrow(
        expect.objectContaining({ exitCode: 2 }),
      );
      expect(() => parseTopic(`a${c}b`)).toThrow(expect.objectContaining({ exitCode: 2, code: 'TOPIC_INVALID' }));
      expect(() => normalizeFocus(`a${c}b`)).toThrow(expect.objectContaining({ exitCode: 2 }));
      expect(evidencePathOf(`docs/a${c}b.md`)).toBeNull();
    },
  );

  it('accepts ordinary text, including non-ASCII letters', () => {
    expect(parseTopic('clock-in für Ärzte')).toBe('clock-in für Ärzte');
    expect(normalizeFocus('résumé parser')).toBe('résumé parser');
    expect(evidencePathOf('docs/naïve.md')).toBe('docs/naïve.md');
  });
});
