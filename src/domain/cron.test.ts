import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAILY_CRON, HOURLY_CRON, MAX_CRON_LENGTH, SCHEDULE_PRESETS, checkCron, checkSchedule, dueSlot, nextRunTimes, scheduleChoiceOf } from './cron';

const at = (iso: string) => new Date(iso);

describe('presets and choices', () => {
  it('offers Manual, Hourly, Daily and Custom with the stored 6-field crons of spec 001 §5', () => {
    expect(SCHEDULE_PRESETS.map((p) => [p.label, p.cron])).toEqual([
      ['Manual', null],
      ['Hourly', '0 0 * * * *'],
      ['Daily', '0 0 0 * * *'],
      ['Custom', undefined],
    ]);
  });

  it('reads a stored schedule back as the form choice', () => {
    expect(scheduleChoiceOf(null)).toBe('MANUAL');
    expect(scheduleChoiceOf('  ')).toBe('MANUAL');
    expect(scheduleChoiceOf(HOURLY_CRON)).toBe('HOURLY');
    expect(scheduleChoiceOf(' 0  0 0 * * * ')).toBe('DAILY');
    expect(scheduleChoiceOf('0 0 9-17 * * MON-FRI')).toBe('CUSTOM');
  });
});

describe('checkCron', () => {
  it('accepts 6 fields and adds the seconds field to 5', () => {
    expect(checkCron('0 0 9-17 * * MON-FRI')).toEqual({ ok: true, cron: '0 0 9-17 * * MON-FRI' });
    expect(checkCron('30 2 * * *')).toEqual({ ok: true, cron: '0 30 2 * * *' });
    expect(checkCron('  0   0 0 * * *  ')).toEqual({ ok: true, cron: DAILY_CRON });
  });

  it('says what is wrong in words the form can show', () => {
    const message = (input: unknown, rules = {}) => {
      const result = checkCron(input, rules);
      return result.ok ? undefined : result.message;
    };
    expect(message('')).toMatch(/Enter a cron expression/);
    expect(message('0 0 0 * * * 2030')).toMatch(/6 fields .* this one has 7/);
    expect(message('* *')).toMatch(/this one has 2/);
    expect(message('0 0 25 * * *')).toMatch(/^Invalid cron expression: .*hour/);
    expect(message('0 0 0 31 2 *')).toMatch(/never runs/);
    expect(message('*/10 * * * * *', { atMostOncePerMinute: true })).toMatch(/once a minute/);
    expect(message('0 */10 * * * *', { atMostOncePerMinute: true })).toBeUndefined();
    expect(message('0 0 0 * * *\u0000')).toMatch(/contains only/);
    expect(message('x'.repeat(MAX_CRON_LENGTH + 1))).toMatch(/at most/);
    expect(message(42)).toMatch(/must be a cron expression/);
    expect(message('0 0 0 * * *', { timezone: 'Nowhere/Land' })).toMatch(/^Invalid cron expression/);
  });

  it('never throws on hostile text, and whatever it accepts has 6 fields and a next run', () => {
    const cronish = fc.stringMatching(/^[0-9*,\-/?#LW A-Z]{0,40}$/);
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 80 }), cronish, fc.anything()), (input) => {
        const result = checkCron(input);
        if (result.ok) {
          expect(result.cron.split(' ')).toHaveLength(6);
          expect(nextRunTimes(result.cron, 1, new Date(0))).toHaveLength(1);
        } else {
          expect(result.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('is idempotent: a stored cron checks to itself', () => {
    const field = (max: number) => fc.oneof(fc.constant('*'), fc.integer({ min: 0, max }).map(String), fc.integer({ min: 1, max }).map((n) => `*/${n}`));
    fc.assert(
      fc.property(fc.tuple(field(59), field(59), field(23), fc.constant('*'), fc.constant('*'), fc.oneof(fc.constant('*'), fc.constant('MON-FRI'))), (fields) => {
        const first = checkCron(fields.join(' '));
        expect(first.ok).toBe(true);
        if (first.ok) expect(checkCron(first.cron)).toEqual(first);
      }),
    );
  });
});

describe('nextRunTimes', () => {
  it('gives the next three runs after a moment, in UTC', () => {
    expect(nextRunTimes(DAILY_CRON, 3, at('2026-03-01T10:00:00Z'))).toEqual([at('2026-03-02T00:00:00Z'), at('2026-03-03T00:00:00Z'), at('2026-03-04T00:00:00Z')]);
    expect(nextRunTimes(HOURLY_CRON, 3, at('2026-03-01T10:00:00Z'))).toEqual([at('2026-03-01T11:00:00Z'), at('2026-03-01T12:00:00Z'), at('2026-03-01T13:00:00Z')]);
    expect(nextRunTimes('0 0 9 * * MON', 2, at('2026-03-01T10:00:00Z'))).toEqual([at('2026-03-02T09:00:00Z'), at('2026-03-09T09:00:00Z')]);
  });

  it('is empty for Manual, invalid schedules and nonsense counts', () => {
    expect(nextRunTimes(null)).toEqual([]);
    expect(nextRunTimes('')).toEqual([]);
    expect(nextRunTimes('every day')).toEqual([]);
    expect(nextRunTimes(DAILY_CRON, -1)).toEqual([]);
    expect(nextRunTimes(DAILY_CRON, Number.NaN)).toEqual([]);
    expect(nextRunTimes(DAILY_CRON, 3, new Date(Number.NaN))).toEqual([]);
  });

  it('answers strictly increasing times after the reference, each matching the next run of the one before', () => {
    const schedules = fc.constantFrom(HOURLY_CRON, DAILY_CRON, '0 */15 * * * *', '0 30 2 1 * *', '0 0 9-17 * * MON-FRI', '15 10 * * * *');
    fc.assert(
      fc.property(schedules, fc.date({ min: at('2000-01-01T00:00:00Z'), max: at('2090-01-01T00:00:00Z'), noInvalidDate: true }), fc.integer({ min: 1, max: 5 }), (schedule, from, count) => {
        const runs = nextRunTimes(schedule, count, from);
        expect(runs).toHaveLength(count);
        expect(runs[0]!.getTime()).toBeGreaterThan(from.getTime());
        for (let i = 1; i < runs.length; i++) {
          expect(runs[i]!.getTime()).toBeGreaterThan(runs[i - 1]!.getTime());
          expect(nextRunTimes(schedule, 1, runs[i - 1])).toEqual([runs[i]]);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('dueSlot', () => {
  it('is the latest run time at or before now', () => {
    expect(dueSlot(DAILY_CRON, at('2026-03-01T00:00:00Z'), null)).toEqual(at('2026-03-01T00:00:00Z'));
    expect(dueSlot(DAILY_CRON, at('2026-03-01T13:45:00Z'), null)).toEqual(at('2026-03-01T00:00:00Z'));
    expect(dueSlot(HOURLY_CRON, at('2026-03-01T13:45:00Z'), null)).toEqual(at('2026-03-01T13:00:00Z'));
  });

  it('is nothing once that slot is taken or when the schedule took effect after it', () => {
    expect(dueSlot(DAILY_CRON, at('2026-03-01T13:45:00Z'), at('2026-03-01T00:00:00Z'))).toBeNull();
    expect(dueSlot(DAILY_CRON, at('2026-03-01T13:45:00Z'), at('2026-03-01T09:00:00Z'))).toBeNull();
    expect(dueSlot(null, at('2026-03-01T13:45:00Z'), null)).toBeNull();
    expect(dueSlot('nonsense', at('2026-03-01T13:45:00Z'), null)).toBeNull();
  });

  it('after a long outage gives only the latest missed slot, never a backlog', () => {
    expect(dueSlot(HOURLY_CRON, at('2026-03-04T07:10:00Z'), at('2026-03-01T13:00:00Z'))).toEqual(at('2026-03-04T07:00:00Z'));
  });

  it('property: the due slot is a run time, not after now, later than the bound, and no run time lies between it and now', () => {
    const schedules = fc.constantFrom(HOURLY_CRON, DAILY_CRON, '0 */15 * * * *', '0 0 9-17 * * MON-FRI', '*/7 * * * * *');
    fc.assert(
      fc.property(
        schedules,
        fc.date({ min: at('2001-01-01T00:00:00Z'), max: at('2090-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.option(fc.integer({ min: 0, max: 10 * 24 * 3600 * 1000 })),
        (schedule, now, before) => {
          const after = before === null ? null : new Date(now.getTime() - before);
          const slot = dueSlot(schedule, now, after);
          const latest = dueSlot(schedule, now, null)!;
          expect(latest.getTime()).toBeLessThanOrEqual(now.getTime());
          expect(nextRunTimes(schedule, 1, latest)[0]!.getTime()).toBeGreaterThan(now.getTime());
          if (slot === null) expect(after !== null && latest.getTime() <= after.getTime()).toBe(true);
          else {
            expect(slot).toEqual(latest);
            if (after) expect(slot.getTime()).toBeGreaterThan(after.getTime());
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('checkSchedule', () => {
  it('reads a blank schedule as manual and stores the 6-field form', () => {
    expect(checkSchedule('  ')).toEqual({ ok: true, schedule: null });
    expect(checkSchedule(null)).toEqual({ ok: true, schedule: null });
    expect(checkSchedule('0 9 * * MON-FRI')).toEqual({ ok: true, schedule: '0 0 9 * * MON-FRI' });
  });

  it('refuses a schedule that fires more than once a minute, or never', () => {
    expect(checkSchedule('* * * * * *').ok).toBe(false);
    expect(checkSchedule('0 0 0 31 2 *').ok).toBe(false);
  });
});

describe('schedules in a time zone (mutation testing, issue 40)', () => {
  it('runs at the zone’s wall-clock time, not UTC’s', () => {
    const from = new Date('2026-01-10T00:00:00Z');
    expect(nextRunTimes('0 0 9 * * *', 1, from, 'Europe/Paris')).toEqual([new Date('2026-01-10T08:00:00Z')]);
    expect(nextRunTimes('0 0 9 * * *', 1, from)).toEqual([new Date('2026-01-10T09:00:00Z')]);
    expect(dueSlot('0 0 9 * * *', new Date('2026-01-10T08:30:00Z'), null, 'Europe/Paris')).toEqual(new Date('2026-01-10T08:00:00Z'));
  });
  it('a schedule left out is a manual one', () => {
    expect(checkSchedule(undefined)).toEqual({ ok: true, schedule: null });
  });
});

describe('checkCron, word for word and at its edges (mutation testing, issue 40)', () => {
  const message = (input: unknown, rules: Parameters<typeof checkCron>[1] = {}) => {
    const result = checkCron(input, rules);
    return result.ok ? undefined : result.message;
  };

  it("gives croner's reason without its prefix, starting in lower case", () => {
    expect(message('0 0 25 * * *')).toBe('Invalid cron expression: invalid value for hour: 25');
    expect(message('0 61 * * * *')).toBe('Invalid cron expression: invalid value for minute: 61');
  });

  it('takes a cron of exactly 200 characters to the parser, and refuses 201 before it', () => {
    // 6 fields padded with spaces inside: the length counts before spaces are folded
    const padded = (length: number) => `0 0 0 * *${' '.repeat(length - 11)} *`;
    expect(padded(MAX_CRON_LENGTH)).toHaveLength(200);
    expect(checkCron(padded(MAX_CRON_LENGTH))).toEqual({ ok: true, cron: '0 0 0 * * *' });
    expect(message(padded(MAX_CRON_LENGTH + 1))).toBe('A cron expression is at most 200 characters.');
  });

  it('folds tabs and runs of spaces between fields, and keeps the fields themselves', () => {
    expect(checkCron('\t0\t0  9 *   * MON-FRI\t')).toEqual({ ok: true, cron: '0 0 9 * * MON-FRI' });
    expect(checkCron('30\t2  *\t* *')).toEqual({ ok: true, cron: '0 30 2 * * *' });
    expect(message(' \t ')).toBe('Enter a cron expression, for example 0 0 9 * * MON-FRI.');
  });

  it('at most once a minute: the seconds field is one number from 0 to 59', () => {
    const once = { atMostOncePerMinute: true };
    for (const seconds of ['0', '5', '05', '30', '59']) expect(checkCron(`${seconds} 0 9 * * *`, once), seconds).toEqual({ ok: true, cron: `${seconds} 0 9 * * *` });
    for (const seconds of ['60', '100', '*', '*/5', '1,2', '1-5', 'x5', '5x', '-5']) {
      expect(message(`${seconds} 0 9 * * *`, once), seconds).toBe('The seconds field must be a single number (0-59): a pipeline runs at most once a minute.');
    }
    // the rule reads the seconds field of the stored form: five fields get '0'
    expect(checkCron('* * * * *', once)).toEqual({ ok: true, cron: '0 * * * * *' });
  });
});
