import { describe, expect, it } from 'vitest';
import { FIELD_SEP, parseLog, parseStatusZ, RECORD_SEP, splitNul } from '../../src/git/parse.js';

describe('git parsers', () => {
  it('splits NUL-terminated output', () => {
    expect(splitNul('')).toEqual([]);
    expect(splitNul('a\0b c\0')).toEqual(['a', 'b c']);
  });

  it('parses porcelain -z status, renames carrying their source', () => {
    const out = ' M src/a.ts\0R  new name.ts\0old name.ts\0?? notes.txt\0';
    expect(parseStatusZ(out)).toEqual([
      { code: ' M', path: 'src/a.ts' },
      { code: 'R ', path: 'new name.ts', from: 'old name.ts' },
      { code: '??', path: 'notes.txt' },
    ]);
  });

  it('parses log records with messages and files', () => {
    const record = (sha: string, parents: string, message: string, files: string[]) =>
      `${RECORD_SEP}${sha}${FIELD_SEP}${parents}${FIELD_SEP}2026-01-01T00:00:00+00:00${FIELD_SEP}${message}${FIELD_SEP}${FIELD_SEP}\0\n${files.join('\0')}${files.length ? '\0' : ''}`;
    const out =
      record('b'.repeat(40), 'a'.repeat(40), 'feat: x\n\nbody\n', ['src/x.ts']) +
      record('a'.repeat(40), '', 'test: y\n', ['test/y.test.ts', 'z']);
    const commits = parseLog(out);
    expect(commits).toHaveLength(2);
    expect(commits[0]).toMatchObject({
      sha: 'b'.repeat(40),
      parents: ['a'.repeat(40)],
      message: 'feat: x\n\nbody',
      files: ['src/x.ts'],
    });
    expect(commits[1]).toMatchObject({ parents: [], message: 'test: y', files: ['test/y.test.ts', 'z'] });
  });
});

describe('parseNameStatus', () => {
  it('reads statuses, renames with their similarity and copies', async () => {
    const { parseNameStatus } = await import('../../src/git/parse.js');
    expect(
      parseNameStatus([
        'M',
        'a.ts',
        'R100',
        'old.ts',
        'new.ts',
        'D',
        'gone.ts',
        'A',
        'x y.ts',
        'C75',
        'src.ts',
        'copy.ts',
      ]),
    ).toEqual([
      { status: 'M', path: 'a.ts' },
      { status: 'R', path: 'new.ts', from: 'old.ts', score: 100 },
      { status: 'D', path: 'gone.ts' },
      { status: 'A', path: 'x y.ts' },
      { status: 'C', path: 'copy.ts', from: 'src.ts', score: 75 },
    ]);
  });
});

describe('parseLog with a nonce', () => {
  it('keeps separator characters inside a message: no forged record, no forged file', async () => {
    const { logFormat, logNonce } = await import('../../src/git/parse.js');
    const nonce = logNonce();
    expect(logNonce()).not.toBe(nonce);
    expect(logFormat(nonce)).toContain(nonce);
    const message = `docs: a\n\n${RECORD_SEP}${'c'.repeat(40)}${FIELD_SEP}${FIELD_SEP}2026${FIELD_SEP}test: forged${FIELD_SEP}${FIELD_SEP}\0\nA\0test/forged.test.ts`;
    const out = `${RECORD_SEP}${nonce}${'a'.repeat(40)}${FIELD_SEP}${FIELD_SEP}2026-01-01T00:00:00+00:00${FIELD_SEP}${message}\n${FIELD_SEP}${nonce}${FIELD_SEP}\0\nM\0src/a.ts\0`;
    const commits = parseLog(out, true, nonce);
    expect(commits).toHaveLength(1);
    expect(commits[0]!.message).toBe(message);
    expect(commits[0]!.files).toEqual(['src/a.ts']);
  });
});
