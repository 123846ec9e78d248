import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CRON_MESSAGES, cronError, DAILY_CRON, HOURLY_CRON, isManualSchedule, nextRuns, toSixFieldCron } from './cron';
import { HUGE_TEXTS, hostileStringWithHuge } from './hostile.fixture';

describe('cronError', () => {
  it.each([HOURLY_CRON, DAILY_CRON, '0 0 9-17 * * MON-FRI', '0 */15 * * * *', '30 5 4 1 1 *', ' 0  0 0 * * * '])('accepts %s', (cron) => {
    expect(cronError(cron)).toBeUndefined();
  });

  it('takes a blank schedule as manual', () => {
    for (const blank of [null, undefined, '', '   ']) {
      expect(cronError(blank)).toBeUndefined();
      expect(isManualSchedule(blank)).toBe(true);
    }
  });

  it.each([
    ['0 * * * *', CRON_MESSAGES.fields],
    ['0 0 0 * * * 2030', CRON_MESSAGES.fields],
    ['@daily', CRON_MESSAGES.fields],
    ['61 * * * * *', CRON_MESSAGES.invalid],
    ['0 0 25 * * *', CRON_MESSAGES.invalid],
    ['a b c d e f', CRON_MESSAGES.invalid],
    ['0 0 0 31 2 *', CRON_MESSAGES.never],
  ])('refuses %s', (cron, message) => {
    expect(cronError(cron)).toBe(message);
  });

  it('never throws and answers a message or nothing for any text, hostile included', () => {
    for (const text of HUGE_TEXTS) expect(cronError(text)).toBe(CRON_MESSAGES.fields);
    fc.assert(
      fc.property(fc.oneof(hostileStringWithHuge, fc.string({ maxLength: 300 })), (text) => {
        const error = cronError(text);
        expect(error === undefined || (Object.values(CRON_MESSAGES) as string[]).includes(error)).toBe(true);
      }),
    );
  });

  it('accepts every expression built from valid fields', () => {
    const field = (max: number) => fc.oneof(fc.constant('*'), fc.integer({ min: 0, max }).map(String), fc.integer({ min: 1, max: 5 }).map((n) => `*/${n}`));
    fc.assert(
      fc.property(field(59), field(59), field(23), fc.constantFrom('*', '1', '15', '28'), fc.constantFrom('*', '1', '6', '12'), fc.constantFrom('*', '0', '1-5', 'MON'), (...fields) => {
        expect(cronError(fields.join(' '))).toBeUndefined();
      }),
    );
  });
});

describe('toSixFieldCron', () => {
  it('adds the seconds field to a 5-field expression and normalises spaces', () => {
    expect(toSixFieldCron('0 9 * * 1')).toBe('0 0 9 * * 1');
    expect(toSixFieldCron(' 0  0 0 * * * ')).toBe(DAILY_CRON);
  });

  it('makes every valid 5-field expression a valid stored schedule', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 23 }), (minute, hour) => {
        expect(cronError(toSixFieldCron(`${minute} ${hour} * * *`))).toBeUndefined();
      }),
    );
  });
});

describe('nextRuns', () => {
  const from = new Date('2024-05-01T10:30:00Z');
  it('lists the next runs in UTC', () => {
    expect(nextRuns(HOURLY_CRON, 3, from).map((d) => d.toISOString())).toEqual(['2024-05-01T11:00:00.000Z', '2024-05-01T12:00:00.000Z', '2024-05-01T13:00:00.000Z']);
    expect(nextRuns(DAILY_CRON, 1, from).map((d) => d.toISOString())).toEqual(['2024-05-02T00:00:00.000Z']);
  });

  it('lists nothing for a manual or invalid schedule, or a hostile count', () => {
    expect(nextRuns('', 3, from)).toEqual([]);
    expect(nextRuns('nope', 3, from)).toEqual([]);
    expect(nextRuns(HOURLY_CRON, Number.NaN, from)).toEqual([]);
    expect(nextRuns(HOURLY_CRON, 1e9, from)).toHaveLength(100);
  });

  it('answers increasing times after `from`', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2000-01-01'), max: new Date('2090-01-01'), noInvalidDate: true }), (start) => {
        const runs = nextRuns('0 */7 * * * *', 3, start);
        expect(runs).toHaveLength(3);
        let previous = start.getTime();
        for (const run of runs) {
          expect(run.getTime()).toBeGreaterThan(previous);
          previous = run.getTime();
        }
      }),
      { numRuns: 50 },
    );
  });
});
