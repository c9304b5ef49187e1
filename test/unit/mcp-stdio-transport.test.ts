import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { GatedStdioTransport } from '../../src/mcp/stdio-transport.js';

function transport() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const seen: string[] = [];
  const wire = new GatedStdioTransport(stdin, stdout, {
    notJson: (preview) => seen.push(`notJson ${preview}`),
    oversized: (bytes) => seen.push(`oversized ${bytes}`),
  });
  wire.onerror = (error) => seen.push(`error ${error.message.slice(0, 40)}`);
  wire.onclose = () => seen.push('close');
  return { stdin, stdout, seen, wire };
}

describe('GatedStdioTransport (hestai mcp stdio)', () => {
  it('delivers each JSON-RPC line once, reports JSON that is not JSON-RPC, and closes at the end of stdin', async () => {
    const { stdin, seen, wire } = transport();
    wire.onmessage = (message) => seen.push(`message ${JSON.stringify(message)}`);
    await wire.start();
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"pi');
    stdin.write('ng"}\n{"not":"rpc"}\nnope\n');
    stdin.end('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen[0]).toBe('message {"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(seen[1]).toBe('message {"jsonrpc":"2.0","id":2,"method":"ping"}');
    expect(seen[2]).toMatch(/^error /);
    expect(seen[3]).toBe('notJson "nope"');
    expect(seen[4]).toBe('message {"jsonrpc":"2.0","method":"notifications/initialized"}');
    expect(seen[5]).toBe('close');
  });

  it('reports a message handler that throws and keeps reading (never an uncaught exception)', async () => {
    const { stdin, seen, wire } = transport();
    wire.onmessage = (message) => {
      if ((message as { id?: number }).id === 1) throw new Error('handler failed');
      seen.push(`message ${(message as { id?: number }).id}`);
    };
    await wire.start();
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['error handler failed', 'message 2']);
  });

  it('writes one line per message and refuses to send after close', async () => {
    const { stdout, wire } = transport();
    await wire.start();
    const out: string[] = [];
    stdout.on('data', (chunk: Buffer) => out.push(chunk.toString()));
    await wire.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect(out.join('')).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');
    await wire.close();
    await expect(wire.send({ jsonrpc: '2.0', id: 2, result: {} })).rejects.toThrow(/closed/);
  });
});
