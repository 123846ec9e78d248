import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JOB_STATUSES } from './resources';
import { activeJobCount, isActiveJob } from './jobs';

describe('activeJobCount', () => {
  it('counts QUEUED and RUNNING jobs only', () => {
    const jobs = JOB_STATUSES.map((status) => ({ id: status, status }));
    expect(activeJobCount(jobs)).toBe(2);
    expect(activeJobCount([{ status: 'RUNNING' }, { status: 'RUNNING' }, { status: 'COMPLETE' }])).toBe(2);
  });

  it('is 0 for no list', () => {
    expect(activeJobCount(undefined)).toBe(0);
    expect(activeJobCount(null)).toBe(0);
    expect(activeJobCount([])).toBe(0);
  });

  it('equals the number of active statuses for any list of statuses', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...JOB_STATUSES)), (statuses) => {
        const expected = statuses.filter((s) => s === 'QUEUED' || s === 'RUNNING').length;
        expect(activeJobCount(statuses.map((status) => ({ status })))).toBe(expected);
      }),
    );
  });

  it('never throws and never counts malformed entries', () => {
    fc.assert(
      fc.property(fc.array(fc.anything()), (junk) => {
        const count = activeJobCount(junk);
        expect(count).toBeGreaterThanOrEqual(0);
        expect(count).toBeLessThanOrEqual(junk.length);
        expect(count).toBe(junk.filter(isActiveJob).length);
      }),
    );
    expect(isActiveJob({ status: 'running' })).toBe(false);
    expect(isActiveJob({ status: ['RUNNING'] })).toBe(false);
    expect(activeJobCount('RUNNING' as never)).toBe(0);
  });
});
