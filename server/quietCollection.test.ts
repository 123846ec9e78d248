import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activityOf, BUSY_UTILISATION, collectWhenQuiet, QUIET_CHECK_MS, QUIET_UTILISATION, quietStep, type Activity } from './quietCollection';

const activity = fc.constantFrom<Activity>('busy', 'quiet', 'between');

/** How many times a sequence of periods goes quiet after a busy period, by reading it directly. */
function quietAfterBusy(periods: readonly Activity[]): number {
  let count = 0;
  let lastBusy = -1;
  let lastCollect = -1;
  periods.forEach((period, i) => {
    if (period === 'busy') lastBusy = i;
    if (period === 'quiet' && lastBusy > lastCollect) {
      count++;
      lastCollect = i;
    }
  });
  return count;
}

describe('quietStep', () => {
  it('collects once for each quiet period that follows load, however the periods come', () => {
    fc.assert(
      fc.property(fc.array(activity, { maxLength: 60 }), (periods) => {
        let state = { sinceBusy: false };
        let collected = 0;
        for (const period of periods) {
          const step = quietStep(state, period);
          state = { sinceBusy: step.sinceBusy };
          if (step.collect) collected++;
        }
        expect(collected).toBe(quietAfterBusy(periods));
      }),
    );
  });

  it('never collects on a server that has not been busy', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom<Activity>('quiet', 'between'), { maxLength: 60 }), (periods) => {
        let state = { sinceBusy: false };
        for (const period of periods) {
          const step = quietStep(state, period);
          expect(step.collect).toBe(false);
          state = { sinceBusy: step.sinceBusy };
        }
      }),
    );
  });
});

describe('activityOf', () => {
  it('reads the share of time the event loop was busy', () => {
    expect(activityOf(1)).toBe('busy');
    expect(activityOf(BUSY_UTILISATION)).toBe('busy');
    expect(activityOf((BUSY_UTILISATION + QUIET_UTILISATION) / 2)).toBe('between');
    expect(activityOf(QUIET_UTILISATION)).toBe('between');
    expect(activityOf(0)).toBe('quiet');
  });
});

describe('collectWhenQuiet', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('collects when the event loop goes quiet after load, once, and stops when told', () => {
    vi.useFakeTimers();
    const utilisations = [0.9, 0.5, 0, 0, 0.6, 0.02, 0.001, 0];
    const collect = vi.fn();
    const stop = collectWhenQuiet(collect, () => utilisations.shift() ?? 0);
    const afterPeriods = (n: number) => vi.advanceTimersByTime(n * QUIET_CHECK_MS);
    afterPeriods(2);
    expect(collect).not.toHaveBeenCalled();
    afterPeriods(1);
    expect(collect).toHaveBeenCalledTimes(1);
    afterPeriods(1);
    expect(collect).toHaveBeenCalledTimes(1);
    // busy again, then between, then quiet: the second collection
    afterPeriods(2);
    expect(collect).toHaveBeenCalledTimes(1);
    afterPeriods(1);
    expect(collect).toHaveBeenCalledTimes(2);
    stop();
    utilisations.push(0.9, 0);
    afterPeriods(5);
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it('does nothing where the process may not collect (no --expose-gc)', () => {
    vi.useFakeTimers();
    const read = vi.fn(() => 0.9);
    collectWhenQuiet(undefined, read)();
    vi.advanceTimersByTime(10 * QUIET_CHECK_MS);
    expect(read).not.toHaveBeenCalled();
  });
});
