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

describe('jobReason, at its edges', () => {
  it('no one named: "someone", or the schedule', () => {
    expect(jobReason({ triggeredBy: 'manual:', _embedded: { profile: null } })).toBe('Started by someone');
    expect(jobReason({ triggeredBy: 'verification:' })).toBe('Verification started by someone');
    expect(jobReason({ triggeredBy: 'schedule' })).toBe('Scheduled: on schedule');
    expect(jobReason({ _embedded: { profile: null } })).toBe('Started');
    expect(jobReason({ triggeredBy: 'manual: ', _embedded: { profile: { email: 'ann@example.com' } } })).toBe('Started by ann@example.com');
    expect(jobReason({ triggeredBy: 'verification:', _embedded: { profile: { email: 'ann@example.com' } } })).toBe('Verification started by ann@example.com');
  });

  it('a bare "manual" names the profile only when there is one; another cause is shown as it is', () => {
    expect(jobReason({ triggeredBy: 'manual' })).toBe('manual');
    expect(jobReason({ triggeredBy: 'Manual', _embedded: { profile: { email: 'ann@example.com' } } })).toBe('Started by ann@example.com');
    expect(jobReason({ triggeredBy: 'api call', _embedded: { profile: { email: 'ann@example.com' } } })).toBe('api call');
  });

  it('the attempt is shown for whole counts from 1, with a maximum above 1', () => {
    expect(jobReason({ triggeredBy: 'api', attempt: 1, maxAttempts: 3 })).toBe('api (attempt 1 of 3)');
    expect(jobReason({ triggeredBy: 'api', attempt: null, maxAttempts: 3 })).toBe('api');
    expect(jobReason({ triggeredBy: 'api', attempt: 2, maxAttempts: null })).toBe('api');
    expect(jobReason({ triggeredBy: 'api', attempt: 1.5, maxAttempts: 3 })).toBe('api');
    expect(jobReason({ triggeredBy: 'api', attempt: 0, maxAttempts: 3 })).toBe('api');
    expect(jobReason({ triggeredBy: 'api', attempt: 2, maxAttempts: 2.5 })).toBe('api');
  });

  it('control characters are one space, the cause is trimmed and cut at 200 characters', () => {
    expect(jobReason({ triggeredBy: '  a\n\r\tb\u007fc  ' })).toBe('a b c');
    expect(jobReason({ triggeredBy: 'x'.repeat(200) })).toBe('x'.repeat(200));
    expect(jobReason({ triggeredBy: 'x'.repeat(201) })).toBe(`${'x'.repeat(199)}…`);
  });

  it('the whole line is cut past 240 characters', () => {
    const cause = `pipeline ${'p'.repeat(191)}`; // 200 characters
    // 'Triggered by ' (13) + 200 + ' (attempt 100000 of 100000)' (27) = 240
    expect(jobReason({ triggeredBy: cause, attempt: 100000, maxAttempts: 100000 })).toBe(`Triggered by ${cause} (attempt 100000 of 100000)`);
    const long = jobReason({ triggeredBy: cause, attempt: 1000000, maxAttempts: 100000 });
    expect(long).toBe(`${`Triggered by ${cause} (attempt 1000000 of 100000)`.slice(0, 239)}…`);
    expect(long).toHaveLength(240);
  });
});
