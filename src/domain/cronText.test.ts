import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileStringWithHuge } from './hostile.fixture';
import { scheduleChoiceOf, scheduleFor, toStoredCron } from './cronText';

describe('scheduleChoiceOf', () => {
  it('reads the spec presets, empty as Manual, anything else as Custom', () => {
    expect(scheduleChoiceOf(null)).toBe('manual');
    expect(scheduleChoiceOf('  ')).toBe('manual');
    expect(scheduleChoiceOf('0 0 * * * *')).toBe('hourly');
    expect(scheduleChoiceOf(' 0  0 0 * * * ')).toBe('daily');
    expect(scheduleChoiceOf('0 30 2 * * MON')).toBe('custom');
  });
});

describe('toStoredCron', () => {
  it('adds the leading seconds field to 5 fields and keeps 6', () => {
    expect(toStoredCron('*/15 * * * *')).toEqual({ ok: true, cron: '0 */15 * * * *' });
    expect(toStoredCron('0 30 2 * * MON-FRI')).toEqual({ ok: true, cron: '0 30 2 * * MON-FRI' });
    expect(toStoredCron('0 0 12 1,15 JAN-JUN ?')).toEqual({ ok: true, cron: '0 0 12 1,15 JAN-JUN ?' });
  });
  it('refuses out-of-range values, wrong field counts and junk', () => {
    for (const bad of ['61 * * * *', '* * *', '0 0 24 * * *', '0 0 0 0 * *', '0 0 0 * 13 *', 'a b c d e', '* * * * * * *', '* * * * * *']) {
      expect(toStoredCron(bad).ok, bad).toBe(false);
    }
    expect(toStoredCron('')).toEqual({ ok: false, message: expect.stringMatching(/Enter a cron expression/) as string });
  });
  it('never throws and always answers 6 fields when it accepts, whatever the text', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, (text) => {
        const result = toStoredCron(text);
        if (result.ok) expect(result.cron.split(' ')).toHaveLength(6);
      }),
      { numRuns: 300 },
    );
  });
  it('accepts every 5-field expression of plain in-range numbers', () => {
    const field = (max: number, min = 0) => fc.integer({ min, max }).map(String);
    fc.assert(
      fc.property(field(59), field(23), field(31, 1), field(12, 1), field(7), (m, h, d, mo, w) => {
        expect(toStoredCron(`${m} ${h} ${d} ${mo} ${w}`)).toEqual({ ok: true, cron: `0 ${m} ${h} ${d} ${mo} ${w}` });
      }),
    );
  });
});

describe('scheduleFor', () => {
  it('maps the choices to the stored schedule', () => {
    expect(scheduleFor('manual', 'x')).toEqual({ ok: true, cron: null });
    expect(scheduleFor('hourly', '')).toEqual({ ok: true, cron: '0 0 * * * *' });
    expect(scheduleFor('daily', '')).toEqual({ ok: true, cron: '0 0 0 * * *' });
    expect(scheduleFor('custom', '0 9 * * 1')).toEqual({ ok: true, cron: '0 0 9 * * 1' });
  });
});
