import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, expect } from 'vitest';
import { createServer, type McpDeps } from '../../src/mcp/server.js';
import { CLI, makeRepo, templateRepo, type TempRepo } from './git-repo.js';

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!();
});

/** What a tool call returns, narrowed to what the tests read. */
export interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
}

/** A connected client, narrowed to what the tests do with it. */
interface Connected {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** A resource's first content: parsed when its MIME type is JSON, else the text. */
  read(uri: string): Promise<unknown>;
}

export interface InProcess extends Connected {
  /** Lines the server wrote to its diagnostic log (stderr in production). */
  logs: string[];
}

export interface OverStdio extends Connected {
  /** What the server process wrote to stderr so far. */
  stderr(): string;
}

function connected(client: Client): Connected {
  return {
    client,
    async call(name, args) {
      return (await client.callTool({ name, arguments: args })) as ToolResult;
    },
    async read(uri) {
      const result = await client.readResource({ uri });
      const first = result.contents[0] as { text?: string; mimeType?: string } | undefined;
      if (!first || typeof first.text !== 'string') throw new Error(`resource ${uri} returned no text`);
      return first.mimeType === 'application/json' ? (JSON.parse(first.text) as unknown) : first.text;
    },
  };
}

/**
 * The server under test, in this process, linked to the SDK's real client by an in-memory transport
 * pair (no stdio, no child process). Closed after the test.
 */
export async function connectInProcess(deps: Partial<McpDeps> = {}): Promise<InProcess> {
  const logs: string[] = [];
  const server = createServer({ log: (line) => logs.push(line), ...deps });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'hestai-test', version: '1.0.0' });
  await client.connect(clientSide);
  open.push(async () => {
    await client.close();
    await server.close();
  });
  return { ...connected(client), logs };
}

/**
 * `hestai mcp` as a child process started by the SDK's real stdio client, as Claude Code starts it
 * (`entry`: another build of the CLI, e.g. an unpacked tarball). Closed after the test.
 */
export async function connectStdio(
  cwd: string,
  env: NodeJS.ProcessEnv,
  options: {
    entry?: string;
    args?: string[];
    /** Declare the roots capability (with listChanged) and answer roots/list with what this returns. */
    roots?: () => Array<{ uri: string; name?: string }>;
    /** The client's name at initialize (default `hestai-e2e`), as a runtime names itself. */
    clientName?: string;
  } = {},
): Promise<OverStdio> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [options.entry ?? CLI, 'mcp', ...(options.args ?? [])],
    cwd,
    env: env as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const roots = options.roots;
  const client = new Client(
    { name: options.clientName ?? 'hestai-e2e', version: '1.0.0' },
    roots === undefined ? {} : { capabilities: { roots: { listChanged: true } } },
  );
  if (roots !== undefined) client.setRequestHandler('roots/list', () => ({ roots: roots() }));
  await client.connect(transport);
  open.push(() => client.close());
  return { ...connected(client), stderr: () => stderr };
}

/** The readable text of a tool result (all text blocks joined). */
export function textOf(result: ToolResult): string {
  return result.content.map((block) => block.text ?? '').join('\n');
}

export const CEREMONY_ROLE = 'implementation-lead';
/** The BIND section the ceremony submits at the context stage. */
export const CEREMONY_BIND = [
  '## BIND (Identity Lock)',
  `ROLE::${CEREMONY_ROLE}`,
  'COGNITION::LOGOS::ATHENA',
  'AUTHORITY::RESPONSIBLE[the app module]',
].join('\n');
/** The TENSION and COMMIT sections the ceremony submits at the proof stage (they cite CEREMONY_FILES). */
export const CEREMONY_PROOF = [
  '## TENSION (Cognitive Proof - AGENT GENERATED)',
  'L1::[TDD_MANDATE]<->CTX:src/app.ts:1-3[no failing test yet]->TRIGGER[write the failing test first]',
  'L2::[MINIMAL_INTERVENTION]<->CTX:README.md[documents the app]->TRIGGER[keep the contract stable]',
  '## COMMIT (Falsifiable Contract)',
  'ARTIFACT::src/app.ts',
  'GATE::npm test',
].join('\n');

/** The files the ceremony's proof cites (commit them before anchoring). */
export const CEREMONY_FILES: Record<string, string> = {
  '.hestai/context/PROJECT-CONTEXT.oct.md': '===PROJECT_CONTEXT===\nPHASE::B1\nNAME::"demo"\n===END===\n',
  'src/app.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  'README.md': '# demo\n\nadds numbers\n',
};

/** A repository adopted with `hestai init --no-husky`, with the files the ceremony cites committed. */
export function ceremonyRepo(): TempRepo {
  // Made once per test file, copied for every later call (it holds no absolute path of its own).
  return templateRepo('ceremony', () => {
    const repo = makeRepo();
    const init = repo.hestai(['init', '--no-husky']);
    expect(init.status, init.stderr).toBe(0);
    repo.commit('chore: hestai init and the app', {
      ...CEREMONY_FILES,
      '.gitignore': '.hestai/sessions/\n.hestai/audit/\n.hestai/cache/\n',
    });
    return repo;
  });
}

/**
 * Runs the whole staged handshake (identity → context → proof) for `token` over `mcp`, as an agent
 * would; throws with the result's text when a stage fails.
 */
export async function anchorOverMcp(mcp: Connected, workingDir: string, token?: string): Promise<string> {
  const identity = await mcp.call('anchor', {
    stage: 'identity',
    working_dir: workingDir,
    role: CEREMONY_ROLE,
    ...(token ? { session_id: token } : {}),
  });
  if (identity.isError) throw new Error(`identity failed: ${textOf(identity)}`);
  const id = identity.structuredContent!['token'] as string;
  for (const [stage, payload] of [
    ['context', CEREMONY_BIND],
    ['proof', CEREMONY_PROOF],
  ] as const) {
    const result = await mcp.call('anchor', { stage, working_dir: workingDir, session_id: id, payload });
    if (result.isError) throw new Error(`${stage} failed: ${textOf(result)}`);
  }
  return id;
}
