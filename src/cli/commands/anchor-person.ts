/**
 * `hestai anchor` for a person (issue 41): one run walks the three stages. It clocks in when no session
 * fits, opens the editor `git commit` would open on one pre-filled payload, checks it without spending a
 * retry, and submits it. `--again` submits the last accepted payload; `--payload-file` a given one.
 * Payload files live in git's directory for this worktree, never in the worktree itself.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ExitCode, usageError } from '../../errors.js';
import { pathInside } from '../../paths.js';
import type { AnchorDeps, AnchorInput } from '../../anchor/handshake.js';
import type { AnchorHandshakeResult } from '../../anchor/results.js';
import type { CheckResult } from '../../anchor/check.js';
import { paint } from '../output.js';
import type { CommandContext, CommandResult } from '../run.js';
import { formatHandshake, readPayloadFile } from './anchor-output.js';

export interface PersonFlags {
  role?: string;
  token?: string;
  topic?: string;
  strictness?: string;
  again?: boolean;
  payloadFile?: string;
}

/** The shell's directory relative to the worktree root (`/`-separated; '' at the root or outside it). */
export function shellBase(root: string, cwd: string): string {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  const rel = pathInside(real(root), real(cwd));
  return rel === null || rel === '.' ? '' : rel;
}

/** Where this worktree keeps the person's payloads: git's directory (`.git/hestai/`), like COMMIT_EDITMSG. */
async function payloadFiles(cwd: string): Promise<{ draft: string; last: string }> {
  const { repoInfo } = await import('../../git/repo.js');
  const info = repoInfo(cwd);
  if (info === null)
    throw usageError(`${cwd} is not inside a git repository`, {
      code: 'NOT_A_REPOSITORY',
      remedy: 'Run hestai anchor inside the repository you work in.',
    });
  const dir = path.join(info.gitDir, 'hestai');
  return { draft: path.join(dir, 'ANCHOR_EDITMSG'), last: path.join(dir, 'ANCHOR_LAST') };
}

/** Opens `file` in the editor `git commit` would use (`git var GIT_EDITOR`), run through the shell as git does. */
export async function runEditor(cwd: string, env: NodeJS.ProcessEnv, file: string): Promise<void> {
  const { runGit } = await import('../../git/exec.js');
  const answer = runGit(['var', 'GIT_EDITOR'], { cwd, env, okCodes: [0, 1, 128] });
  const editor = answer.stdout.trim();
  if (answer.status !== 0 || editor === '')
    throw usageError(`git names no editor: ${answer.stderr.trim() || 'git var GIT_EDITOR printed nothing'}`, {
      code: 'NO_EDITOR',
      remedy: 'Name one as for git commit, e.g.: git config core.editor nano',
    });
  if (editor === ':') return; // git's own "leave the file as it is"
  const run =
    process.platform === 'win32'
      ? spawnSync(`${editor} "${file}"`, { cwd, env, stdio: 'inherit', shell: true })
      : spawnSync('sh', ['-c', `${editor} "$@"`, editor, file], { cwd, env, stdio: 'inherit' });
  if (run.status !== 0)
    throw usageError(`the editor (${editor}) exited with ${run.status ?? run.signal}: nothing was submitted`, {
      code: 'EDITOR_FAILED',
      remedy: 'Run it again, your text is kept: hestai anchor',
    });
}

/** The session to anchor: the one named or the one every command would use, if its role fits; else none. */
async function sessionFor(
  ctx: CommandContext,
  root: string,
  flags: PersonFlags,
): Promise<{ token: string | null; role: string }> {
  const [{ workspacePaths }, { resolveSessionChoice }, { readSession, isLive }, { availableRoles, exampleRole }] =
    await Promise.all([
      import('../../paths.js'),
      import('../../records/resolve.js'),
      import('../../records/session.js'),
      import('../../records/roles.js'),
    ]);
  const paths = workspacePaths(root);
  const id = resolveSessionChoice(paths, flags.token, ctx.env)?.session_id ?? null;
  const session = id === null ? null : readSession(paths, id);
  const fits = session !== null && isLive(session) && (flags.role === undefined || flags.role === session.role);
  if (flags.token !== undefined && !fits) return { token: flags.token, role: flags.role ?? session?.role ?? '' };
  if (fits) return { token: id, role: session.role };
  return { token: null, role: flags.role ?? exampleRole(availableRoles(paths)) };
}

/** The payload drafted for this session: its role's constitution, its focus, the worktree's files. */
async function draftFor(root: string, base: string, hs: AnchorHandshakeResult): Promise<string> {
  const [{ workspacePaths }, { readSession }, { readConstitution }, facts, { draftPayload }, { MIN_TENSIONS }] =
    await Promise.all([
      import('../../paths.js'),
      import('../../records/session.js'),
      import('../../anchor/constitution.js'),
      import('../../anchor/person-facts.js'),
      import('../../anchor/person.js'),
      import('../../anchor/constants.js'),
    ]);
  const paths = workspacePaths(root);
  const session = readSession(paths, hs.token!);
  const role = session?.role ?? '';
  const min = MIN_TENSIONS[hs.strictness];
  return draftPayload({
    role,
    session_id: hs.token!,
    constitution_path: hs.constitution_path ?? '',
    cognition: readConstitution(paths, role)?.cognition ?? null,
    focus: session?.focus ?? 'general',
    min,
    citations: await facts.draftCitations(root, min + 5),
    gate: facts.evidentGate(root),
    base,
  });
}

