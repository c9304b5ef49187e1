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
    return new Promise((resolve, reject) => {
      const json = serializeMessage(message);
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

  private deliver(value: unknown): void {
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch (error) {
      this.onerror?.(error as Error);
      return;
    }
    try {
      this.onmessage?.(message);
    } catch (error) {
      // As the SDK's transport does: reported, and the next line is read (never an uncaught exception).
      this.onerror?.(error as Error);
    }
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
