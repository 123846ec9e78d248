import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINEAGE_STATUSES, tableStatus, worstStatus, type LineageStatus } from './lineageResources';

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