/** The text to submit: the last accepted one, the file given, or what the person saved in the editor. */
async function payloadText(
  ctx: CommandContext,
  root: string,
  base: string,
  hs: AnchorHandshakeResult,
  flags: PersonFlags,
  files: { draft: string; last: string },
): Promise<{ text: string; base: string; edited: boolean }> {
  const { writeFileAtomic, readTextIfExists } = await import('../../state/store.js');
  if (flags.again) {
    const last = readTextIfExists(files.last);
    if (last === null)
      throw usageError('there is no accepted payload to reuse in this worktree yet', {
        code: 'NO_LAST_PAYLOAD',
        remedy: 'Anchor once in a terminal with: hestai anchor',
      });
    return { text: last, base: '', edited: false };
  }
  if (flags.payloadFile !== undefined)
    return { text: readPayloadFile(flags.payloadFile, '--payload-file')!, base, edited: false };
  const kept = readTextIfExists(files.draft);
  const text = kept !== null && kept.includes(hs.token!) ? kept : await draftFor(root, base, hs);
  writeFileAtomic(files.draft, text);
  await runEditor(path.resolve(ctx.cwd), ctx.env, files.draft);
  return { text: fs.readFileSync(files.draft, 'utf8'), base, edited: true };
}

function failedCheck(ctx: CommandContext, check: CheckResult, edited: boolean): CommandResult {
  const again = edited
    ? 'Nothing was submitted and no retry was spent. Run hestai anchor to edit it again (the errors are at its end).'
    : 'Nothing was submitted and no retry was spent. Run hestai anchor to edit the payload in your editor.';
  return {
    exitCode: ExitCode.Blocked,
    json: { success: false, check },
    text: [
      `${paint(ctx.out, 'red', 'FAILED')} anchor --check (${check.role})`,
      ...check.errors.map((e) => `  - ${e}`),
      '',
      again,
    ].join('\n'),
  };
}

function stageFailed(ctx: CommandContext, results: AnchorHandshakeResult[]): CommandResult {
  const last = results[results.length - 1]!;
  return {
    exitCode: ExitCode.Blocked,
    json: { success: false, stages: results },
    text: formatHandshake(ctx.out, last),
  };
}

/** One run: session, identity, the payload (editor, --again or a file), the check, context and proof. */
export async function personAnchor(ctx: CommandContext, flags: PersonFlags, deps: AnchorDeps): Promise<CommandResult> {
  const cwd = path.resolve(ctx.cwd);
  const [{ anchor }, { resolveWorkspace }, { checkPayload }, person, { writeFileAtomic }] = await Promise.all([
    import('../../anchor/handshake.js'),
    import('../../workspace.js'),
    import('../../anchor/check.js'),
    import('../../anchor/person.js'),
    import('../../state/store.js'),
  ]);
  const root = resolveWorkspace(cwd).root;
  const files = await payloadFiles(cwd);
  const chosen = await sessionFor(ctx, root, flags);
  const stage = (input: Omit<AnchorInput, 'working_dir'>) => anchor({ ...input, working_dir: cwd }, deps);
  const identity = await stage({
    stage: 'identity',
    role: chosen.role,
    ...(chosen.token === null ? {} : { token: chosen.token }),
    ...(flags.topic === undefined ? {} : { topic: flags.topic }),
    ...(flags.strictness === undefined ? {} : { strictness: flags.strictness as 'default' }),
  });
  if (!identity.success || identity.token === null) return stageFailed(ctx, [identity]);
  const token = identity.token;
  const base = shellBase(root, cwd);
  const given = await payloadText(ctx, root, base, identity, flags, files);
  if (person.isEmptyPayload(given.text))
    return {
      exitCode: ExitCode.Blocked,
      json: { success: false, aborted: true },
      text: 'Aborting: the payload is empty. Nothing was submitted and no retry was spent.',
    };
  const payload = person.rebasePayload(given.text, given.base);
  const check = await checkPayload({ working_dir: cwd, part: 'person', payload, token }, deps);
  if (!check.ok) {
    if (given.edited) writeFileAtomic(files.draft, person.withErrors(given.text, check.errors));
    return failedCheck(ctx, check, given.edited);
  }
  const { bind, proof } = person.splitPayload(payload);
  const context = await stage({ stage: 'context', token, payload: bind });
  if (!context.success) return stageFailed(ctx, [identity, context]);
  const bound = await stage({ stage: 'proof', token, payload: proof });
  if (!bound.success) return stageFailed(ctx, [identity, context, bound]);
  writeFileAtomic(
    files.last,
    `${person
      .blankComments(payload)
      .replace(/\n{2,}/g, '\n')
      .trim()}\n`,
  );
  fs.rmSync(files.draft, { force: true });
  return {
    exitCode: ExitCode.Ok,
    json: { success: true, session_id: token, role: check.role, stages: [identity, context, bound] },
    text: [
      `${paint(ctx.out, 'green', 'ok')} anchored session ${token} as ${check.role}: commits are unlocked`,
      '',
      bound.anchor ?? '',
      '',
      'next: commit your work (git commit); "hestai anchor --again" re-anchors with this payload.',
    ].join('\n'),
  };
}
