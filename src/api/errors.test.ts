import fc from 'fast-check';
import { FetchError } from 'ofetch';
import { describe, expect, it } from 'vitest';
import { ApiFailure, describeApiError, fieldErrors, fromResponse, isIgnored, toApiError } from './errors';

const KINDS = ['unauthorized', 'server', 'response', 'network', 'cancelled', 'missingLink', 'parse', 'unknown'];

describe('fromResponse', () => {
  it('maps 401 to unauthorized whatever the body', () => {
    fc.assert(
      fc.property(fc.anything(), (body) => {
        expect(fromResponse(401, body)).toEqual({ kind: 'unauthorized' });
      }),
    );
  });

  it.each(['login_required', 'consent_required'])('maps a body with error %s to unauthorized', (error) => {
    expect(fromResponse(403, { error })).toEqual({ kind: 'unauthorized' });
  });

  it('maps a 5xx with a non-blank message to a server error with that message', () => {
    fc.assert(
      fc.property(fc.integer({ min: 500, max: 599 }), fc.string().filter((s) => s.trim() !== ''), (status, message) => {
        expect(fromResponse(status, { message })).toEqual({ kind: 'server', status, message });
      }),
    );
  });

  it('maps a 5xx with a blank message to "[status] {body}"', () => {
    expect(fromResponse(503, { message: '  ' })).toEqual({ kind: 'response', status: 503, message: '[503] {"message":"  "}' });
    expect(fromResponse(500, undefined)).toEqual({ kind: 'response', status: 500, message: '[500]' });
  });

  it('keeps a Spring error body for its field errors', () => {
    const body = { timestamp: 't', status: 400, error: 'Bad Request', message: 'bad', path: '/x', errors: [{ field: 'name', objectName: 'o', defaultMessage: 'Name is mandatory' }] };
    const error = fromResponse(400, body);
    expect(error).toEqual({ kind: 'response', status: 400, message: `[400] ${JSON.stringify(body)}`, body });
  });

  it('never throws and always yields a catalogue kind, on hostile bodies too', () => {
    fc.assert(
      fc.property(fc.integer({ min: 400, max: 599 }), fc.anything({ withBigInt: true, withMap: true, withSet: true }), (status, body) => {
        expect(KINDS).toContain(fromResponse(status, body).kind);
      }),
    );
  });
});

describe('toApiError', () => {
  it('unwraps an ApiFailure', () => {
    expect(toApiError(new ApiFailure({ kind: 'missingLink', rel: 'self' }))).toEqual({ kind: 'missingLink', rel: 'self' });
  });

  it('maps aborts to cancelled, directly or as the cause of a FetchError', () => {
    const abort = Object.assign(new Error('aborted'), { name: 'AbortError' });
    expect(toApiError(abort)).toEqual({ kind: 'cancelled' });
    expect(toApiError(new FetchError('x', { cause: abort }))).toEqual({ kind: 'cancelled' });
    expect(toApiError(new DOMException('aborted', 'AbortError'))).toEqual({ kind: 'cancelled' });
  });

  it('maps a FetchError without a response to the no-connection message', () => {
    expect(toApiError(new FetchError('x'))).toEqual({ kind: 'network', message: 'We were unable to connect.' });
  });

  it('maps the identity provider sign-in errors to unauthorized', () => {
    expect(toApiError({ error: 'login_required' })).toEqual({ kind: 'unauthorized' });
    expect(toApiError(Object.assign(new Error('x'), { error: 'consent_required' }))).toEqual({ kind: 'unauthorized' });
    expect(toApiError({ error: 'invalid_grant' })).toEqual({ kind: 'unknown', message: 'An unexpected error occurred.' });
  });

  it('falls back to the unexpected-error message for anything else, never throwing', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const error = toApiError(value);
        expect(KINDS).toContain(error.kind);
      }),
    );
    expect(toApiError(new TypeError('boom'))).toEqual({ kind: 'unknown', message: 'An unexpected error occurred.' });
  });
});

describe('isIgnored', () => {
  it('ignores cancelled calls and calls flagged to skip the handler', () => {
    expect(isIgnored(new ApiFailure({ kind: 'cancelled' }))).toBe(true);
    expect(isIgnored(new ApiFailure({ kind: 'network', message: 'x' }, { skipErrorHandler: true }))).toBe(true);
    expect(isIgnored(new ApiFailure({ kind: 'network', message: 'x' }))).toBe(false);
    expect(isIgnored(new Error('x'))).toBe(false);
  });
});

describe('fieldErrors', () => {
  const body = (errors: unknown[]) => ({ timestamp: 't', status: 400, error: 'Bad Request', message: 'm', path: '/p', errors });

  it('lists field -> message of a 400, first message per field', () => {
    const failure = new ApiFailure(
      fromResponse(
        400,
        body([
          { field: 'name', objectName: 'o', defaultMessage: 'Name is mandatory' },
          { field: 'name', objectName: 'o', defaultMessage: 'second' },
          { field: 'properties.tap-x.password', objectName: 'o', defaultMessage: 'Required' },
        ]),
      ),
    );
    expect(fieldErrors(failure)).toEqual({ name: 'Name is mandatory', 'properties.tap-x.password': 'Required' });
  });

  it('is empty for other statuses and other failures', () => {
    expect(fieldErrors(new ApiFailure(fromResponse(409, body([{ field: 'name', objectName: 'o', defaultMessage: 'x' }]))))).toEqual({});
    expect(fieldErrors(new Error('x'))).toEqual({});
    expect(fieldErrors(new ApiFailure(fromResponse(400, 'plain text')))).toEqual({});
  });

  it('keeps fields named like Object members as plain entries', () => {
    const failure = new ApiFailure(
      fromResponse(
        400,
        body([
          { field: '__proto__', objectName: 'o', defaultMessage: 'a' },
          { field: 'constructor', objectName: 'o', defaultMessage: 'b' },
        ]),
      ),
    );
    const fields = fieldErrors(failure);
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect(Object.entries(fields)).toEqual([
      ['__proto__', 'a'],
      ['constructor', 'b'],
    ]);
  });
});

describe('describeApiError', () => {
  it('shows the catalogue messages', () => {
    expect(describeApiError({ kind: 'network', message: 'We were unable to connect.' })).toBe('We were unable to connect.');
    expect(describeApiError({ kind: 'server', status: 500, message: 'Boom' })).toBe('Boom');
    expect(describeApiError({ kind: 'missingLink', rel: 'self' })).toContain('self');
  });
});
