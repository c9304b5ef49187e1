/**
 * MCP results speak MCP (issue 14, item 6). The library words its next steps and remedies for the CLI
 * (`hestai anchor --stage context --token T --payload-file FILE`); an agent over MCP has no shell, so every
 * result passes through {@link toMcpWords}, which names the tool and its arguments instead
 * (`anchor {stage: "context", session_id: "T", payload: <the ## BIND section>}`). One table, one place.
 *
 * Commands only a human can run (`hestai anchor reset`, `hestai clock-out --session` for another agent's
 * session), and any other hestai command no tool does (`hestai mcp --cwd <repo>`), are left as they are:
 * shell commands keep their flags.
 */

/** CLI flag → MCP argument (one name per concept: session_id, tier, focus). */
const ARGUMENT: Record<string, string> = {
  token: 'session_id',
  session: 'session_id',
  role: 'role',
  mode: 'mode',
  strictness: 'tier',
  tier: 'tier',
  topic: 'focus',
  focus: 'focus',
  cwd: 'working_dir',
  'payload-file': 'payload',
  'on-conflict': 'on_conflict',
  'on-stale': 'on_stale',
  summary: 'summary',
  model: 'model',
  'vector-file': 'vector_candidate',
};

const PAYLOAD: Record<string, string> = {
  context: '<the ## BIND section>',
  proof: '<the ## TENSION and ## COMMIT sections>',
};

const HUMAN = /hestai anchor reset[^.\n"`)]*|hestai clock-out --session [^\s.)`"]+/g;
/**
 * A shell command `[npx ]hestai <command> [words]` (words: `--flag`, `--flag=value`, `<placeholder>`, or a value
 * that does not end in `.`, `,`, `;`, `)` or a quote), left after the tool calls above are worded.
 */
const SHELL_COMMAND =
  /(?<![\w./$-])(?:npx )?hestai [a-z][a-z-]*(?: (?:--?[a-z][\w-]*(?:=[^\s,;)"`]+)?|<[^>\s]+>|[^\s,;)"`<.-][^\s,;)"`<]*?(?=[.,;]?(?:\s|$|[)"`]))))*/g;

function quote(value: string): string {
  return /^<.*>$/.test(value) || value === 'T' ? `"${value === 'T' ? '<session_id>' : value}"` : JSON.stringify(value);
}

/** `--stage X --token T --payload-file FILE ...` → `{stage: "X", session_id: "T", payload: <...>}`. */
function argumentsOf(flags: string): string {
  const args: string[] = [];
  let stage: string | null = null;
  for (const match of flags.matchAll(/--([a-z-]+)(?: (?!--)([^\s,;.)]+|<[^>]+>))?/g)) {
    const flag = match[1]!;
    const value = match[2];
    const name = ARGUMENT[flag] ?? flag.replace(/-/g, '_');
    if (flag === 'stage') stage = value ?? null;
    if (flag === 'payload-file' || (flag === 'token' && value === undefined)) {
      if (flag === 'payload-file') args.push(`payload: ${stage && PAYLOAD[stage] ? PAYLOAD[stage] : '<the sections>'}`);
      else args.push('session_id: "<session_id>"');
      continue;
    }
    args.push(value === undefined ? name : `${name}: ${quote(value)}`);
  }
  return `{${args.join(', ')}}`;
}

export function toMcpWords(text: string): string {
  if (!text.includes('--') && !text.includes('hestai ')) return text; // the common case, on every warm call
  const kept: string[] = [];
  let out = text.replace(HUMAN, (human) => {
    kept.push(human);
    return `\u0000${kept.length - 1}\u0000`;
  });
  const FLAGS = String.raw`(?:\s?--[a-z-]+(?: (?!--)(?:[^\s,;.)"]+|<[^>]+>))?)+`;
  out = out.replace(
    new RegExp(`"?hestai anchor(${FLAGS})"?`, 'g'),
    (_m, flags: string) => `anchor ${argumentsOf(flags)}`,
  );
  out = out.replace(
    new RegExp(`"?hestai odyssean-anchor(${FLAGS})"?`, 'g'),
    (_m, flags: string) => `odyssean_anchor ${argumentsOf(flags)}`,
  );
  out = out.replace(
    new RegExp(`"?hestai clock-in(${FLAGS})?"?`, 'g'),
    (_m, flags: string | undefined) => `clock_in ${flags ? argumentsOf(flags) : '{role}'}`,
  );
  out = out.replace(
    /"?hestai conflict (takeover|abort)"?/g,
    (_m, decision: string) => `resolve_conflict {action: "${decision}"}`,
  );
  out = out.replace(
    new RegExp(`"?hestai clock-out(${FLAGS})?"?`, 'g'),
    (_m, flags: string | undefined) => `clock_out ${flags ? argumentsOf(flags) : '{}'}`,
  );
  // A bare flag sequence that starts with --stage: a call of the anchor tool.
  out = out.replace(
    /(?<![\w-])(--stage(?: (?!--)[^\s,;.)"]+)?(?:\s--[a-z-]+(?: (?!--)(?:[^\s,;.)"]+|<[^>]+>))?)*)/g,
    (_m, flags: string) => `anchor ${argumentsOf(flags)}`,
  );
  // Any other hestai command is a shell command (no tool does it: `hestai mcp --cwd <repo>`): kept as written.
  out = out.replace(SHELL_COMMAND, (command) => {
    kept.push(command);
    return `\u0000${kept.length - 1}\u0000`;
  });
  // Any other flag: the argument of the same meaning.
  out = out.replace(/(?<![\w-])--([a-z][a-z-]*)/g, (m, flag: string) => ARGUMENT[flag] ?? m);
  return out.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => kept[Number(i)]!);
}

/** The fields of structured content that carry wording (never documents such as templates or anchors). */
const WORDED = new Set([
  'next_step',
  'guidance',
  'remedy',
  'reason',
  'instruction',
  'errors',
  'warnings',
  'cleanup_notice',
  'hint',
]);

/** Results {@link mcpWorded} made (a tool may word its result itself, to keep it: it is not worded twice). */
const worded = new WeakSet<object>();

/** A tool result with its wording translated: every text block and the worded structured fields. */
export function mcpWorded<
  R extends { content: Array<{ type: 'text'; text: string }>; structuredContent?: Record<string, unknown> },
>(result: R): R {
  if (worded.has(result)) return result;
  const out = wordedCopy(result);
  worded.add(out);
  return out;
}

function wordedCopy<
  R extends { content: Array<{ type: 'text'; text: string }>; structuredContent?: Record<string, unknown> },
>(result: R): R {
  const content = result.content.map((block) => ({ ...block, text: toMcpWords(block.text) }));
  if (result.structuredContent === undefined) return { ...result, content };
  const structured: Record<string, unknown> = { ...result.structuredContent };
  for (const [key, value] of Object.entries(structured)) {
    if (!WORDED.has(key)) continue;
    if (typeof value === 'string') structured[key] = toMcpWords(value);
    else if (Array.isArray(value)) structured[key] = value.map((v) => (typeof v === 'string' ? toMcpWords(v) : v));
  }
  return { ...result, content, structuredContent: structured };
}
