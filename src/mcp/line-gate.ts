/**
 * The first reader of `hestai mcp`'s stdin, in front of the SDK's transport (which silently skips a line
 * that is not JSON and closes the connection, exit 0, on a line over its buffer size). It splits the
 * byte stream into lines, never holding more than `maxLine` bytes of one line, and sorts them:
 *
 * - a JSON object or array: passed on, unchanged, to the SDK;
 * - an empty line: ignored;
 * - anything else (not JSON, or a JSON scalar): reported, so the adapter answers `-32700` (id null) and
 *   writes one stderr line;
 * - a line over `maxLine` bytes: dropped as it streams past, then reported with the request id when one can
 *   be read from its first or last bytes (so the client's pending request is answered, not left hanging).
 *
 * Pure of I/O: the adapter (stdio.ts) feeds chunks and acts on the callbacks.
 */
export interface LineGateEvents {
  /** A JSON line, and what `JSON.parse` made of it (an object or an array), so nobody parses it again. */
  line(line: Buffer, parsed: object): void;
  notJson(preview: string, bytes: number, reason: string): void;
  oversized(bytes: number, id: string | number | null): void;
}

export const MAX_LINE_BYTES = 10 * 1024 * 1024;
const EDGE = 4096;

/** A request id read from the edges of a line too large to parse, or null. */
export function idFromEdges(head: string, tail: string): string | number | null {
  const value = /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")/;
  // The TypeScript SDK writes `"id"` last, the Python SDK right after `"jsonrpc"`.
  const fromTail = new RegExp(`${value.source}\\s*}\\s*$`).exec(tail);
  const fromHead =
    new RegExp(`^\\s*\\{\\s*"jsonrpc"\\s*:\\s*"2\\.0"\\s*,\\s*${value.source}`).exec(head) ??
    new RegExp(`^\\s*\\{\\s*${value.source}`).exec(head);
  const raw = fromTail?.[1] ?? fromHead?.[1];
  if (raw === undefined) return null;
  try {
    return JSON.parse(raw) as string | number;
  } catch {
    return null;
  }
}

export class LineGate {
  private parts: Buffer[] = [];
  private size = 0;
  private head: Buffer | null = null;
  private tail: Buffer = Buffer.alloc(0);

  constructor(
    private readonly events: LineGateEvents,
    private readonly maxLine: number = MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) {
        this.take(chunk.subarray(start));
        return;
      }
      this.take(chunk.subarray(start, nl));
      this.finish();
      start = nl + 1;
    }
  }

  /** The end of input: a last line without a newline is judged like the others. */
  end(): void {
    if (this.size > 0 || this.head !== null) this.finish();
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.head === null && this.size + piece.length <= this.maxLine) {
      this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    if (this.head === null) {
      // Over the limit: keep only the edges (for the id), never the line.
      const all = Buffer.concat(this.parts);
      this.head = Buffer.concat([all, piece]).subarray(0, EDGE);
      this.parts = [];
    }
    this.size += piece.length;
    const joined = Buffer.concat([this.tail, piece]);
    this.tail = joined.subarray(Math.max(0, joined.length - EDGE));
  }

  private finish(): void {
    const head = this.head;
    const size = this.size;
    const line = head !== null ? null : this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
    const tail = this.tail;
    this.parts = [];
    this.size = 0;
    this.head = null;
    this.tail = Buffer.alloc(0);
    if (line === null) {
      this.events.oversized(size, idFromEdges(head!.toString('utf8'), tail.toString('utf8')));
      return;
    }
    const text = line.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      this.events.notJson(preview(text), line.length, (error as Error).message);
      return;
    }
    if (parsed === null || typeof parsed !== 'object') {
      this.events.notJson(preview(text), line.length, 'a JSON-RPC message is an object (or a batch array)');
      return;
    }
    this.events.line(line, parsed);
  }
}

/** The start of a line, JSON-quoted (control characters visible), for one stderr line. */
function preview(text: string, max = 80): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}
