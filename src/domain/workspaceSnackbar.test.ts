import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Workspace } from './resources';
import { snackbarMs } from './workspaceForm';

// Spec 001 §9: the workspace snackbar (the Lab's pipeline, plugin and dataset toasts, the
// dashboard's) stays for the workspace's APP_SNACKBAR_TIMEOUT, in milliseconds.

const withTimeout = (value: string | undefined): Workspace => ({ id: 'w', name: 'W', appProperties: value === undefined ? {} : { APP_SNACKBAR_TIMEOUT: value } });

describe('snackbarMs', () => {
  it("is the workspace's APP_SNACKBAR_TIMEOUT when it is a positive number", () => {
    expect(snackbarMs(withTimeout('2500'))).toBe(2500);
    expect(snackbarMs(withTimeout(' 10000 '))).toBe(10_000);
    expect(snackbarMs(withTimeout('1'))).toBe(1);
  });

  it('is 6 s without a workspace, without the property, or when it is not a positive number', () => {
    expect(snackbarMs(null)).toBe(6000);
    expect(snackbarMs({ id: 'w', name: 'W' })).toBe(6000);
    for (const value of [undefined, '', '0', '-5', 'soon', 'NaN', 'Infinity']) expect(snackbarMs(withTimeout(value)), String(value)).toBe(6000);
  });

  it('stays at most a minute', () => {
    expect(snackbarMs(withTimeout('60000'))).toBe(60_000);
    expect(snackbarMs(withTimeout('60001'))).toBe(60_000);
    expect(snackbarMs(withTimeout('1e9'))).toBe(60_000);
  });

  it('is always a duration a toast can take, whatever the property holds', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const ms = snackbarMs(withTimeout(value));
        expect(ms > 0 && ms <= 60_000).toBe(true);
      }),
    );
  });
});
