import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify, type ToStringOptions } from 'yaml';
import { configSchema } from '../../src/config/schema.js';
import { yamlValue } from '../../src/config/validate.js';
import { parseYamlSubset } from '../../src/config/yaml-subset.js';
import { arbitrary, validArbitrary } from '../helpers/zod-arbitrary.js';

// The hooks read the workspace file with their own reader of a YAML subset (src/config/yaml-subset.ts) and hand
// anything outside it to `yaml`. Where it answers, it must answer what `yaml` answers (as the workspace files are
// read: yamlValue in src/config/validate.ts); where `yaml` finds an error, it must not answer at all.

/** How many texts the subset answered itself (the properties below must not pass by leaving all to yaml). */
let answered = 0;
function agreesWithYaml(text: string): void {
  const ours = parseYamlSubset(text);
  if (ours === null) return;
  answered++;
  const theirs = yamlValue(text);
  expect(theirs, `yaml refuses what the subset read:\n${text}`).not.toHaveProperty('errors');
  expect(ours.value, text).toStrictEqual((theirs as { value: unknown }).value);
}

/** yaml's own ways of writing a document, as people write them too. */
const styles: fc.Arbitrary<ToStringOptions> = fc.record({
  indent: fc.constantFrom(2, 3, 4),
  indentSeq: fc.boolean(),
  defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_SINGLE', 'QUOTE_DOUBLE'),
  defaultKeyType: fc.constant('PLAIN'), // quoted keys (left to yaml) come in the random lines below
  collectionStyle: fc.constantFrom('any', 'block', 'block', 'block', 'flow'), // a flow document is left to yaml
  flowCollectionPadding: fc.boolean(),
  lineWidth: fc.constantFrom(0, 80),
  nullStr: fc.constantFrom('null', '~', ''),
  trueStr: fc.constantFrom('true', 'True'),
}) as fc.Arbitrary<ToStringOptions>;

/** Comments, blank lines and trailing spaces put between the lines of a document. */
function decorate(text: string, marks: number[]): string {
  const lines = text.split('\n');
  return lines
    .map((line, i) => {
      switch (marks[i % marks.length]) {
        case 1:
          return `${line}  # note`;
        case 2:
          return `# a comment\n${line}`;
        case 3:
          return `\n${line}   `;
        default:
          return line;
      }
    })
    .join('\n');
}

/** Pieces of YAML (and of what is not YAML) that random text is made of. */
const pieces = [
  'a',
  'key',
  'tdd',
  'x_y',
  'True',
  'null',
  '~',
  '1',
  '-1',
  '0o7',
  '0x1F',
  '.5',
  '1e3',
  '.inf',
  '.NaN',
  '+2',
  ':',
  ': ',
  '- ',
  '-',
  '\n',
  '\n',
  '\n  ',
  '  ',
  ' ',
  '#',
  ' #',
  "'",
  "''",
  '"',
  '\\',
  '\\n',
  '\\x41',
  '\\u00e9',
  '[',
  ']',
  ', ',
  ',',
  '{',
  '}',
  '&a ',
  '*a',
  '!',
  '!!str ',
  '|',
  '>',
  '?',
  '%',
  '@',
  '`',
  '---',
  '...',
  '\t',
  '\r',
  '\u00a0',
  '\u2028',
  '\ufeff',
  'é',
  '<<',
  '__proto__',
  'constructor',
  '{ a: ',
  '{ type: x, accepts: [a, b] }',
  'b: ',
];

