import { describe, expect, it } from 'vitest';
import { idFromEdges, LineGate } from '../../src/mcp/line-gate.js';

function run(chunks: string[], maxLine = 64) {
  const seen: string[] = [];
  const gate = new LineGate(
    {
      line: (line) => seen.push(`line ${line.toString()}`),
      notJson: (preview, bytes) => seen.push(`notJson ${bytes} ${preview}`),
      oversized: (bytes, id) => seen.push(`oversized ${bytes} ${JSON.stringify(id)}`),
    },
    maxLine,
  );
  for (const chunk of chunks) gate.push(Buffer.from(chunk));
  gate.end();
  return seen;
}

describe('LineGate (the first reader of hestai mcp stdin)', () => {
  it('reassembles lines split across chunks and passes JSON objects and arrays on unchanged', () => {
    expect(run(['{"a":', '1}\n[1,', '2]\r\n', '\n  \n{"b":2}'])).toEqual([
      'line {"a":1}',
      'line [1,2]\r',
      'line {"b":2}',
    ]);
  });

  it('reports non-JSON lines and JSON scalars with their size and a quoted preview', () => {
    expect(run(['nope {\n42\n"x"\n'])).toEqual(['notJson 6 "nope {"', 'notJson 2 "42"', 'notJson 3 "\\"x\\""']);
  });

  it('drops a line over the limit as it streams in, recovers the id from its edges, and goes on', () => {
    const big = `{"jsonrpc":"2.0","method":"tools/call","params":{"x":"${'y'.repeat(200)}"},"id":7}`;
    expect(run([big.slice(0, 50), big.slice(50), '\n{"ok":1}\n'])).toEqual([
      `oversized ${big.length} 7`,
      'line {"ok":1}',
    ]);
    expect(run([`{"jsonrpc":"2.0","id":"abc","params":"${'z'.repeat(100)}"}\n`])).toEqual([
      expect.stringMatching(/^oversized \d+ "abc"$/),
    ]);
    expect(run([`${'q'.repeat(100)}\n`])).toEqual(['oversized 100 null']);
  });

  it('reads ids only where a JSON-RPC message keeps them', () => {
    expect(idFromEdges('{"jsonrpc":"2.0","id":12,"method":"x"', '')).toBe(12);
    expect(idFromEdges('{"method":"x","params":{"id":5', '"y"}')).toBeNull();
    expect(idFromEdges('', ',"jsonrpc":"2.0","id":"r-1"}')).toBe('r-1');
  });
});
