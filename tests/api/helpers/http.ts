import { expect } from 'vitest';
import { errorBodySchema } from '../../../src/domain/errors';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are read loosely and asserted field by field */

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

export interface ApiClient {
  /** path ('/api/...') or absolute href (a link); a string body is sent as is (for malformed JSON) */
  call(method: string, pathOrHref: string, body?: unknown): Promise<Answer>;
  get(pathOrHref: string): Promise<Answer>;
  raw(method: string, pathOrHref: string, body?: unknown): Promise<Response>;
}

export function apiClient(baseUrl: string, token: string | undefined): ApiClient {
  const raw = (method: string, pathOrHref: string, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(new URL(pathOrHref, baseUrl), {
      method,
      headers,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  };
  const call = async (method: string, pathOrHref: string, body?: unknown): Promise<Answer> => {
    const response = await raw(method, pathOrHref, body);
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : jsonOrText(text), headers: response.headers };
  };
  return { raw, call, get: (pathOrHref) => call('GET', pathOrHref) };
}

/** A body as JSON, or as the text it is (a YAML document, a downloaded file). */
function jsonOrText(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The spec's error body with this status (and, when given, these fields among its errors). */
export function expectError(answer: Answer, status: number, fields: Record<string, string | RegExp> = {}): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  const parsed = errorBodySchema.safeParse(answer.body);
  expect(parsed.success, JSON.stringify(answer.body)).toBe(true);
  expect(answer.body.status).toBe(status);
  expect(typeof answer.body.path).toBe('string');
  expect(String(answer.body.path).startsWith('/api')).toBe(true);
  for (const [field, message] of Object.entries(fields)) {
    const entry = (answer.body.errors as { field: string; defaultMessage: string }[]).find((e) => e.field === field);
    expect(entry, `field error '${field}' in ${JSON.stringify(answer.body.errors)}`).toBeDefined();
    if (typeof message === 'string') expect(entry!.defaultMessage).toBe(message);
    else expect(entry!.defaultMessage).toMatch(message);
  }
}

export function linkOf(resource: any, rel: string): string {
  const href = resource?._links?.[rel]?.href;
  expect(href, `link '${rel}' in ${JSON.stringify(resource?._links)}`).toEqual(expect.any(String));
  return href as string;
}

export function hasLink(resource: any, rel: string): boolean {
  return typeof resource?._links?.[rel]?.href === 'string';
}

/** The embedded list of a collection (an array whatever the body holds, so a missing list fails the assertions that follow). */
export function embedded(body: any, key: string): any[] {
  const list: unknown = body?._embedded?.[key];
  expect(Array.isArray(list), `_embedded.${key} in ${JSON.stringify(body)}`).toBe(true);
  return list as any[];
}

/**
 * "Try again in 1 minute." while under a second of the minute has gone by, "… in 59 seconds." and
 * less once more has (throttle-policy.ts rounds up): what a throttled answer says a minute after
 * the attempt that earned it, however slowly a loaded machine got to the next request.
 */
export const RETRY_WITHIN_A_MINUTE = /Try again in (?:1 minute|[1-5]?\d seconds?)\./;
