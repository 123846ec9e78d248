import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JOB_STATUSES } from './resources';
import { ACTIVE_JOB_STATUSES, jobStatusFilter } from './jobs';

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
