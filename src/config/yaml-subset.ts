/**
 * The block-style subset of YAML that workspace files are written in (nested mappings of plain keys, block
 * and one-line flow sequences of scalars, plain and quoted scalars, comments), read without the `yaml`
 * package: loading and running it costs a hook about 12 ms of CPU, this well under one. It answers
 * `{ value }`, what `yaml`'s `parseDocument(text, { uniqueKeys: true }).toJS()` answers for the same text,
 * or `null` for anything it is not sure of (anchors, tags, block scalars, multi-line scalars, nested flow sequences,
 * tabs, CR, control characters, duplicate keys, odd indentation...): the caller then parses with `yaml`,
 * which reports the error or reads what this subset leaves out. A property test
 * (test/unit/yaml-subset.test.ts) holds it equal to `yaml` on generated config documents and on random text.
 */
export function parseYamlSubset(text: string): { value: unknown } | null {
  // Only printable ASCII, LF and non-ASCII outside the C1 controls, surrogates, line separators and the BOM.
  if (/[^\n\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]/.test(text)) return null;
  const lines: Line[] = [];
  for (const raw of text.split('\n')) {
    if (raw.startsWith('---') || raw.startsWith('...') || raw.startsWith('%')) return null;
    const content = raw.replace(/^ +/, '');
    if (content === '' || content.startsWith('#')) continue;
    lines.push({ indent: raw.length - content.length, content: trimSpaces(content) });
  }
  if (lines.length === 0) return { value: null };
  try {
    const reader = new Reader(lines);
    const value = reader.block(lines[0]!.indent);
    return reader.done() ? { value } : null;
  } catch (error) {
    if (error === DOUBT) return null;
    throw error;
  }
}

interface Line {
  indent: number;
  content: string;
}

/** Thrown (and caught above) where the text leaves the subset. */
const DOUBT: unique symbol = Symbol('not in the subset');
function doubt(): never {
  throw DOUBT;
}

/** `key:` then the end of the line or a space; the key a plain word that YAML reads as a string. */
const KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?: |$)/;
const NON_STRING_KEY = /^(?:[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const SEQ_ITEM = /^-(?: |$)/;

class Reader {
  private at = 0;
  constructor(private readonly lines: Line[]) {}

  done(): boolean {
    return this.at === this.lines.length;
  }

  private peek(): Line | undefined {
    return this.lines[this.at];
  }

  /** The block node whose lines start at the current line, indented by `indent`. */
  block(indent: number): unknown {
    const line = this.peek()!;
    if (SEQ_ITEM.test(line.content)) return this.sequence(indent);
    if (KEY.test(line.content)) return this.mapping(indent);
    // A value alone on its line (`key:` then `  {}` below it): nothing may follow at its indentation or deeper.
    this.at++;
    const next = this.peek();
    if (next !== undefined && next.indent >= indent) doubt();
    return inlineValue(line.content);
  }

  private mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (let line = this.peek(); line !== undefined && line.indent === indent; line = this.peek()) {
      const match = KEY.exec(line.content) ?? doubt();
      const key = match[1]!;
      // A duplicate, or a name every object has (`constructor`, `__proto__`): yaml's business.
      if (key.length > 1000 || NON_STRING_KEY.test(key) || key in out) doubt();
      this.at++;
      out[key] = this.valueAfter(line.content.slice(match[0].length), indent, true);
    }
    this.endOfBlock(indent);
    return out;
  }

  private sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    for (let line = this.peek(); line !== undefined && line.indent === indent; line = this.peek()) {
      if (!SEQ_ITEM.test(line.content)) break; // a compact sequence ends where its mapping's next key starts
      const rest = trimSpaces(line.content.slice(1));
      if (rest === '' || rest.startsWith('#') || SEQ_ITEM.test(rest)) doubt();
      if (KEY.test(rest)) {
        // `- key: value`: a mapping whose keys sit in the column of this first key.
        const column = indent + line.content.length - rest.length;
        this.lines[this.at] = { indent: column, content: rest };
        out.push(this.mapping(column));
      } else {
        this.at++;
        out.push(this.valueAfter(rest, indent, false));
      }
    }
    this.endOfBlock(indent);
    return out;
  }

  /** A block ends at a line indented less than it; one indented more that nothing opened is an error. */
  private endOfBlock(indent: number): void {
    const next = this.peek();
    if (next !== undefined && next.indent > indent) doubt();
  }

  /** The value after `key:` or `- `, on the line itself or as the block below it. */
  private valueAfter(rest: string, indent: number, inMapping: boolean): unknown {
    const text = trimSpaces(rest);
    if (text === '' || text.startsWith('#')) {
      const next = this.peek();
      if (next !== undefined && next.indent > indent) return this.block(next.indent);
      // `key:` followed by `- item` at the key's own indentation: a compact sequence.
      if (inMapping && next !== undefined && next.indent === indent && SEQ_ITEM.test(next.content))
        return this.sequence(indent);
      return null;
    }
    const next = this.peek();
    if (next !== undefined && next.indent > indent) doubt(); // a multi-line scalar or a bad indentation
    return inlineValue(text);
  }
}

