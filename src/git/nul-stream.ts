import { GitStreamError, spawnGit } from './log-stream.js';

/**
 * The NUL-terminated fields of git's output (`-z`), read as git writes them: each field is joined once, when
 * its NUL arrives, so a field of any length costs time linear in its bytes (a reader that joins the text read
 * so far with every chunk costs the square). Fails with git's exit status and stderr.
 */
export async function* nulFields(cwd: string, args: readonly string[]): AsyncGenerator<string, void, undefined> {
  const { child, exit } = spawnGit(cwd, args);
  let parts: Buffer[] = [];
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      let from = 0;
      for (let nul = chunk.indexOf(0, from); nul !== -1; nul = chunk.indexOf(0, from)) {
        parts.push(chunk.subarray(from, nul));
        yield parts.length === 1 ? parts[0]!.toString('utf8') : Buffer.concat(parts).toString('utf8');
        parts = [];
        from = nul + 1;
      }
      if (from < chunk.length) parts.push(chunk.subarray(from));
    }
    const { status, stderr } = await exit;
    if (status !== 0) throw new GitStreamError(args, status, stderr);
    if (parts.some((p) => p.length > 0)) throw new GitStreamError(args, 0, 'git output ended inside a field');
  } finally {
    if (child.exitCode === null) child.kill();
  }
}
