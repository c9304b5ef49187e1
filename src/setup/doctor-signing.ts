/**
 * The doctor's `signing` line (issue 39 item 5): whether git signs the commits hestai adds to `hestai/anchors`
 * (`gpg.format ssh` and `user.signingkey`) and the base-to-be lists a key in `.hestai/allowed_signers`, and
 * otherwise the one shell command that sets both up. Only git config and file names are read: no key.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runGit } from '../git/exec.js';
import { ALLOWED_SIGNERS_FILE } from '../evidence/signatures.js';

const KEYS = ['id_ed25519', 'id_ecdsa', 'id_rsa'];

/** Pure: the command that makes git sign with `pub` (an existing public key file, or null: make one) and lists it. */
export function signingCommand(pub: string | null): string {
  const key = pub ?? '~/.ssh/id_ed25519.pub';
  return [
    ...(pub === null ? ['mkdir -p ~/.ssh', 'ssh-keygen -q -t ed25519 -N "" -f ~/.ssh/id_ed25519'] : []),
    'git config gpg.format ssh',
    `git config user.signingkey ${key}`,
    'mkdir -p .hestai',
    `echo "$(git config user.email) $(cat ${key})" >> ${ALLOWED_SIGNERS_FILE}`,
  ].join(' && ');
}

const config = (root: string, key: string) => {
  const r = runGit(['config', '--get', key], { cwd: root, okCodes: [1] });
  return r.status === 0 ? r.stdout.trim() : null;
};

/** A doctor line (src/setup/doctor.ts's DoctorCheck, which imports this file). */
interface SigningLine {
  name: 'signing';
  status: 'pass' | 'warn';
  message: string;
  remedy?: string;
}

export function signingCheck(root: string, mode: string, env: NodeJS.ProcessEnv): SigningLine {
  const signs = config(root, 'gpg.format') === 'ssh' ? config(root, 'user.signingkey') : null;
  const file = path.join(root, ALLOWED_SIGNERS_FILE);
  const listed = fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '' && !l.trim().startsWith('#')).length
    : 0;
  if (signs !== null && listed > 0)
    return {
      name: 'signing',
      status: 'pass',
      message: `git signs hestai/anchors commits with ssh (user.signingkey ${signs}); ${ALLOWED_SIGNERS_FILE} lists ${listed} key(s); verify.signatures: ${mode}`,
    };
  const home = env['HOME'] ?? os.homedir();
  const pub = KEYS.map((k) => path.join(home, '.ssh', `${k}.pub`)).find((p) => fs.existsSync(p)) ?? null;
  const missing =
    signs === null
      ? 'hestai/anchors commits are not signed (git has no gpg.format ssh and user.signingkey)'
      : `${ALLOWED_SIGNERS_FILE} lists no key, so no signature can count`;
  return {
    name: 'signing',
    status: 'warn',
    message: `${missing}; verify.signatures: ${mode}`,
    remedy: `Run: ${signingCommand(signs !== null && signs.endsWith('.pub') ? signs : pub)}\n     then commit ${ALLOWED_SIGNERS_FILE} to the default branch and set verify.signatures: warn there (verify reads the base's).`,
  };
}
