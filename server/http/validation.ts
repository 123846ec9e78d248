import { Stream } from 'node:stream';
import type { z } from 'zod';
import { badRequest, zodFieldErrors, type FieldError } from './errors';
import { wellFormed } from '../../src/domain/plainText';

/** The body as `schema` reads it, or a 400 naming every bad field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, objectName: string): z.infer<S> {
  // No body reads as an empty object (a POST the reference sends bare); a JSON null is no object.
  const parsed = schema.safeParse(body === undefined ? {} : body);
  if (!parsed.success) throw badRequest(`Validation failed for object='${objectName}'`, zodFieldErrors(parsed.error, objectName));
  return parsed.data;
}

export function parseQuery<S extends z.ZodType>(schema: S, query: unknown, objectName: string): z.infer<S> {
  const parsed = schema.safeParse(query ?? {});
  if (!parsed.success) throw badRequest('Invalid query parameters', zodFieldErrors(parsed.error, objectName));
  return parsed.data;
}

/** A 400 built from field -> message pairs, when there are any. */
export function rejectFieldErrors(objectName: string, errors: Record<string, string | undefined>): void {
  const list: FieldError[] = Object.entries(errors)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([field, defaultMessage]) => ({ field, objectName, defaultMessage }));
  if (list.length > 0) throw badRequest(`Validation failed for object='${objectName}'`, list);
}

const MAX_DEPTH = 64;

/**
 * PostgreSQL text cannot hold U+0000, and no field of ours means it: a NUL anywhere in the input is
 * a 400 naming the field, before it can reach the database as a 500.
 */
/**
 * A body's strings as UTF-8 can carry them: a lone UTF-16 surrogate (valid in JSON's \u escapes,
 * not in UTF-8) becomes U+FFFD before anything reaches the database.
 */
export function wellFormedStrings(input: unknown, depth = 0): unknown {
  if (typeof input === 'string') return wellFormed(input);
  if (depth > MAX_DEPTH || typeof input !== 'object' || input === null) return input;
  if (Array.isArray(input)) return input.map((item) => wellFormedStrings(item, depth + 1));
  // Only what JSON.parse makes: a Buffer or a stream body is left as it is.
  const proto: unknown = Object.getPrototypeOf(input);
  if (proto !== Object.prototype && proto !== null) return input;
  return Object.fromEntries(Object.entries(input).map(([key, item]) => [wellFormed(key), wellFormedStrings(item, depth + 1)]));
}

export function rejectNulCharacters(input: unknown, objectName: string): void {
  const found: FieldError[] = [];
  const visit = (value: unknown, path: string, depth: number) => {
    if (found.length > 0 || depth > MAX_DEPTH) return;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) found.push({ field: path, objectName, defaultMessage: 'must not contain NUL characters' });
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, path === '' ? String(index) : `${path}[${index}]`, depth + 1));
    } else if (typeof value === 'object' && value !== null) {
      // A Buffer or a stream body (an uploaded file) is bytes, where NUL is content; and walking a
      // stream's object graph (its socket, its server) would never end.
      if (ArrayBuffer.isView(value) || value instanceof Stream) return;
      for (const [key, item] of Object.entries(value)) {
        const field = path === '' ? key : `${path}.${key}`;
        if (key.includes('\u0000')) found.push({ field, objectName, defaultMessage: 'must not contain NUL characters' });
        visit(item, field, depth + 1);
      }
    }
  };
  visit(input, '', 0);
  if (found.length > 0) throw badRequest(`Validation failed for object='${objectName}'`, found);
}

/**
 * Fastify's validator compiler. No route declares a Fastify validation schema: input is parsed by
 * the route's zod schemas (routes/define.ts). A route that declared one anyway fails when it is
 * registered (Fastify names the route), rather than going unvalidated.
 */
export function noSchemaValidation(): never {
  throw new Error('a Fastify validation schema is not compiled here: validate the input with zod through defineRoute');
}
