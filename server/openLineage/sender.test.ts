import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './sender';

// The sender's backoff (issue 41, item 4): a collector that is down is asked again later and later,
// never more often than the base delay and never less often than once an hour.

describe('retryDelayMs', () => {
  it('waits the base delay after the first failure, then doubles', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 30_000))).toEqual([30_000, 60_000, 120_000, 240_000]);
  });

  it('never waits more than an hour, and never less than the base', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 10_000 }), fc.integer({ min: 1, max: 3_600_000 }), (attempts, base) => {
        const delay = retryDelayMs(attempts, base);
        expect(delay).toBeGreaterThanOrEqual(Math.min(base, 3_600_000));
        expect(delay).toBeLessThanOrEqual(3_600_000);
        expect(Number.isFinite(delay)).toBe(true);
      }),
    );
  });
});
