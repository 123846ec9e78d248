import type { z } from 'zod';
import { badRequest, zodFieldErrors, type FieldError } from '../http/errors';

/** The body as `schema` reads it, or a 400 naming every bad field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, objectName: string): z.infer<S> {
  const parsed = schema.safeParse(body ?? {});
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
