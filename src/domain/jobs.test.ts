import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JOB_STATUSES } from './resources';
import { ACTIVE_JOB_STATUSES, formatDuration, jobSeconds, jobStatusFilter } from './jobs';

describe('active jobs', () => {
  it('are the queued and running ones', () => {
    expect(ACTIVE_JOB_STATUSES).toEqual(['QUEUED', 'RUNNING']);
    expect(jobStatusFilter(ACTIVE_JOB_STATUSES)).toBe('QUEUED,RUNNING');
  });

  it('the filter names each status once, in the order given, and only known statuses', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...JOB_STATUSES), { maxLength: 12 }), (statuses) => {
        const names = jobStatusFilter(statuses).split(',').filter((name) => name !== '');
        expect(names).toEqual([...new Set(statuses)]);
        for (const name of names) expect(JOB_STATUSES).toContain(name);
      }),
    );
  });
});

describe('job durations', () => {
  const at = (iso: string) => Date.parse(iso);
  it('runs from start to end, or to now while running; nothing before the start', () => {
    expect(jobSeconds({ startTime: '2026-01-01T10:00:00Z', endTime: '2026-01-01T10:03:05Z' }, at('2026-01-02T00:00:00Z'))).toBe(185);
    expect(jobSeconds({ startTime: '2026-01-01T10:00:00Z', endTime: null }, at('2026-01-01T10:00:45.900Z'))).toBe(45);
    expect(jobSeconds({ startTime: null, endTime: null }, 0)).toBeNull();
    expect(jobSeconds({ startTime: 'soon', endTime: null }, 0)).toBeNull();
    expect(jobSeconds({ startTime: '2026-01-01T10:00:00Z', endTime: '2026-01-01T09:00:00Z' }, 0)).toBe(0);
  });

  it('reads as seconds, minutes or hours', () => {
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(185)).toBe('3 min 05 s');
    expect(formatDuration(7620)).toBe('2 h 07 min');
    expect(formatDuration(null)).toBe('');
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.double(), fc.constant(Number.NaN)), (n) => {
        expect(formatDuration(n)).toMatch(/^(|\d+ s|\d+ min \d\d s|\d+ h \d\d min)$/);
      }),
    );
  });
});
