/** Pure: parses a `.env` file (`KEY=value`, optional `export`, quotes, `#` comments); bad lines are skipped. */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    let value = match[2]!.trim();
    const quoted = /^"(.*)"$/.exec(value) ?? /^'(.*)'$/.exec(value);
    if (quoted) value = quoted[1]!;
    else value = value.replace(/\s+#.*$/, '');
    Object.defineProperty(out, match[1]!, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
