/**
 * Output for the CLI: `--json` prints exactly one JSON document on stdout and nothing else; otherwise a
 * readable text. Colors are off under NO_COLOR or when stdout is not a TTY.
 */
export interface Output {
  json: boolean;
  color: boolean;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export function createOutput(json: boolean, env: NodeJS.ProcessEnv = process.env): Output {
  const color = !json && !('NO_COLOR' in env) && process.stdout.isTTY === true && env['TERM'] !== 'dumb';
  return {
    json,
    color,
    stdout: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    stderr: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  };
}

const CODES = { red: 31, green: 32, yellow: 33, dim: 2, bold: 1 } as const;
export type Tint = keyof typeof CODES;

export function paint(out: Pick<Output, 'color'>, tint: Tint, text: string): string {
  return out.color ? `\u001b[${CODES[tint]}m${text}\u001b[0m` : text;
}
