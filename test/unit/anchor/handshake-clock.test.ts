import { describe, expect, it } from 'vitest';
import { handshakeNow } from '../../../src/records/handshake.js';

// Issue 12, item 7: a clock set backwards does not revive an expired handshake. The instant a handshake is
// judged at never goes below a time already recorded for it, and real time passing counts.

const T0 = Date.parse('2026-11-20T10:00:00.000Z');
const M = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('handshakeNow', () => {
  it('is the clock when nothing later was recorded', () => {
    expect(handshakeNow({ updated_at: iso(T0) }, new Date(T0 + 5 * M), T0).toISOString()).toBe(iso(T0 + 5 * M));
  });

  it('never goes below the last update, the latest instant seen, or a recorded session time', () => {
    const hs = { updated_at: iso(T0 + 10 * M), seen_at: iso(T0 + 120 * M), seen_real_at: iso(T0) };
    expect(handshakeNow(hs, new Date(T0 + 30 * M), T0).toISOString()).toBe(iso(T0 + 120 * M));
    expect(handshakeNow({ updated_at: iso(T0) }, new Date(T0), T0, [iso(T0 + 90 * M), null]).toISOString()).toBe(
      iso(T0 + 90 * M),
    );
  });

  it('adds the real time that passed since it was last seen (a pinned clock cannot hide it)', () => {
    const real = Date.parse('2026-11-23T08:00:00.000Z');
    const hs = { updated_at: iso(T0), seen_at: iso(T0), seen_real_at: iso(real) };
    expect(handshakeNow(hs, new Date(T0 + 30 * M), real + 120 * M).toISOString()).toBe(iso(T0 + 120 * M));
    // A system clock set backwards (real time before the recorded one) adds nothing and takes nothing away.
    expect(handshakeNow(hs, new Date(T0 + 30 * M), real - 600 * M).toISOString()).toBe(iso(T0 + 30 * M));
  });
});
