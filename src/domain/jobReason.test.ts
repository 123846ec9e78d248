import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, HUGE_TEXTS } from './hostile.fixture';
import { jobReason, MAX_REASON_LINE } from './jobReason';

describe('jobReason', () => {
  it('names who started a manual run', () => {
    expect(jobReason({ triggeredBy: null, _embedded: { profile: { email: 'owner@example.com' } } })).toBe('Started by owner@example.com');
    expect(jobReason({ triggeredBy: 'manual', _embedded: { profile: { email: 'owner@example.com' } } })).toBe('Started by owner@example.com');
    expect(jobReason({ triggeredBy: 'manual: Demo Owner' })).toBe('Started by Demo Owner');
    expect(jobReason({ triggeredBy: 'verification: Demo Owner' })).toBe('Verification started by Demo Owner');
  });

  it('names the pipeline whose job triggered it', () => {
    expect(jobReason({ triggeredBy: 'pipeline Orders' })).toBe('Triggered by pipeline Orders');
  });

  it('names the schedule slot', () => {
    expect(jobReason({ triggeredBy: 'schedule 2026-01-01 00:00' })).toBe('Scheduled: 2026-01-01 00:00');
  });

  it('says which attempt a retry is', () => {
    expect(jobReason({ triggeredBy: 'pipeline A', attempt: 2, maxAttempts: 3 })).toBe('Triggered by pipeline A (attempt 2 of 3)');
    expect(jobReason({ attempt: 1, maxAttempts: 1 })).toBe('Started');
  });

  it('keeps the line bounded when a server sends a long cause and huge attempt numbers', () => {
    const text = jobReason({ triggeredBy: `verification: ${'x'.repeat(500)}`, attempt: Number.MAX_SAFE_INTEGER, maxAttempts: Number.MAX_SAFE_INTEGER });
    expect(text.length).toBe(MAX_REASON_LINE);
    expect(text.endsWith('…')).toBe(true);
  });

  it('is one bounded line for any input', () => {
    fc.assert(
      fc.property(fc.oneof(hostileString, fc.constantFrom(...HUGE_TEXTS)), hostileString, fc.anything(), fc.anything(), (cause, email, attempt, max) => {
        const text = jobReason({ triggeredBy: cause, attempt: attempt as number, maxAttempts: max as number, _embedded: { profile: { email } } });
        expect(text).not.toMatch(/[\n\r]/);
        expect(text.length).toBeLessThanOrEqual(MAX_REASON_LINE);
      }),
    );
  });
});
