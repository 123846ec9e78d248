import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from './hostile.fixture';
import { jobStatusColour } from './jobStatusColour';

describe('jobStatusColour (spec 001 §4)', () => {
  it.each([
    ['SKIPPED', 'grey'],
    ['COMPLETE', 'green'],
    ['ERROR', 'red'],
    ['RUNNING', 'runningGreen'],
    ['STOPPED', 'red'],
    ['QUEUED', 'orange'],
    ['running', 'runningGreen'],
  ] as const)('%s is %s', (status, colour) => expect(jobStatusColour(status)).toBe(colour));

  it('anything else is orange, whatever it is', () => {
    fc.assert(
      fc.property(fc.oneof(hostileString, fc.anything()), (value) => {
        const known = typeof value === 'string' && ['SKIPPED', 'COMPLETE', 'ERROR', 'RUNNING', 'STOPPED'].includes(value.toUpperCase());
        if (!known) expect(jobStatusColour(value)).toBe('orange');
      }),
    );
  });
});
