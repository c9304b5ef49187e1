import {
  parseJSONRPCMessage,
  serializeMessage,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';
import { LineGate, type LineGateEvents } from './line-gate.js';

type Input = NodeJS.ReadableStream & { pause(): unknown };
type Output = NodeJS.WritableStream & import('node:stream').Writable;

/**
 * The stdio transport of `hestai mcp`: stdin is read by a {@link LineGate} (one `JSON.parse` per line, lines
 * bounded, what is not JSON reported), every JSON line it passes becomes a message checked by the SDK's own
 * JSON-RPC schema (`parseJSONRPCMessage`, what the SDK's `StdioServerTransport` applies to each line), and each
 * message sent is one line on stdout, written as the SDK's transport writes it (waiting for `drain` when the
 * pipe is full).
 *
 * It replaces the SDK's `StdioServerTransport` fed through a `PassThrough`, which parsed every line a second time
 * and passed it through two more streams: part of the cost of a warm call (issue 14, speed). Same outcomes: a
 * line that is JSON but not a JSON-RPC message goes to `onerror` (serveStdio reports it) and is otherwise
 * ignored; the end of stdin closes the transport (after judging a last line without a newline); a write error
 * after close is swallowed.
 */
export class GatedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly gate: LineGate;
  private started = false;
  private closed = false;
  /** The protocol revision the initialize answer named (batches exist only in 2025-03-26). */
  private revision: string | null = null;
  /** Batches being answered: the ids still awaited and the responses so far, answered as one array. */
  private readonly batches: Array<{ waiting: Set<string | number>; responses: JSONRPCMessage[] }> = [];

  constructor(
    private readonly stdin: Input,
    private readonly stdout: Output,
    events: Pick<LineGateEvents, 'notJson' | 'oversized'>,
    maxLine?: number,
  ) {
    this.gate = new LineGate({ ...events, line: (_line, parsed) => this.deliver(parsed) }, maxLine);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('GatedStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.ondata);
    this.stdin.on('error', this.oninputerror);
    this.stdin.on('end', this.onend);
    this.stdin.on('close', this.oninputclose);
    this.stdout.on('error', this.onoutputerror);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the stdio transport is closed'));
    const m = message as { id?: unknown; result?: { protocolVersion?: unknown } };
    if (typeof m.result?.protocolVersion === 'string') this.revision = m.result.protocolVersion;
    if ((typeof m.id === 'string' || typeof m.id === 'number') && !('method' in message)) {
      const batch = this.batches.find((b) => b.waiting.has(m.id as string | number));
      if (batch !== undefined) {
        batch.waiting.delete(m.id as string | number);
        batch.responses.push(message);
        if (batch.waiting.size > 0) return Promise.resolve();
        this.batches.splice(this.batches.indexOf(batch), 1);
        return this.write(`${JSON.stringify(batch.responses)}\n`);
      }
    }
    return this.write(serializeMessage(message));
  }

  private write(json: string): Promise<void> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const onError = (error: Error) => {
        if (settled) return;
        settled = true;
        this.stdout.off('drain', onDrain);
        reject(error);
      };
      const onDrain = () => {
        if (settled) return;
        settled = true;
        this.stdout.off('error', onError);
        resolve();
      };
      this.stdout.once('error', onError);
      if (this.stdout.write(json)) {
        if (settled) return;
        settled = true;
        this.stdout.off('error', onError);
        resolve();
      } else if (!settled) this.stdout.once('drain', onDrain);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.ondata);
    this.stdin.off('error', this.oninputerror);
    this.stdin.off('end', this.onend);
    this.stdin.off('close', this.oninputclose);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.onclose?.();
  }

  /** An Invalid Request error (-32600) for a message that cannot be answered by its own id. */
  private invalid(id: string | number | null, message: string): void {
    void this.write(serializeMessage({ jsonrpc: '2.0', id, error: { code: -32600, message } } as never)).catch(
      (error: Error) => this.onerror?.(error),
    );
  }

  private deliver(value: unknown): void {
    if (Array.isArray(value)) return this.deliverBatch(value);
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch (error) {
      this.onerror?.(error as Error);
      // A request (it has an id, or a method and an id key) is answered, with its id when that is one.
      if (value !== null && typeof value === 'object' && 'id' in value) {
        const id = (value as { id: unknown }).id;
        const usable = typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
        this.invalid(
          usable ? (id as string | number) : null,
          usable
            ? 'Invalid Request: not a JSON-RPC 2.0 request'
            : 'Invalid Request: a request id must be a string or an integer',
        );
      }
      return;
    }
    try {
      this.onmessage?.(message);
    } catch (error) {
      // As the SDK's transport does: reported, and the next line is read (never an uncaught exception).
      this.onerror?.(error as Error);
    }
  }

  /**
   * A JSON-RPC batch: in protocol revision 2025-03-26 (the only one with batches) each member is delivered and
   * the responses to its requests are written as one array (none when it held only notifications); in every
   * other revision, and for an empty batch, one Invalid Request error with id null.
   */
  private deliverBatch(members: unknown[]): void {
    if (this.revision !== '2025-03-26' || members.length === 0) {
      this.invalid(
        null,
        members.length === 0
          ? 'Invalid Request: an empty batch'
          : `Invalid Request: JSON-RPC batches are not supported in protocol revision ${this.revision ?? '(not negotiated)'}; send one message per line`,
      );
      return;
    }
    const ids = members
      .map((m) => (m !== null && typeof m === 'object' && 'method' in m ? (m as { id?: unknown }).id : undefined))
      .filter((id): id is string | number => typeof id === 'string' || typeof id === 'number');
    if (ids.length > 0) this.batches.push({ waiting: new Set(ids), responses: [] });
    for (const member of members) this.deliver(member);
  }

  private readonly ondata = (chunk: Buffer | string): void => {
    this.gate.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  };

  private readonly onend = (): void => {
    if (this.closed) return;
    this.gate.end();
    void this.close();
  };

  private readonly oninputclose = (): void => {
    void this.close();
  };

  private readonly oninputerror = (error: Error): void => {
    this.onerror?.(error);
  };

  // Stays attached after close: a late write failure (the client went away) is swallowed, never thrown.
  private readonly onoutputerror = (error: Error): void => {
    if (this.closed) return;
    this.onerror?.(error);
    void this.close();
  };
}
