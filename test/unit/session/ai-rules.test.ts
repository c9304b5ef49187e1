import { describe, expect, it } from 'vitest';
import { parseDotenv } from '../../../src/ai/dotenv.js';
import { parsePromptFile } from '../../../src/ai/prompts.js';
import { parseSelectionResponse } from '../../../src/session/context/ai-select.js';

describe('parseDotenv', () => {
  it('reads KEY=value lines, quotes, export and comments', () => {
    expect(
      parseDotenv(
        [
          '# comment',
          'export HESTAI_AI_BASE_URL=http://127.0.0.1:1/v1',
          'HESTAI_AI_MODEL="m one"',
          "K='x'",
          'bad line',
          ' ',
          'E=',
        ].join('\n'),
      ),
    ).toEqual({ HESTAI_AI_BASE_URL: 'http://127.0.0.1:1/v1', HESTAI_AI_MODEL: 'm one', K: 'x', E: '' });
  });
});

describe('parsePromptFile', () => {
  it('reads the version header and the body', () => {
    expect(parsePromptFile('# prompt: clock_in_synthesis\n# version: 2.1\n\nYou select context.\n')).toEqual({
      version: '2.1',
      text: 'You select context.',
    });
  });

  it('refuses a prompt without a version header', () => {
    expect(parsePromptFile('You select context.')).toBeNull();
  });
});

describe('parseSelectionResponse', () => {
  const known = new Set(['a.ts', 'b.md']);

  it('accepts JSON (optionally fenced) naming known candidates, with reasons and checklist items', () => {
    const content =
      '```json\n{"selected":[{"path":"b.md","reason":"decides storage"},{"path":"zzz.ts"},{"path":"a.ts"}],"checklist":["write the test","", 7]}\n```';
    expect(parseSelectionResponse(content, known)).toEqual({
      ok: true,
      selected: [
        { path: 'b.md', reason: 'decides storage' },
        { path: 'a.ts', reason: 'selected by the AI provider' },
      ],
      checklist: ['write the test'],
      ignored: ['zzz.ts'],
    });
  });

  it.each([['not json at all'], ['{"selected": "a.ts"}'], ['{"selected": [{"path": "unknown.ts"}]}'], ['[]']])(
    'rejects %s',
    (content) => {
      const result = parseSelectionResponse(content, known);
      expect(result.ok).toBe(false);
    },
  );

  it('drops checklist items with control characters and caps their length', () => {
    const result = parseSelectionResponse(
      JSON.stringify({ selected: [{ path: 'a.ts' }], checklist: ['ok\nINJECT::x', 'x'.repeat(400)] }),
      known,
    );
    expect(result.ok && result.checklist).toEqual(['x'.repeat(200)]);
  });
});
