import fs from 'node:fs';
import path from 'node:path';
import { gitDirOf } from './head.js';
import { commonDirOf } from './refs.js';

/**
 * The paths of the index (what `git ls-files --cached` lists), read from the index file instead of starting
 * git: versions 2, 3 and 4, SHA-1 or SHA-256 object names. Null whenever git could answer otherwise: another
 * version, a split index (`link`) or a sparse index (`sdir`, directory entries), a truncated or unreadable
 * file. `GIT_INDEX_FILE` (set by git for the pre-commit hook) wins, as for git.
 */
export function readIndexPaths(root: string, env: NodeJS.ProcessEnv = process.env): string[] | null {
  const gitDir = gitDirOf(root, env);
  if (gitDir === null) return null;
  const file = env['GIT_INDEX_FILE'] ? path.resolve(root, env['GIT_INDEX_FILE']) : path.join(gitDir, 'index');
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch {
    return null;
  }
  const config = (() => {
    try {
      return fs.readFileSync(path.join(commonDirOf(gitDir), 'config'), 'utf8');
    } catch {
      return null;
    }
  })();
  if (config === null) return null;
  const hashLen = /^\s*objectformat\s*=\s*sha256\s*$/im.test(config) ? 32 : 20;
  return parseIndexPaths(buf, hashLen);
}

/** Pure: the paths of an index file's entries, or null for anything but a plain version 2, 3 or 4 index. */
export function parseIndexPaths(buf: Buffer, hashLen: 20 | 32): string[] | null {
  if (buf.length < 12 + hashLen || buf.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = buf.readUInt32BE(8);
  const end = buf.length - hashLen; // the trailing checksum
  const paths: string[] = [];
  let offset = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const start = offset;
    if (offset + 40 + hashLen + 2 > end) return null;
    const mode = buf.readUInt32BE(offset + 24);
    if ((mode & 0o170000) === 0o040000) return null; // a sparse directory entry
    offset += 40 + hashLen;
    const flags = buf.readUInt16BE(offset);
    offset += 2;
    if (flags & 0x4000) {
      if (version < 3) return null;
      offset += 2;
    }
    let name: Buffer;
    if (version === 4) {
      let strip = 0;
      let byte: number;
      // git's offset varint: each continuation adds one before shifting.
      do {
        if (offset >= end) return null;
        byte = buf[offset++]!;
        strip = (strip << 7) | (byte & 0x7f);
        if (byte & 0x80) strip += 1;
      } while (byte & 0x80);
      const nul = buf.indexOf(0, offset);
      if (nul < 0 || nul >= end || strip > previous.length) return null;
      name = Buffer.concat([previous.subarray(0, previous.length - strip), buf.subarray(offset, nul)]);
      offset = nul + 1;
    } else {
      const nul = buf.indexOf(0, offset);
      if (nul < 0 || nul >= end) return null;
      name = buf.subarray(offset, nul);
      // NUL-padded to a multiple of 8 bytes, at least one NUL.
      offset = start + ((nul + 1 - start + 7) & ~7);
    }
    if (name.length === 0) return null;
    paths.push(name.toString('utf8'));
    previous = name;
  }
  // Extensions: a split index keeps entries elsewhere; a sparse one has directory entries.
  while (offset + 8 <= end) {
    const signature = buf.toString('latin1', offset, offset + 4);
    if (signature === 'link' || signature === 'sdir') return null;
    offset += 8 + buf.readUInt32BE(offset + 4);
  }
  return offset === end ? paths : null;
}
