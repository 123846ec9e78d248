import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS, effectiveTimeoutSeconds, endStatusOf, maxAttemptsOf, retryDelayMs, shouldRetry } from './jobStatus';

describe('job end and retry rules', () => {
  it('0 means 300 s', () => {
    expect(effectiveTimeoutSeconds(0)).toBe(DEFAULT_TIMEOUT_SECONDS);
    expect(effectiveTimeoutSeconds(12)).toBe(12);
    expect(effectiveTimeoutSeconds(1.2)).toBe(2);
  });
  it('maps outcomes to statuses', () => {
    expect(endStatusOf({ reason: 'EXITED', exitCode: 0 })).toBe('COMPLETE');
    expect(endStatusOf({ reason: 'EXITED', exitCode: 2 })).toBe('ERROR');
    expect(endStatusOf({ reason: 'EXITED', exitCode: null })).toBe('ERROR');
    expect(endStatusOf({ reason: 'TIMEOUT', exitCode: null })).toBe('STOPPED');
    expect(endStatusOf({ reason: 'WITHDRAWN', exitCode: 143 })).toBe('STOPPED');
    expect(endStatusOf({ reason: 'RUNNER_LOST', exitCode: null })).toBe('ERROR');
  });
  it('retries only errors while attempts remain', () => {
    expect(maxAttemptsOf(2)).toBe(3);
    expect(shouldRetry('ERROR', 1, 3)).toBe(true);
    expect(shouldRetry('ERROR', 3, 3)).toBe(false);
    expect(shouldRetry('STOPPED', 1, 3)).toBe(false);
    expect(shouldRetry('COMPLETE', 1, 3)).toBe(false);
  });
  it('stays in bounds on any input', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.double(), fc.double(), (a, b, attempt, base) => {
        const t = effectiveTimeoutSeconds(a);
        expect(t).toBeGreaterThan(0);
        expect(t).toBeLessThanOrEqual(MAX_TIMEOUT_SECONDS);
        const m = maxAttemptsOf(b);
        expect(Number.isInteger(m) && m >= 1 && m <= 21).toBe(true);
        const d = retryDelayMs(attempt, base);
        expect(d >= 0 && d <= 600_000).toBe(true);
        // a retry never exceeds the attempts
        for (let i = 1; i <= m + 1; i++) expect(shouldRetry('ERROR', i, m)).toBe(i < m);
      }),
    );
  });
});
