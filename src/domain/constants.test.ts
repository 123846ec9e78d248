import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  BREAKPOINTS,
  COPIED_TOAST_MS,
  CRON,
  DEFAULT_HOME_PAGE,
  formatJobDate,
  JOB_DATE_FORMAT,
  LOG_POLL_MS,
  NOTIFICATION_POLL_MS,
  PAGE_SIZES,
  PROFILE_TOAST_MS,
  RETRY_COUNT,
  screenSize,
  sessionCookieMaxAge,
  sidebarState,
  THEME_PRIMARY,
  tracingEnabled,
} from './constants';
import { hostileString } from './hostile.fixture';

describe('spec constants', () => {
  it('match section 9', () => {
    expect(PAGE_SIZES).toEqual({ feed: 10, workspaces: 99, dataComponents: 99, comments: 6 });
    expect(NOTIFICATION_POLL_MS).toBe(90_000);
    expect(LOG_POLL_MS).toBe(5_000);
    expect(RETRY_COUNT).toBe(3);
    expect(COPIED_TOAST_MS).toBe(3_000);
    expect(PROFILE_TOAST_MS).toBe(6_000);
    expect(BREAKPOINTS).toEqual({ small: 768, mediumMax: 991, sidebar: 1200 });
    expect(CRON).toEqual({ hourly: '0 0 * * * *', daily: '0 0 0 * * *' });
    expect(JOB_DATE_FORMAT).toBe('YYYY-MM-DD HH:mm');
    expect(THEME_PRIMARY).toBe('#483D8B');
    expect(DEFAULT_HOME_PAGE).toBe('feed');
  });
});

describe('sessionCookieMaxAge', () => {
  it('is the token lifetime in seconds', () => {
    expect(sessionCookieMaxAge(1_700_086_400, 1_700_000_000)).toBe(86_400);
    expect(sessionCookieMaxAge(10.9, 0)).toBe(10);
  });

  it('is never negative and never NaN', () => {
    expect(sessionCookieMaxAge(0, 10)).toBe(0);
    expect(sessionCookieMaxAge(Number.NaN, 1)).toBe(0);
    expect(sessionCookieMaxAge(Number.POSITIVE_INFINITY, 0)).toBe(0);
    fc.assert(
      fc.property(fc.double(), fc.double(), (exp, iat) => {
        const age = sessionCookieMaxAge(exp, iat);
        expect(Number.isInteger(age)).toBe(true);
        expect(age).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});

describe('tracingEnabled', () => {
  it('is on only for a finite rate above 0', () => {
    expect(tracingEnabled(0.1)).toBe(true);
    expect(tracingEnabled(1)).toBe(true);
    expect(tracingEnabled('0.25')).toBe(true);
    for (const off of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '0', '', ' ', 'abc', null, undefined, true, {}]) expect(tracingEnabled(off)).toBe(false);
  });

  it('agrees with Number for any text', () => {
    fc.assert(
      fc.property(hostileString, (text) => {
        const rate = Number(text);
        expect(tracingEnabled(text)).toBe(text.trim() !== '' && Number.isFinite(rate) && rate > 0);
      }),
    );
  });
});

describe('formatJobDate', () => {
  it("formats 'YYYY-MM-DD HH:mm' in UTC", () => {
    expect(formatJobDate('2024-03-05T07:08:09Z', 0)).toBe('2024-03-05 07:08');
    expect(formatJobDate('2024-12-31T23:59:59.999+02:00', 0)).toBe('2024-12-31 21:59');
    // in the viewer's time zone: an hour east of UTC, two hours west
    expect(formatJobDate('2024-03-05T23:30:00Z', 60)).toBe('2024-03-06 00:30');
    expect(formatJobDate('2024-03-05T01:30:00Z', -120)).toBe('2024-03-04 23:30');
    // without an offset, the machine's own for that instant
    const local = new Date(2024, 6, 1, 9, 5);
    expect(formatJobDate(local.toISOString())).toBe('2024-07-01 09:05');
  });

  it("is '' for text that is not a date", () => {
    for (const bad of ['', '  ', 'yesterday', '2024-13-45T99:99:99Z', null, undefined]) expect(formatJobDate(bad)).toBe('');
  });

  it('always matches the format or is empty, for any text', () => {
    fc.assert(
      fc.property(fc.oneof(hostileString, fc.date({ noInvalidDate: true }).map((d) => d.toISOString())), (text) => {
        expect(formatJobDate(text)).toMatch(/^(\d{4}-\d{2}-\d{2} \d{2}:\d{2})?$/);
      }),
    );
  });

  it('round-trips the minute of any date in range', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), (date) => {
        expect(formatJobDate(date.toISOString(), 0)).toBe(date.toISOString().slice(0, 16).replace('T', ' '));
      }),
    );
  });
});

describe('sidebarState', () => {
  it('is forced collapsed below 1200 px', () => {
    expect(sidebarState({ width: 1199, remembered: 'expanded' })).toBe('collapsed');
    expect(sidebarState({ width: 320 })).toBe('collapsed');
    expect(sidebarState({ width: Number.NaN, remembered: 'expanded' })).toBe('collapsed');
  });

  it('at 1200 px and up follows the remembered choice, expanded by default', () => {
    expect(sidebarState({ width: 1200 })).toBe('expanded');
    expect(sidebarState({ width: 1200, remembered: null })).toBe('expanded');
    expect(sidebarState({ width: 1600, remembered: 'collapsed' })).toBe('collapsed');
    expect(sidebarState({ width: 1600, remembered: 'expanded' })).toBe('expanded');
    expect(sidebarState({ width: 1600, remembered: 'garbage' })).toBe('expanded');
  });

  it('never expands below the breakpoint', () => {
    fc.assert(
      fc.property(fc.double(), fc.option(hostileString, { nil: undefined }), (width, remembered) => {
        const state = sidebarState({ width, remembered });
        if (!(width >= 1200)) expect(state).toBe('collapsed');
      }),
    );
  });
});

describe('screenSize', () => {
  it('small under 768, medium 768 to 991, large above', () => {
    expect(screenSize(767)).toBe('small');
    expect(screenSize(768)).toBe('medium');
    expect(screenSize(991)).toBe('medium');
    expect(screenSize(991.5)).toBe('medium');
    expect(screenSize(992)).toBe('large');
    expect(screenSize(Number.NaN)).toBe('small');
  });
});

describe('formatJobDate, at its edges', () => {
  it("uses the viewer's own offset when none is given (east of UTC is ahead)", () => {
    // getTimezoneOffset is minutes *behind* UTC: -90 is a viewer 1 h 30 east of UTC
    const spy = vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(-90);
    try {
      expect(formatJobDate('2024-03-05T07:08:09Z')).toBe('2024-03-05 08:38');
    } finally {
      spy.mockRestore();
    }
  });

  it('writes the year 0 with four digits', () => {
    expect(formatJobDate('0000-01-01T00:00:00Z', 0)).toBe('0000-01-01 00:00');
  });
});
