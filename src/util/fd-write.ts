import fs from 'node:fs';

/**
 * Writes `text` to file descriptor `fd` (1 or 2) directly: building process.stdout or process.stderr for a pipe
 * or a terminal loads node:net and node:stream (a few ms on every hook run). The same bytes arrive; should a
 * write fail (a non-blocking pipe that is full, a closed one), the rest goes through the stream as before.
 */
export function writeFd(fd: 1 | 2, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  try {
    while (written < bytes.length) written += fs.writeSync(fd, bytes, written);
  } catch {
    (fd === 1 ? process.stdout : process.stderr).write(bytes.subarray(written));
  }
}
