import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINEAGE_STATUSES, tableStatus, upstreamStatuses, worstStatus, type LineageStatus } from './lineageResources';

const NOW = new Date('2026-03-10T12:30:00Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);

describe('tableStatus', () => {
  it('is missing without the table, unloaded without a load, failed after a failed run', () => {
    expect(tableStatus({ exists: false, loaded: hoursAgo(1), lastRunFailed: true, schedule: null }, NOW)).toBe('missing');
    expect(tableStatus({ exists: true, loaded: null, lastRunFailed: true, schedule: null }, NOW)).toBe('unloaded');
    expect(tableStatus({ exists: true, loaded: hoursAgo(1), lastRunFailed: true, schedule: null }, NOW)).toBe('failed');
  });

  it('is stale once two scheduled slots passed since the load; a manual pipeline never is', () => {
    const hourly = '0 0 * * * *';
    expect(tableStatus({ exists: true, loaded: hoursAgo(1), lastRunFailed: false, schedule: hourly }, NOW)).toBe('fresh');
    expect(tableStatus({ exists: true, loaded: hoursAgo(2.2), lastRunFailed: false, schedule: hourly }, NOW)).toBe('stale');
    expect(tableStatus({ exists: true, loaded: hoursAgo(24 * 365), lastRunFailed: false, schedule: null }, NOW)).toBe('fresh');
    expect(tableStatus({ exists: true, loaded: hoursAgo(24 * 365), lastRunFailed: false, schedule: 'not a cron' }, NOW)).toBe('fresh');
  });

  it('is stale only after the second slot, not at it', () => {
    const hourly = '0 0 * * * *';
    const loaded = new Date('2026-03-10T10:00:00Z');
    // the slots after the load are 11:00 and 12:00
    expect(tableStatus({ exists: true, loaded, lastRunFailed: false, schedule: hourly }, new Date('2026-03-10T12:00:00.000Z'))).toBe('fresh');
    expect(tableStatus({ exists: true, loaded, lastRunFailed: false, schedule: hourly }, new Date('2026-03-10T12:00:00.001Z'))).toBe('stale');
  });
});

describe('worstStatus', () => {
  it('takes the worst, fresh for none', () => {
    expect(worstStatus([])).toBe('fresh');
    expect(worstStatus(['fresh', 'stale', 'unloaded'])).toBe('stale');
    expect(worstStatus(['missing', 'failed'])).toBe('failed');
  });

  it('is the first of LINEAGE_STATUSES present, whatever the order', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom<LineageStatus>(...LINEAGE_STATUSES)), (statuses) => {
        const expected = LINEAGE_STATUSES.find((s) => statuses.includes(s)) ?? 'fresh';
        expect(worstStatus(statuses)).toBe(expected);
        expect(worstStatus([...statuses].reverse())).toBe(expected);
      }),
    );
  });
});

describe('upstreamStatuses', () => {
  it('carries an input’s failure down a chain of models, and a missing input as missing', () => {
    const statuses = upstreamStatuses([
      { name: 'raw', status: 'failed', inputs: [] },
      { name: 'staged', status: 'fresh', inputs: ['raw'] },
      { name: 'mart', status: 'fresh', inputs: ['staged'] },
      { name: 'other', status: 'fresh', inputs: ['dropped'] },
      { name: 'alone', status: 'stale', inputs: [] },
    ]);
    expect(Object.fromEntries(statuses)).toEqual({ raw: 'failed', staged: 'failed', mart: 'failed', other: 'missing', alone: 'stale' });
  });

  it('settles on cycles; each table is as bad as itself and each of its inputs, and no worse than the worst of them all', () => {
    const status = fc.constantFrom(...LINEAGE_STATUSES);
    const tables = fc.uniqueArray(fc.record({ name: fc.constantFrom('a', 'b', 'c', 'd', 'e'), status, inputs: fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'x')) }), { selector: (t) => t.name });
    fc.assert(
      fc.property(tables, (ts) => {
        const result = upstreamStatuses(ts);
        const rank = (s: LineageStatus) => LINEAGE_STATUSES.indexOf(s);
        const everything = worstStatus([...ts.map((t) => t.status), ...(ts.some((t) => t.inputs.some((i) => !ts.some((u) => u.name === i))) ? (['missing'] as const) : [])]);
        for (const t of ts) {
          const s = result.get(t.name)!;
          expect(rank(s)).toBeLessThanOrEqual(rank(t.status));
          for (const i of t.inputs) expect(rank(s)).toBeLessThanOrEqual(rank(result.get(i) ?? 'missing'));
          expect(rank(s)).toBeGreaterThanOrEqual(rank(everything));
        }
      }),
    );
  });
});
