/**
 * Who signed an anchors commit, as git verifies it against the BASE's allowed signers (issue 39): the base's
 * committed `.hestai/allowed_signers` (git's ssh allowed-signers format) is copied to a temporary file and
 * named by `gpg.ssh.allowedSignersFile` for one `git log --no-walk`; git and ssh-keygen verify, and hestai
 * reads `%G?`, `%GF` and `%GS`. No key material passes through hestai's code. A key counts only with `G`
 * (a good ssh signature by a key the file lists): an unlisted key is `U`, a bad signature `B`, none `N`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runGitAsync } from '../git/async.js';

/** Where the base keeps its allowed signers. */
export const ALLOWED_SIGNERS_FILE = '.hestai/allowed_signers';

export interface Signature {
  commit: string;
  /** git's `%G?`: G good and allowed, U good but unlisted, B bad, N none, E cannot be checked, X/Y/R expired or revoked. */
  status: string;
  /** The key's fingerprint (`SHA256:...`), or null when unsigned. */
  key: string | null;
  /** The principal the allowed signers file names for the key, or null. */
  signer: string | null;
  /** A good ssh signature by a key the base's file lists. */
  allowed: boolean;
}

/** Pure: why a signature does not count, in words. */
export function signatureProblem(s: Signature | undefined): string | null {
  if (s === undefined || s.status === 'N') return 'it is not signed';
  if (s.allowed) return null;
  if (s.status === 'U')
    return `it is signed by ${s.key ?? 'a key'}, which ${ALLOWED_SIGNERS_FILE} at the base does not list`;
  if (s.status === 'B') return 'its signature is bad (the commit was changed after signing)';
  if (s.status === 'G') return 'it is signed with a key that is not an ssh key';
  return `its signature cannot be verified (git %G? ${s.status})`;
}

/** Pure: `alice@example.com (SHA256:...)`. */
export const ownerName = (s: Pick<Signature, 'key' | 'signer'>) => `${s.signer ?? 'an unnamed key'} (${s.key ?? '?'})`;

/** Checks signatures of commits, each once, against `allowedSigners` (the base file's text; null: none). */
export function signatureChecker(root: string, allowedSigners: string | null) {
  const known = new Map<string, Signature>();
  let dir: string | null = null;
  const file = () => {
    if (dir === null) {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hestai-signers-'));
      fs.writeFileSync(path.join(dir, 'allowed_signers'), allowedSigners ?? '', { mode: 0o600 });
    }
    return path.join(dir, 'allowed_signers');
  };
  return {
    async check(commits: readonly string[]): Promise<Map<string, Signature>> {
      const asked = [...new Set(commits)].filter((c) => !known.has(c) && /^[0-9a-f]{40,64}$/.test(c));
      if (asked.length > 0) {
        const out = await runGitAsync(
          [
            '-c',
            `gpg.ssh.allowedSignersFile=${file()}`,
            'log',
            '--no-walk=unsorted',
            '--format=%H%x00%G?%x00%GF%x00%GS%x00',
            ...asked,
          ],
          { cwd: root, okCodes: [128] },
        );
        for (const line of out.stdout.split('\n')) {
          const [commit = '', status = 'N', key = '', signer = ''] = line.split('\0');
          if (!/^[0-9a-f]{40,64}$/.test(commit)) continue;
          const ssh = key.startsWith('SHA256:');
          known.set(commit, {
            commit,
            status,
            key: key || null,
            signer: signer || null,
            allowed: status === 'G' && ssh,
          });
        }
      }
      const out = new Map<string, Signature>();
      for (const c of commits)
        out.set(c, known.get(c) ?? { commit: c, status: 'N', key: null, signer: null, allowed: false });
      return out;
    },
    close() {
      if (dir !== null) fs.rmSync(dir, { recursive: true, force: true });
      dir = null;
    },
  };
}

export type SignatureChecker = ReturnType<typeof signatureChecker>;