describe('parseYamlSubset (the hooks read workspace files without the yaml package)', () => {
  it('reads documents yaml wrote, in its styles, with comments and blank lines, as yaml reads them', () => {
    answered = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          { arbitrary: validArbitrary(configSchema), weight: 4 },
          { arbitrary: arbitrary(configSchema), weight: 1 },
        ),
        styles,
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 5 }),
        (doc, options, marks) => {
          const text = stringify(doc, options);
          agreesWithYaml(text);
          agreesWithYaml(decorate(text, marks));
        },
      ),
      { numRuns: 2000 },
    );
    expect(answered).toBeGreaterThan(2000);
  });

  it('reads one-line flow mappings of scalars and sequences (as protocol gates are written) as yaml does', () => {
    const scalar = fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 6 }), fc.integer(), fc.boolean());
    const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }));
    const key = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/);
    answered = 0;
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 4 }), styles, (check, options) => {
        const text = stringify({ gates: [{ id: 'g', check }] }, { ...options, collectionStyle: 'block' });
        agreesWithYaml(
          text.replace(
            /^( *check:)\n[\s\S]*$/m,
            (_, head: string) => `${head} ${stringify(check, { ...options, collectionStyle: 'flow' }).trim()}\n`,
          ),
        );
      }),
      { numRuns: 3000 },
    );
    expect(answered).toBeGreaterThan(500);
  });

  it('reads random text made of YAML pieces as yaml does, or leaves it to yaml', () => {
    answered = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => agreesWithYaml(parts.join(''))),
      { numRuns: 8000 },
    );
    expect(answered).toBeGreaterThan(400);
  });

  it('reads random lines of keys, items and scalars as yaml does, or leaves it to yaml', () => {
    const scalar = fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 6 }));
    const line = fc
      .tuple(
        fc.constantFrom('', '  ', '    ', ' ', '   '),
        fc.constantFrom('', '- ', '- - ', '-  '),
        fc.constantFrom('', 'a: ', 'b: ', 'a:', 'c_d: ', '"q": '),
        fc.array(scalar, { maxLength: 3 }),
      )
      .map(([indent, item, key, value]) => `${indent}${item}${key}${value.join('')}`);
    answered = 0;
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), (lines) => agreesWithYaml(lines.join('\n'))),
      { numRuns: 8000 },
    );
    expect(answered).toBeGreaterThan(800);
  });

  // The subset is worth having only if the files people write are in it: these must not fall back to yaml.
  const written: Array<[string, string]> = [
    ['the seed example', 'github:\n  issue_search: true\ntdd:\n  policy: scoped\n  types: [feat, fix]\n'],
    [
      'sequences of mappings, compact and indented',
      [
        'tdd:',
        '  inline_tests:',
        "  - files: '**/*.rs'",
        "    start: '^\\s*#\\[test\\]'",
        '  test_globs:',
        '    - "**/test/**"',
        "    - '**/*.spec.*'  # and specs",
        'quality_gates:',
        '- name: lint',
        '  command: npm run lint',
        '  timeout_ms: 60000',
        '',
      ].join('\n'),
    ],
    ['an empty file', ''],
    ['comments only', '# nothing configured yet\n\n'],
    [
      'protocol gates with flow mappings',
      [
        'version: 1',
        'phases:',
        '  - id: BINDING',
        '    gates:',
        '      - id: read_context',
        '        step: "Read .hestai/context/PROJECT-CONTEXT.oct.md"',
        '        level: MUST',
        '        check: { type: evidence, accepts: [content_hash], path: .hestai/context/PROJECT-CONTEXT.oct.md }',
        "      - { id: quality, step: 'npm test passes', level: SHOULD }",
        '      - { id: src, step: Source changed, level: SHOULD, check: { type: file_modified_since_start, path: "src/**" } }',
        '',
      ].join('\n'),
    ],
    ['a sha and nulls', 'tdd:\n  since: 0123abcd\n  default_branch: main\nai:\n  model_override: ~\n'],
  ];
  for (const [name, text] of written) {
    it(`reads ${name} itself, as yaml does`, () => {
      expect(parseYamlSubset(text)).not.toBeNull();
      agreesWithYaml(text);
    });
  }

  it('reads the workspace file of this repository and the inline_tests example of docs/enforcement.md, as yaml does', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const docs = fs.readFileSync(path.join(root, 'docs/enforcement.md'), 'utf8');
    const example = /```yaml\n(tdd:\n {2}inline_tests:.*?\n)```/s.exec(docs)?.[1];
    expect(example).toBeDefined();
    for (const text of [fs.readFileSync(path.join(root, '.hestai_workspace.yaml'), 'utf8'), example!]) {
      expect(parseYamlSubset(text), text).not.toBeNull();
      agreesWithYaml(text);
    }
  });

  it('leaves to yaml what it does not read: anchors, tags, block scalars, nested flow sequences, tabs, CR, duplicates', () => {
    for (const text of [
      'a: &x 1\nb: *x\n',
      'a: !!str 1\n',
      'a: |\n  text\n',
      'a: {b: {c: [[1]]}}\n',
      'a: {b: 1,}\n',
      'a: [[1]]\n',
      'a:\n\tb: 1\n',
      'a: 1\r\nb: 2\r\n',
      'a: 1\na: 2\n',
      'a: "multi\n  line"\n',
      'a: plain\n  continued\n',
      '---\na: 1\n',
      'true: 1\n',
    ])
      expect(parseYamlSubset(text), text).toBeNull();
  });
});
