import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../api/errors';
import { apiErrorOf, shellErrorMessage, UNEXPECTED } from './apiError';

describe('apiErrorOf', () => {
  it('reads the ApiError of an ApiFailure', () => {
    expect(apiErrorOf(new ApiFailure({ kind: 'unauthorized' }))).toEqual({ kind: 'unauthorized' });
  });

  it.each([undefined, null, 'text', new Error('x'), { apiError: null }, { apiError: { kind: 'weird' } }, { apiError: { kind: 3 } }])(
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
    for (const error of [{ kind: 'parse', message: 'Invalid x', issues: [] }, { kind: 'missingLink', rel: 'self' }, { kind: 'unknown', message: 'x' }] as const) {
      expect(shellErrorMessage(error)).toBe('An unexpected error occurred.');
    }
  });
});
