import { describe, expect, it } from 'vitest';
import { roundsOf } from '../../bench/lib/rounds.mjs';

const own = {
  warmups: (o: { quick: boolean }) => (o.quick ? 3 : 100),
  iterations: (o: { quick: boolean }) => (o.quick ? 10 : 300),
};

describe('bench rounds', () => {
  it('uses the defaults, or the quick ones, for a group without its own counts', () => {
    expect(roundsOf({}, { quick: false, warmups: null, iterations: null })).toEqual({ warmups: 2, iterations: 15 });
    expect(roundsOf({}, { quick: true, warmups: null, iterations: null })).toEqual({ warmups: 1, iterations: 3 });
  });

  it("uses a group's own counts when no flag is given", () => {
    expect(roundsOf(own, { quick: false, warmups: null, iterations: null })).toEqual({ warmups: 100, iterations: 300 });
    expect(roundsOf(own, { quick: true, warmups: null, iterations: null })).toEqual({ warmups: 3, iterations: 10 });
  });

  it("lets --warmups and --iterations win over a group's own counts", () => {
    expect(roundsOf(own, { quick: false, warmups: 5, iterations: 40 })).toEqual({ warmups: 5, iterations: 40 });
    expect(roundsOf(own, { quick: false, warmups: 0, iterations: null })).toEqual({ warmups: 0, iterations: 300 });
  });

  it('gives a group that derives its counts from the defaults those defaults', () => {
    const capped = { iterations: (o: { iterations: number }) => Math.min(o.iterations, 7) };
    expect(roundsOf(capped, { quick: false, warmups: null, iterations: null })).toEqual({ warmups: 2, iterations: 7 });
    expect(roundsOf(capped, { quick: false, warmups: null, iterations: 20 })).toEqual({ warmups: 2, iterations: 20 });
  });
});
