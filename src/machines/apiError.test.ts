import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../api/errors';
import { apiErrorOf, shellErrorMessage, UNEXPECTED } from './apiError';

describe('apiErrorOf', () => {
  it('reads the ApiError of an ApiFailure', () => {
    expect(apiErrorOf(new ApiFailure({ kind: 'unauthorized' }))).toEqual({ kind: 'unauthorized' });
  });

  it('reads every kind of the catalogue as it is, the same object', () => {
    const all = [
      { kind: 'unauthorized' },
      { kind: 'server', status: 502, message: 'Bad gateway' },
      { kind: 'response', status: 409, message: '[409] in use' },
      { kind: 'network', message: 'We were unable to connect.' },
      { kind: 'cancelled' },
      { kind: 'missingLink', rel: 'self' },
      { kind: 'parse', message: 'Invalid x', issues: [] },
      { kind: 'unknown', message: 'Something of its own' },
    ] as const;
    for (const apiError of all) {
      expect(apiErrorOf(new ApiFailure(apiError))).toBe(apiError);
      // read structurally: a plain object carrying it counts as well
      expect(apiErrorOf({ apiError })).toBe(apiError);
    }
  });

  it('the unexpected error is the catalogue\'s own', () => {
    expect(UNEXPECTED).toEqual({ kind: 'unknown', message: 'An unexpected error occurred.' });
    expect(apiErrorOf({ apiError: { message: 'no kind' } })).toBe(UNEXPECTED);
    expect(apiErrorOf({ other: 1 })).toBe(UNEXPECTED);
  });

  it.each([undefined, null, 'text', new Error('x'), { apiError: null }, { apiError: { kind: 'weird' } }, { apiError: { kind: 3 } }, { apiError: 'server' }, { apiError: 42 }])(
    'treats %o as unexpected',
    (value) => {
      expect(apiErrorOf(value)).toBe(UNEXPECTED);
    },
  );
});

describe('shellErrorMessage', () => {
  it('shows the server message, the status text or the connection message', () => {
    expect(shellErrorMessage({ kind: 'server', status: 500, message: 'Database down' })).toBe('Database down');
    expect(shellErrorMessage({ kind: 'response', status: 404, message: '[404] gone' })).toBe('[404] gone');
    expect(shellErrorMessage({ kind: 'network', message: 'We were unable to connect.' })).toBe('We were unable to connect.');
  });

  it('falls back to the unexpected-error message', () => {
    for (const error of [{ kind: 'parse', message: 'Invalid x', issues: [] }, { kind: 'missingLink', rel: 'self' }, { kind: 'unknown', message: 'x' }, { kind: 'unauthorized' }, { kind: 'cancelled' }] as const) {
      expect(shellErrorMessage(error)).toBe('An unexpected error occurred.');
    }
  });
});