/**
 * A scalar, or a one-line flow collection: a sequence of scalars, or a mapping of plain keys to scalars,
 * sequences of scalars and such mappings (`{ id: x, check: { type: evidence, accepts: [content_hash] } }`);
 * an optional comment after it.
 */
function inlineValue(text: string): unknown {
  const first = text[0]!;
  if (first === "'" || first === '"' || first === '[' || first === '{') {
    const flow = new FlowReader(text);
    const value = first === '[' ? flow.sequence() : first === '{' ? flow.mapping() : flow.quoted();
    comment(text.slice(flow.at));
    return value;
  }
  const hash = text.indexOf(' #');
  return plain(hash < 0 ? text : trimSpaces(text.slice(0, hash)));
}

/** Reads flow collections and quoted scalars from one line, left to right. */
class FlowReader {
  at = 0;
  constructor(private readonly text: string) {}

  private skipSpaces(): void {
    while (this.text[this.at] === ' ') this.at++;
  }

  quoted(): string {
    const { value, end } = quoted(this.text, this.at);
    this.at = end;
    return value;
  }

  /** `[a, 'b', 1]`: scalars only; an empty item (`[a,,b]`, `[a,]`) is left to yaml. */
  sequence(): unknown[] {
    this.at++; // [
    this.skipSpaces();
    const out: unknown[] = [];
    if (this.text[this.at] === ']') {
      this.at++;
      return out;
    }
    for (;;) {
      out.push(this.scalar(']'));
      this.skipSpaces();
      const c = this.text[this.at++];
      if (c === ']') return out;
      if (c !== ',') doubt();
      this.skipSpaces();
    }
  }

  /** `{ key: value, ... }`: plain keys, each followed by `: `; values are scalars, flow sequences or mappings. */
  mapping(): Record<string, unknown> {
    this.at++; // {
    this.skipSpaces();
    const out: Record<string, unknown> = {};
    if (this.text[this.at] === '}') {
      this.at++;
      return out;
    }
    for (;;) {
      const match = /^([A-Za-z_][A-Za-z0-9_-]*): +/.exec(this.text.slice(this.at)) ?? doubt();
      const key = match[1]!;
      if (key.length > 1000 || NON_STRING_KEY.test(key) || key in out) doubt();
      this.at += match[0].length;
      const c0 = this.text[this.at];
      out[key] = c0 === '[' ? this.sequence() : c0 === '{' ? this.mapping() : this.scalar('}');
      this.skipSpaces();
      const c = this.text[this.at++];
      if (c === '}') return out;
      if (c !== ',') doubt();
      this.skipSpaces();
    }
  }

  /** A quoted or plain scalar inside a flow collection closed by `close`. */
  private scalar(close: string): unknown {
    const c = this.text[this.at];
    if (c === "'" || c === '"') return this.quoted();
    let end = this.at;
    while (end < this.text.length && this.text[end] !== ',' && this.text[end] !== close) end++;
    const item = trimSpaces(this.text.slice(this.at, end));
    // Flow indicators, quotes, `:` and `#` inside a plain flow scalar are left to yaml.
    if (item === '' || /[[\]{}:#"']/.test(item)) doubt();
    this.at = end;
    return plain(item);
  }
}

/** Spaces around, and only spaces: YAML's own white space here (tabs never reach this far), not JavaScript's. */
function trimSpaces(text: string): string {
  return text.replace(/^ +| +$/g, '');
}

/** What may follow a value on its line: nothing, or a comment after whitespace. */
function comment(rest: string): void {
  if (!/^(?: +#.*)? *$/.test(rest)) doubt();
}

/** A plain scalar, resolved by YAML 1.2's core schema as `yaml` does. */
function plain(text: string): unknown {
  // No indicator at the start (`-`, `?` and `:` only before a character that is not a space), no `: ` and no
  // `:` at the end.
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(text) && !/^[-?:][^ ]/.test(text)) doubt();
  if (text.includes(': ') || text.endsWith(':')) doubt();
  if (/^(?:~|[Nn]ull|NULL)$/.test(text)) return null;
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(text)) return text[0] === 't' || text[0] === 'T';
  if (/^0o[0-7]+$/.test(text)) return parseInt(text.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(text)) return parseInt(text, 10);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return parseInt(text.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(text))
    return text.slice(-3).toLowerCase() === 'nan' ? NaN : text[0] === '-' ? -Infinity : Infinity;
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(text)) return parseFloat(text);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(text)) return parseFloat(text);
  return text;
}

const ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r', '0': '\0' };

/** A quoted scalar that closes on this line: its value and the index after its closing quote. */
function quoted(text: string, start: number): { value: string; end: number } {
  const quote = text[start]!;
  let value = '';
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === quote) {
      if (quote === "'" && text[i + 1] === "'") {
        value += "'";
        i++;
        continue;
      }
      return { value, end: i + 1 };
    }
    if (quote === '"' && c === '\\') {
      const e = text[++i];
      if (e !== undefined && Object.hasOwn(ESCAPES, e)) value += ESCAPES[e];
      else if (e === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
        value += String.fromCharCode(parseInt(text.slice(i + 1, i + 3), 16));
        i += 2;
      } else doubt();
      continue;
    }
    value += c;
  }
  return doubt(); // it goes on on the next line
}
