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

describe('job end and retry rules, each bound by hand (mutation testing, issue 40)', () => {
  it('reads a timeout that is no finite positive number as 300 s, and caps one at a day', () => {
    for (const timeout of [Number.NaN, Infinity, -Infinity, -5, '12', null, undefined]) expect(effectiveTimeoutSeconds(timeout), String(timeout)).toBe(300);
    expect(effectiveTimeoutSeconds(1e9)).toBe(86_400);
  });

  it('gives one attempt for retries that are no finite positive number, and at most 21', () => {
    for (const retries of [Number.NaN, Infinity, -1, 0, '2', null]) expect(maxAttemptsOf(retries), String(retries)).toBe(1);
    expect(maxAttemptsOf(2.7)).toBe(3);
    expect(maxAttemptsOf(100)).toBe(21);
  });

  it('ends a job that could not start as an error', () => {
    expect(endStatusOf({ reason: 'SPAWN_FAILED', exitCode: null })).toBe('ERROR');
  });

  it('retries only from a whole attempt of at least 1, below a whole maximum', () => {
    expect(shouldRetry('ERROR', 0, 3)).toBe(false);
    expect(shouldRetry('ERROR', 1.5, 3)).toBe(false);
    expect(shouldRetry('ERROR', 1, 2.5)).toBe(false);
    expect(shouldRetry('ERROR', 2, 3)).toBe(true);
  });

  it('waits base × 2^(n-1) before attempt n+1, none for a base that is no finite positive number, at most ten minutes', () => {
    expect([1, 2, 3.7, 0, Number.NaN].map((attempt) => retryDelayMs(attempt, 1000))).toEqual([1000, 2000, 4000, 1000, 1000]);
    expect(retryDelayMs(25, 0.001)).toBeCloseTo(1048.576, 9);
    expect(retryDelayMs(20, 1000)).toBe(600_000);
    for (const base of [Number.NaN, Infinity, 0, -1]) expect(retryDelayMs(2, base), String(base)).toBe(0);
  });
});
