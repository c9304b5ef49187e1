// Docs that stay true (issue 27 item 9): the reference pages name exactly the commands, flags and config keys
// the code has, with the code's defaults, and every shell line a reader copies runs in a local install.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildProgram } from '../../src/cli/main.js';
import { DEFAULT_TEST_GLOBS } from '../../src/config/defaults.js';
import { configSchema } from '../../src/config/schema.js';
import { POLICY_SECTIONS } from '../../src/verify/policy.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const DOCS = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  'bench/README.md',
  'test/security/README.md',
];

const program = buildProgram();
const commands = new Map(program.commands.filter((c) => c.name() !== 'help').map((c) => [c.name(), c]));

/** The long flags of a command, its subcommands and the program (global flags), without --help. */
function flagsOf(command: Command, withSubcommands: boolean): Set<string> {
  const flags = new Set<string>();
  const add = (c: Command) => {
    for (const option of c.options) if (option.long && option.long !== '--help') flags.add(option.long);
  };
  add(command);
  if (withSubcommands) for (const sub of command.commands) add(sub);
  return flags;
}
const globalFlags = flagsOf(program, false);

/** The table rows of a markdown page whose first cell is a code span, by that span's text. */
function tableRows(text: string): { first: string; row: string }[] {
  return [...text.matchAll(/^\| `([^`]+)` \|.*$/gm)].map((m) => ({ first: m[1]!, row: m[0] }));
}

/** Every `--flag` in a text (inside `[...]`, `|` alternatives and prose alike). */
const flagsIn = (text: string) => new Set([...text.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]));

describe('docs/cli.md names exactly the CLI', () => {
  const rows = tableRows(read('docs/cli.md')).filter((r) => r.first.startsWith('hestai '));
  const byCommand = new Map<string, string[]>();
  for (const { first, row } of rows) {
    const name = first.split(' ')[1]!;
    byCommand.set(name, [...(byCommand.get(name) ?? []), row]);
  }

  it('has a row for every command and no row for a command the CLI lacks', () => {
    expect([...byCommand.keys()].sort()).toEqual([...commands.keys()].sort());
  });

  it.each([...commands.keys()])(
    'hestai %s: every option of the command is in its rows, every flag there exists',
    (name) => {
      const text = (byCommand.get(name) ?? []).join('\n');
      const command = commands.get(name)!;
      const known = new Set([...flagsOf(command, true), ...globalFlags]);
      expect([...flagsOf(command, false)].filter((flag) => !flagsIn(text).has(flag))).toEqual([]);
      expect([...flagsIn(text)].filter((flag) => !known.has(flag))).toEqual([]);
    },
  );

  it('lists the global flags the program has', () => {
    const table = read('docs/cli.md').split('| global flag |')[1]!.split('\n\n')[0]!;
    expect([...flagsIn(table)].sort()).toEqual([...globalFlags, '--help'].sort());
  });
});

/** Leaf key paths of the workspace config: an object's keys recurse, anything else (arrays too) is a leaf. */
function configKeys(): string[] {
  const keys: string[] = [];
  const walk = (node: { properties?: Record<string, object> }, prefix: string) => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const schema = child as { type?: string; properties?: Record<string, object> };
      if (schema.type === 'object' && schema.properties) walk(schema, `${prefix}${key}.`);
      else keys.push(`${prefix}${key}`);
    }
  };
  walk(z.toJSONSchema(configSchema, { io: 'input' }) as { properties?: Record<string, object> }, '');
  return keys;
}

/** A default as docs/configuration.md writes it: `unset`, a scalar, or a flow list of plain scalars. */
function written(value: unknown): string {
  if (value === undefined) return 'unset';
  if (Array.isArray(value)) return `[${value.map((v) => written(v)).join(', ')}]`;
  return String(value);
}

describe('docs/configuration.md names exactly the config schema', () => {
  const rows = tableRows(read('docs/configuration.md'));
  const defaults = configSchema.parse({}) as Record<string, Record<string, unknown> | unknown[]>;
  const defaultOf = (key: string): unknown => {
    const [head, tail] = key.split('.') as [string, string | undefined];
    const top = defaults[head];
    return tail === undefined ? top : (top as Record<string, unknown>)[tail];
  };

  it('has a row for every key of the schema and no row for a key the schema lacks', () => {
    expect(rows.map((r) => r.first).sort()).toEqual(configKeys().sort());
  });

  it('names every value an enumerated key takes', () => {
    const missing: string[] = [];
    const walk = (node: { properties?: Record<string, object> }, prefix: string) => {
      for (const [key, child] of Object.entries(node.properties ?? {})) {
        const schema = child as { enum?: string[]; properties?: Record<string, object> };
        if (schema.properties) walk(schema, `${prefix}${key}.`);
        const row = rows.find((r) => r.first === `${prefix}${key}`)?.row ?? '';
        for (const value of schema.enum ?? [])
          if (!row.includes(`\`${value}\``)) missing.push(`${prefix}${key}: ${value}`);
      }
    };
    walk(z.toJSONSchema(configSchema, { io: 'input' }) as { properties?: Record<string, object> }, '');
    expect(missing).toEqual([]);
  });

  it.each(rows.map((r) => [r.first, r.row] as const))(
    '%s: a default written as code is the schema default',
    (key, row) => {
      const cell = row.split(' | ')[1]!.trim();
      const code = /^`([^`]*)`$/.exec(cell);
      // A default in words must point, by a link, to the section that owns it; anything else is compared.
      if (code === null)
        return expect(cell, `${key}: a default in words links to where it is set`).toMatch(/\]\([^)]+\)/);
      expect(code[1]).toBe(written(defaultOf(key)));
    },
  );
  it('a default another page repeats ("`key` (default X)") is the schema default', () => {
    const wrong: string[] = [];
    for (const file of DOCS) {
      for (const m of read(file).matchAll(/`([a-z_]+\.[a-z_]+)`,? \(default:? `?([^)`]*)`?\)/g)) {
        const value = defaultOf(m[1]!);
        const accepted = [written(value), ...(Array.isArray(value) ? [value.join(', ')] : [])];
        if (!accepted.includes(m[2]!)) wrong.push(`${file}: ${m[0]} (the schema: ${written(value)})`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('docs/configuration.md lists the default test globs', () => {
  it('its tdd.test_globs row holds exactly DEFAULT_TEST_GLOBS', () => {
    const row = tableRows(read('docs/configuration.md')).find((r) => r.first === 'tdd.test_globs')!.row;
    const globs = new Set([...row.matchAll(/(\*\*\/[^,\]`]*)/g)].map((m) => m[1]));
    expect([...globs].sort()).toEqual([...DEFAULT_TEST_GLOBS].sort());
  });
});

/** Shell lines of the docs' sh/bash code blocks that start hestai, with their file and line. */
function shellLines(): { where: string; line: string }[] {
  const found: { where: string; line: string }[] = [];
  for (const file of DOCS) {
    let inShell = false;
    let inBlock = false;
    read(file)
      .split('\n')
      .forEach((line, i) => {
        if (line.startsWith('```')) {
          inShell = !inBlock && /^```(sh|bash|shell)\s*$/.test(line);
          inBlock = !inBlock;
          return;
        }
        if (inShell && /(^|[\s;&|($"])hestai [a-z]/.test(line)) found.push({ where: `${file}:${i + 1}`, line });
      });
  }
  return found;
}

/** Usage lines (`hestai <command> [flags]`) of the docs' plain code blocks, with their file and line. */
function synopsisLines(): { where: string; line: string }[] {
  const found: { where: string; line: string }[] = [];
  for (const file of DOCS) {
    let plain = false;
    let inBlock = false;
    read(file)
      .split('\n')
      .forEach((line, i) => {
        if (line.startsWith('```')) {
          plain = !inBlock && line.trim() === '```';
          inBlock = !inBlock;
          return;
        }
        if (plain && /^hestai [a-z]/.test(line)) found.push({ where: `${file}:${i + 1}`, line });
      });
  }
  return found;
}

describe('every hestai command the docs give to run works in a local install', () => {
  it.each(shellLines().map((s) => [s.where, s.line] as const))('%s runs npx hestai with real flags', (_where, line) => {
    const runs = [...line.matchAll(/(?:^|[\s;&|($"])(npx )?hestai ([a-z][a-z-]*)([^#|;&)]*)/g)];
    expect(runs.length).toBeGreaterThan(0);
    for (const [, npx, name, rest] of runs) {
      expect(npx, `"hestai ${name}" is "npx hestai ${name}" in a local install`).toBe('npx ');
      const command = commands.get(name!);
      expect(command, `hestai ${name} is a command`).toBeDefined();
      const known = new Set([...flagsOf(command!, true), ...globalFlags]);
      expect([...flagsIn(rest!)].filter((flag) => !known.has(flag))).toEqual([]);
    }
  });

  it.each(synopsisLines().map((s) => [s.where, s.line] as const))(
    '%s: a usage line with real flags',
    (_where, line) => {
      const name = line.split(' ')[1]!;
      const command = commands.get(name);
      expect(command, `hestai ${name} is a command`).toBeDefined();
      const known = new Set([...flagsOf(command!, true), ...globalFlags]);
      expect([...flagsIn(line)].filter((flag) => !known.has(flag))).toEqual([]);
    },
  );

  it('every `hestai <command> ...` the docs name in prose is a command, with flags it has', () => {
    const wrong: string[] = [];
    for (const file of DOCS) {
      for (const m of read(file).matchAll(/`(?:npx )?hestai ([a-z][a-z-]*)([^`]*)`/g)) {
        // `hestai hook failed: ...` is the agent hook's message, not a command.
        if (m[1] === 'hook') continue;
        const command = commands.get(m[1]!);
        if (command === undefined) {
          wrong.push(`${file}: ${m[0]}`);
          continue;
        }
        const known = new Set([...flagsOf(command, true), ...globalFlags, '--help']);
        for (const flag of flagsIn(m[2]!)) if (!known.has(flag)) wrong.push(`${file}: ${flag} in ${m[0]}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function headings(file: string): Set<string> {
  const found = new Set<string>();
  let inBlock = false;
  for (const line of read(file).split('\n')) {
    if (line.startsWith('```')) inBlock = !inBlock;
    const m = inBlock ? null : /^#+ (.*)$/.exec(line);
    if (m) found.add(slug(m[1]!));
  }
  return found;
}

describe('every relative link of the docs leads somewhere', () => {
  const links = DOCS.flatMap((file) =>
    [...read(file).matchAll(/\]\(([^)\s]*)\)/g)]
      .map((m) => m[1]!)
      .filter((target) => !/^[a-z]+:/.test(target))
      .map((target) => [file, target] as const),
  );

  it.each(links)('%s → %s', (file, target) => {
    const [file_, anchor] = target.split('#') as [string, string | undefined];
    const resolved = file_ === '' ? file : path.posix.join(path.posix.dirname(file), file_);
    expect(fs.existsSync(path.join(ROOT, resolved)), `${resolved} exists`).toBe(true);
    if (anchor !== undefined && resolved.endsWith('.md')) expect([...headings(resolved)]).toContain(anchor);
  });
});

/** Paths the docs give as examples of a user's repository (or that a run creates), not files of this one. */
const EXAMPLE_PATHS = new Set([
  'src/feature.ts',
  'src/feature/',
  'src/vector.ts#parseVector',
  'src/main.rs',
  'src/../..x.js',
  'tests/cli.rs',
  'packages/cli/src/json.ts',
  'packages/cli/test/a.test.ts',
  'bench/.fixtures/',
  'bench/results/latest.json',
]);

describe('every file of this repository the docs name exists', () => {
  const named = DOCS.flatMap((file) =>
    [
      ...read(file).matchAll(
        /`((?:src|test|scripts|hooks|bench|templates|prompts)\/[^`\s*{<]*|[\w.-]+(?:\/[\w.-]+)+\.(?:ts|mjs|cjs))`/g,
      ),
    ]
      .map((m) => m[1]!)
      .filter((p) => !EXAMPLE_PATHS.has(p))
      .map((p) => [file, p] as const),
  );

  it.each(named)('%s names %s', (_file, name) => {
    // README's architecture names modules relative to src/.
    const exists = [name, `src/${name}`].some((p) => fs.existsSync(path.join(ROOT, p)));
    expect(exists, `${name} (or src/${name}) exists`).toBe(true);
  });
});

/** The test files of the suite, by path from the root. */
function testSources(): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.test.ts')) found.set(rel, read(rel));
    }
  };
  walk('test');
  return found;
}

/** A cited test name as its source writes it: quotes, apostrophes and an elided tail ("…", "...") aside. */
const citedKey = (name: string) =>
  name
    .replace(/\\"/g, '"')
    .replace(/’/g, "'")
    .split(/…|\.\.\./)[0]!
    .trim()
    .replace(/,$/, '');
const inSource = (source: string, key: string) => source.replace(/’/g, "'").includes(key);

describe('every test the security pages cite exists', () => {
  const sources = testSources();

  it('docs/SECURITY.md: `test/<file>` › "name"', () => {
    const missing: string[] = [];
    const text = read('docs/SECURITY.md');
    for (const m of text.matchAll(/`(test\/[\w/.-]+\.test\.ts)` › ((?:"(?:[^"\\]|\\.)*"[^"`|;]*)+)/g)) {
      const source = sources.get(m[1]!);
      if (source === undefined) {
        missing.push(m[1]!);
        continue;
      }
      for (const n of m[2]!.matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
        if (!inSource(source, citedKey(n[1]!))) missing.push(`${m[1]} › ${n[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('test/security/README.md: <file> › name', () => {
    const missing: string[] = [];
    const rows = read('test/security/README.md')
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| attack') && !l.startsWith('| ---'));
    for (const row of rows) {
      const cell = row
        .replace(/\|\s*$/, '')
        .split(' | ')
        .at(-1)!
        .trim();
      for (const cite of cell.split(/;\s*(?=[\w/-]+ › )/)) {
        const m = /^([\w/-]+) › (.*)$/.exec(cite.trim());
        if (m === null) {
          missing.push(cite);
          continue;
        }
        const file = m[1]!.includes('/') ? `test/${m[1]}.test.ts` : `test/security/${m[1]}.test.ts`;
        const source = sources.get(file);
        const names = m[2]!.replace(/\s*\(\d+ tests?\)$/, '').split(/\s*;\s*/);
        for (const name of names) {
          const key = citedKey(name).split(' › ').at(-1)!;
          if (source === undefined || !inSource(source, key)) missing.push(`${file} › ${name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('every section the code points a reader to exists', () => {
  const sourceFiles = (dir: string): string[] =>
    fs
      .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
      .flatMap((e) =>
        e.isDirectory() ? sourceFiles(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
      );
  const plain = (text: string) => text.replace(/`|\*\*/g, '').toLowerCase();
  const cites = new Map<string, string>();
  for (const file of sourceFiles('src')) {
    for (const m of read(file).matchAll(/(README|DESIGN\.md|docs\/[\w-]+\.md),? \\?"([^"\\\n]+)\\?"/g)) {
      const doc = m[1] === 'README' ? 'README.md' : m[1] === 'DESIGN.md' ? 'docs/design.md' : m[1]!;
      cites.set(`${doc} "${m[2]}"`, file);
    }
  }

  it.each([...cites].map(([cite, file]) => [cite, file] as const))('%s (cited in %s)', (cite) => {
    const [, doc, section] = /^(\S+) "(.*)"$/.exec(cite)!;
    const text = read(doc!);
    const headings = [...text.matchAll(/^#+ (.*)$/gm)].map((m) => plain(m[1]!));
    const leads = [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => plain(m[1]!));
    const wanted = plain(section!);
    expect(headings.some((h) => h.includes(wanted)) || leads.some((l) => l.startsWith(wanted))).toBe(true);
  });
});

describe('docs/api.md and action.yml inputs are what the code offers', () => {
  it('docs/api.md lists exactly the exports of the package root', async () => {
    const api = await import('../../src/index.js');
    const table = read('docs/api.md').split('| area | exports |')[1]!.split('\n\n')[0]!;
    // Only the names before any parenthesis: `HestaiError` (with `exitCode`, ...) names its fields there.
    const names = table
      .split('\n')
      .flatMap((row) => [...row.replace(/\([^)]*\)/g, '').matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]!));
    expect(names.sort()).toEqual(Object.keys(api).sort());
  });

  it('docs/configuration.md names every HESTAI_* variable the code reads', () => {
    const names = new Set<string>();
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
        if (e.isDirectory()) walk(`${dir}/${e.name}`);
        else if (e.name.endsWith('.ts'))
          for (const m of read(`${dir}/${e.name}`).matchAll(
            /env\[['"](HESTAI_[A-Z_]+)['"]\]|['"](HESTAI_[A-Z_]+)['"]/g,
          ))
            names.add((m[1] ?? m[2])!);
      }
    };
    walk('src');
    const environment = read('docs/configuration.md').split('Environment:')[1]!;
    expect(names.size).toBeGreaterThan(0);
    expect([...names].filter((name) => !environment.includes(`\`${name}`))).toEqual([]);
  });

  it("every input of action.yml is named in docs/enforcement.md's action example", () => {
    const inputs = [
      ...read('action.yml')
        .split('\ninputs:\n')[1]!
        .split('\nruns:')[0]!
        .matchAll(/^ {2}([a-z-]+):$/gm),
    ].map((m) => m[1]!);
    const example = read('docs/enforcement.md').split('- uses: <owner>/hestai-hooks@<ref>')[1]!.split('```')[0]!;
    expect(inputs.length).toBeGreaterThan(0);
    expect(inputs.filter((input) => !example.includes(input))).toEqual([]);
  });
});

describe('the policy sections a branch cannot change unseen', () => {
  it('enforcement.md and SECURITY.md list exactly POLICY_SECTIONS', () => {
    const paragraph = read('docs/enforcement.md').split('**Policy comes from the base.**')[1]!.split('\n\n')[0]!;
    const row = read('docs/SECURITY.md')
      .split('\n')
      .find((l) => l.includes('A branch cannot relax its own rules'))!;
    for (const text of [paragraph, row]) {
      const sections = new Set([...text.matchAll(/`([a-z_]+)\.\*`/g)].map((m) => m[1]));
      expect([...sections].sort()).toEqual([...POLICY_SECTIONS].sort());
    }
  });
});

describe('every npm script the docs name exists', () => {
  it('npm run <script> is a script of package.json', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    const named = new Set(
      DOCS.flatMap((file) => [...read(file).matchAll(/npm run ([a-z][a-z:-]*)/g)].map((m) => m[1]!)),
    );
    expect(named.size).toBeGreaterThan(0);
    expect([...named].filter((name) => scripts[name] === undefined)).toEqual([]);
  });
});
