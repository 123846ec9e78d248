import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from './hostile.fixture';
import { appendLogLines, firstErrorIndex, formatLogTime, isErrorLine, lastSequence, logText, searchLog, visibleRows } from './logView';
import type { LogEntry } from './resources';

const line = (sequence: number, message = `line ${String(sequence)}`): LogEntry => ({ sequence, timestamp: '2026-01-01T00:00:00Z', message });

describe('appendLogLines', () => {
  it('resumes after the last sequence and drops repeats', () => {
    const held = [line(1), line(2)];
    expect(appendLogLines(held, [line(2), line(3), line(1)]).map((l) => l.sequence)).toEqual([1, 2, 3]);
    expect(lastSequence(appendLogLines([], [line(5), line(4)]))).toBe(5);
    expect(lastSequence([])).toBe(0);
  });

  it('always yields strictly increasing sequences holding every new one', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: -5, max: 200 }), { maxLength: 30 }), { maxLength: 8 }), (pages) => {
        let held: LogEntry[] = [];
        for (const page of pages) held = appendLogLines(held, page.map((n) => line(n)));
        const seqs = held.map((l) => l.sequence);
        for (let i = 1; i < seqs.length; i += 1) expect(seqs[i]).toBeGreaterThan(seqs[i - 1] ?? -Infinity);
        const max = Math.max(0, ...pages.flat());
        if (max > 0) expect(lastSequence(held)).toBe(max);
      }),
    );
  });
});

describe('searchLog and errors', () => {
  const lines = [line(1, 'Starting tap'), line(2, 'ERROR: connection refused'), line(3, 'errors=0 rows=5'), line(4, 'Traceback (most recent call last)')];

  it('finds lines case-insensitively; a blank query finds nothing', () => {
    expect(searchLog(lines, 'tap')).toEqual([0]);
    expect(searchLog(lines, 'error')).toEqual([1, 2]);
    expect(searchLog(lines, '  ')).toEqual([]);
  });

  it('jumps to the first real error', () => {
    expect(firstErrorIndex(lines)).toBe(1);
    expect(isErrorLine('errors=0 rows=5')).toBe(false);
    expect(isErrorLine('no errors found')).toBe(false);
    expect(firstErrorIndex([line(1, 'fine')])).toBe(-1);
  });

  it('never throws on hostile messages or queries', () => {
    fc.assert(
      fc.property(fc.array(hostileString, { maxLength: 20 }), hostileString, (messages, query) => {
        const held = messages.map((m, i) => line(i + 1, m));
        for (const i of searchLog(held, query)) expect(held[i]?.message.toLowerCase()).toContain(query.trim().toLowerCase());
        const first = firstErrorIndex(held);
        expect(first).toBeGreaterThanOrEqual(-1);
        expect(logText(held).split('\n')).toHaveLength(held.length + 1 + messages.reduce((n, m) => n + (m.match(/\n/g)?.length ?? 0), 0));
      }),
    );
  });
});

describe('log times', () => {
  it('downloads each line after its recorded timestamp, and shows it in local time to the millisecond', () => {
    expect(logText([line(1, 'start'), { sequence: 2, timestamp: '2026-01-01T00:00:01.250Z', message: 'done' }])).toBe('2026-01-01T00:00:00Z start\n2026-01-01T00:00:01.250Z done\n');
    expect(formatLogTime('2026-01-01T23:59:58.007Z', 60)).toBe('2026-01-02 00:59:58.007');
    expect(formatLogTime('2026-01-01T00:00:00Z', 0)).toBe('2026-01-01 00:00:00.000');
    expect(formatLogTime('not a time')).toBe('');
  });
});

describe('visibleRows', () => {
  it('draws only what is in view plus overscan', () => {
    expect(visibleRows(0, 400, 20, 100_000, 5)).toEqual({ start: 0, end: 26 });
    expect(visibleRows(20 * 50_000, 400, 20, 100_000, 5)).toEqual({ start: 49_995, end: 50_026 });
    expect(visibleRows(1e12, 400, 20, 100, 5)).toEqual({ start: 94, end: 100 });
    expect(visibleRows(0, 400, 20, 0)).toEqual({ start: 0, end: 0 });
  });

  it('stays inside [0, count] for any numbers', () => {
    const num = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(NaN, Infinity, -Infinity));
    fc.assert(
      fc.property(num, num, num, fc.integer({ min: 0, max: 1_000_000 }), num, (top, height, row, count, over) => {
        const { start, end } = visibleRows(top, height, row, count, over);
        expect(start).toBeGreaterThanOrEqual(0);
        expect(end).toBeLessThanOrEqual(count);
        expect(start).toBeLessThanOrEqual(end);
      }),
    );
  });
});

describe('logView at its edges', () => {
  it('appends a page in sequence order, whatever order it came in', () => {
    expect(appendLogLines([], [line(5), line(1), line(4), line(2), line(3)]).map((l) => l.sequence)).toEqual([1, 2, 3, 4, 5]);
  });

  it('trims the query before searching', () => {
    expect(searchLog([line(1, 'Starting tap'), line(2, 'tapped')], ' tap ')).toEqual([0, 1]);
    expect(searchLog([line(1, 'Starting tap')], ' ing ta ')).toEqual([0]);
  });

  it('draws nothing for a row height of zero or less', () => {
    expect(visibleRows(0, 400, 0, 100)).toEqual({ start: 0, end: 0 });
    expect(visibleRows(100, 400, -5, 100)).toEqual({ start: 0, end: 0 });
  });
});
