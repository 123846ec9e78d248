import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorBodySchema, fieldErrorSchema, MESSAGES, statusMessage } from './errors';
import { parseWith } from './parse';

describe('errorBodySchema', () => {
  const body = {
    timestamp: '2024-05-01T10:00:00.000Z',
    status: 400,
    error: 'Bad Request',
    message: 'Validation failed',
    path: '/api/apikeys/1',
    errors: [{ field: 'name', objectName: 'apiKey', defaultMessage: 'Name is mandatory', rejectedValue: '' }],
  };

  it('parses a validation error body with field errors', () => {
    const parsed = errorBodySchema.parse(body);
    expect(parsed.errors?.[0]?.field).toBe('name');
    expect(parsed.errors?.[0]?.['rejectedValue']).toBe('');
  });

  it('accepts a body without field errors', () => {
    const { errors: _errors, ...withoutErrors } = body;
    expect(errorBodySchema.parse(withoutErrors).status).toBe(400);
  });

  it('names the wrong field', () => {
    expect(parseWith(errorBodySchema, { ...body, status: '400' })).toMatchObject({ ok: false, issues: [{ field: 'status' }] });
    expect(parseWith(errorBodySchema, { ...body, errors: [{ field: 'name', objectName: 'apiKey' }] })).toMatchObject({
      ok: false,
      issues: [{ field: 'errors.0.defaultMessage' }],
    });
    expect(fieldErrorSchema.safeParse({ field: 1, objectName: 'o', defaultMessage: 'm' }).success).toBe(false);
  });
});

// The spec beside the repository (../shared/spec, where CI keeps it): every message is one of its
// texts word for word, checked against the spec itself rather than a copy of the table.
const SPEC_DIR = path.resolve(import.meta.dirname, '../../../shared/spec');

// In a clone of the project alone there is no spec: the check is reported as skipped. A skipped
// describe's body still runs while vitest collects it, so the spec is read only where it exists.
const specHere = fs.existsSync(SPEC_DIR);
describe.skipIf(!specHere)('MESSAGES', () => {
  const spec = specHere
    ? fs
        .readdirSync(SPEC_DIR)
        .filter((file) => file.endsWith('.md'))
        .map((file) => fs.readFileSync(path.join(SPEC_DIR, file), 'utf8'))
        .join('\n')
    : '';

  it.each(Object.entries(MESSAGES))('%s is a text of the spec, word for word', (_key, text) => {
    expect(spec).toContain(text);
  });

  it('has no two keys for one text', () => {
    const texts = Object.values(MESSAGES);
    expect(new Set(texts).size).toBe(texts.length);
  });
});

describe('statusMessage', () => {
  it("formats '[status] {body}'", () => {
    expect(statusMessage(404, 'Not Found')).toBe('[404] Not Found');
    expect(statusMessage(409, { message: 'Conflict' })).toBe('[409] {"message":"Conflict"}');
    expect(statusMessage(500, 42)).toBe('[500] 42');
    expect(statusMessage(418, 10n)).toBe('[418] 10');
  });

  it('leaves out an empty body', () => {
    expect(statusMessage(502, null)).toBe('[502]');
    expect(statusMessage(502, undefined)).toBe('[502]');
    expect(statusMessage(502, () => 1)).toBe('[502]');
  });

  it('survives a cyclic body', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(statusMessage(500, cyclic)).toBe('[500] [object Object]');
  });

  it('always starts with the bracketed status and never throws', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 599 }), fc.anything(), (status, body) => {
        expect(statusMessage(status, body).startsWith(`[${status}]`)).toBe(true);
      }),
    );
  });
});
