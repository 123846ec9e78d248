import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ApiFailure, NETWORK } from '../api/errors';
import { failureText } from './failureText';

describe('failureText', () => {
  it('shows API failures as the error catalogue does', () => {
    expect(failureText(new ApiFailure({ kind: 'response', status: 409, message: '[409] in use' }))).toBe('[409] in use');
    expect(failureText(new ApiFailure({ kind: 'server', status: 500, message: 'Database down' }))).toBe('Database down');
    expect(failureText(new ApiFailure(NETWORK))).toBe('We were unable to connect.');
    expect(failureText(new ApiFailure({ kind: 'missingLink', rel: 'update apikey' }))).toBe('An unexpected error occurred.');
    expect(failureText(new ApiFailure({ kind: 'parse', message: 'Invalid response', issues: [] }))).toBe('An unexpected error occurred.');
  });

  it('keeps another effect\'s message and falls back for anything else', () => {
    expect(failureText(new Error('Write permission denied'))).toBe('Write permission denied');
    expect(failureText(new Error('  '))).toBe('An unexpected error occurred.');
    expect(failureText({ apiError: { kind: 'bogus' } })).toBe('An unexpected error occurred.');
    expect(failureText({ apiError: { kind: 'network' } })).toBe('An unexpected error occurred.');
    expect(failureText({ apiError: { kind: 'response', status: 400, message: ' ' } })).toBe('An unexpected error occurred.');
  });

  it('never throws and never returns blank text, whatever is thrown', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.record({ apiError: fc.record({ kind: fc.constantFrom('server', 'response', 'network'), message: fc.anything() }, { requiredKeys: ['kind'] }) })), (thrown) => {
        const text = failureText(thrown);
        expect(text.trim()).not.toBe('');
      }),
    );
  });
});
