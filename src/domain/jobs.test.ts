import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JOB_STATUSES } from './resources';
import { ACTIVE_JOB_STATUSES, formatDuration, jobSeconds, jobStatusFilter, runTimeText, streamRowsOf } from './jobs';

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
    expect(jobSeconds({ startTime: '2026-01-01T10:00:00Z', endTime: null }, at('2026-01-01T10:00:45.900Z'))).toBe(45.9);
    expect(jobSeconds({ startTime: '2026-01-01T10:00:00Z', endTime: '2026-01-01T10:00:00.400Z' }, 0)).toBe(0.4);
    expect(jobSeconds({ startTime: null, endTime: null }, 0)).toBeNull();
    expect(jobSeconds({ startTime: 'soon', endTime: null }, 0)).toBeNull();
    expect(jobSeconds({ startTime: '2026-01-01T10:00:00Z', endTime: '2026-01-01T09:00:00Z' }, 0)).toBe(0);
  });

  it('reads as seconds, minutes or hours', () => {
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(45.9)).toBe('45 s');
    // a run of 0.4 s (or one whose start and end fell in the same millisecond) took under a second, never '0 s'
    expect(formatDuration(0.4)).toBe('under 1 s');
    expect(formatDuration(0)).toBe('under 1 s');
    expect(formatDuration(1)).toBe('1 s');
    expect(formatDuration(185)).toBe('3 min 05 s');
    expect(formatDuration(7620)).toBe('2 h 07 min');
    expect(formatDuration(null)).toBe('');
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.double(), fc.constant(Number.NaN)), (n) => {
        expect(formatDuration(n)).toMatch(/^(|under 1 s|[1-9]\d* s|\d+ min \d\d s|\d+ h \d\d min)$/);
      }),
    );
  });
});

describe("the log's run line", () => {
  const start = '2026-01-01T10:00:00Z';
  it('says how long a run has run, how long an ended one took, and that a queued one has not started', () => {
    expect(runTimeText({ status: 'RUNNING', startTime: start, endTime: null }, Date.parse('2026-01-01T10:00:12Z'))).toBe('Running for 12 s');
    expect(runTimeText({ status: 'COMPLETE', startTime: start, endTime: '2026-01-01T10:03:05Z' }, Date.parse('2027-01-01T00:00:00Z'))).toBe('Took 3 min 05 s');
    expect(runTimeText({ status: 'QUEUED', startTime: null, endTime: null }, 0)).toBe('Not started');
    expect(runTimeText({ status: 'ERROR', startTime: 'garbage', endTime: null }, 0)).toBe('Not started');
  });

  it('is one of those three shapes for any status and clock', () => {
    fc.assert(
      fc.property(fc.constantFrom(...JOB_STATUSES), fc.option(fc.date({ noInvalidDate: true }).map((d) => d.toISOString())), fc.option(fc.string()), fc.integer(), (status, startTime, endTime, now) => {
        expect(runTimeText({ status, startTime, endTime }, now)).toMatch(/^(Not started|Running for .+|Took .+)$/);
      }),
    );
  });
});

describe("a job's rows per stream", () => {
  it('lists the streams with most rows first, then by name, and what no stream accounts for', () => {
    expect(streamRowsOf({ rowsLoaded: 10, rowsByStream: { orders: 4, customers: 4, web_sessions: 2 } })).toEqual({
      streams: [
        { stream: 'customers', rows: 4 },
        { stream: 'orders', rows: 4 },
        { stream: 'web_sessions', rows: 2 },
      ],
      unattributed: 0,
    });
    expect(streamRowsOf({ rowsLoaded: 12, rowsByStream: { orders: 10 } }).unattributed).toBe(2);
    // a job from before streams were counted, or one with no rows: the total alone
    expect(streamRowsOf({ rowsLoaded: 12, rowsByStream: {} })).toEqual({ streams: [], unattributed: 0 });
    expect(streamRowsOf({ rowsLoaded: 0 })).toEqual({ streams: [], unattributed: 0 });
    expect(streamRowsOf({ rowsLoaded: null, rowsByStream: null })).toEqual({ streams: [], unattributed: 0 });
  });

  it('accounts for the whole total, whatever the stream names', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.nat({ max: 1e9 })), fc.nat({ max: 1e6 }), (byStream, extra) => {
        const counted = Object.values(byStream).reduce((a, b) => a + b, 0);
        const { streams, unattributed } = streamRowsOf({ rowsLoaded: counted + extra, rowsByStream: byStream });
        expect(streams).toHaveLength(Object.keys(byStream).length);
        if (streams.length > 0) expect(streams.reduce((a, s) => a + s.rows, 0) + unattributed).toBe(counted + extra);
        for (let i = 1; i < streams.length; i++) expect(streams[i - 1]!.rows).toBeGreaterThanOrEqual(streams[i]!.rows);
      }),
    );
  });
});
