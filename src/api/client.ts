import { createFetch } from 'ofetch';
import type { z } from 'zod';
import { RETRY_COUNT } from '../domain/constants';
import { linkHref, type HalLike } from '../domain/hal';
import { parseWith } from '../domain/parse';
import { ApiFailure, CANCELLED, fromResponse, isIgnored, toApiError, type ApiError } from './errors';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type MutationMethod = Exclude<Method, 'GET'>;

export type Query = Readonly<Record<string, string | number | boolean | null | undefined>>;

export type RequestOptions = {
  readonly query?: Query;
  readonly signal?: AbortSignal;
  readonly headers?: Readonly<Record<string, string>>;
  /** The caller handles the failure itself; `isIgnored` reports it as ignored. */
  readonly skipErrorHandler?: boolean;
  /** false: one attempt only (for a POST that must never run twice). */
  readonly retry?: boolean;
};

export type ApiClientConfig = {
  /** The API root, absolute ('https://host/api') or same-origin ('/api'). */
  readonly baseURL: string;
  /** A fresh bearer token for each attempt (the identity SDK caches and refreshes it). */
  readonly getToken: () => Promise<string>;
  readonly fetch?: typeof fetch;
  /** Milliseconds to wait before retry number `attempt` (0-based). */
  readonly retryDelay?: (attempt: number) => number;
  /** Told about every failed call that is not ignored (cancelled, or flagged skipErrorHandler): error reporting. */
  readonly onError?: (failure: ApiFailure, request: { readonly method: Method; readonly url: string }) => void;
  /** Extra headers for every call to the API (e.g. a trace context). */
  readonly headers?: () => Readonly<Record<string, string>>;
};

type Mutation = {
  <S extends z.ZodType>(url: string, body: unknown, schema: S, options?: RequestOptions): Promise<z.output<S> | undefined>;
  (url: string, body?: unknown, schema?: undefined, options?: RequestOptions): Promise<void>;
};

type Follow = {
  <S extends z.ZodType>(resource: HalLike, rel: string, options: RequestOptions & { readonly schema: S; readonly method?: 'GET' }): Promise<z.output<S>>;
  <S extends z.ZodType>(
    resource: HalLike,
    rel: string,
    options: RequestOptions & { readonly schema: S; readonly method: MutationMethod; readonly body?: unknown },
  ): Promise<z.output<S> | undefined>;
  (
    resource: HalLike,
    rel: string,
    options: RequestOptions & { readonly schema?: undefined; readonly method: MutationMethod; readonly body?: unknown },
  ): Promise<void>;
};

/**
 * The browser's only door to the API. GET answers are always parsed (an empty answer fails the
 * schema unless it allows undefined); a mutation answered with 204 or an empty body resolves to
 * undefined. Every failure rejects with an ApiFailure carrying a typed ApiError.
 */
export type ApiClient = {
  readonly baseURL: string;
  get<S extends z.ZodType>(url: string, schema: S, options?: RequestOptions): Promise<z.output<S>>;
  readonly post: Mutation;
  readonly put: Mutation;
  readonly patch: Mutation;
  readonly delete: Mutation;
  /** Follows the relation `rel` of `resource`; a missing link rejects with kind 'missingLink'. */
  readonly follow: Follow;
  /** GET a link's body as a Blob with the given Accept (a download: CSV, text), token and retries included. */
  readonly download: (resource: HalLike, rel: string, accept: string, options?: RequestOptions) => Promise<Blob>;
};

const ACCEPT = 'application/hal+json, application/json';

export const defaultRetryDelay = (attempt: number): number => 300 * 2 ** attempt;

const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
// Repeating these cannot do twice what once would do (RFC 9110 idempotent methods).
const IDEMPOTENT = new Set<Method>(['GET', 'PUT', 'DELETE']);

type Call = RequestOptions & {
  readonly method: Method;
  readonly body?: unknown;
  readonly schema?: z.ZodType | undefined;
  /** answer the body as a Blob, unparsed (a file download) */
  readonly blob?: boolean;
};

export function createApiClient(config: ApiClientConfig): ApiClient {
  const $fetch = createFetch({
    fetch: config.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    Headers: globalThis.Headers,
    AbortController: globalThis.AbortController,
  });
  const retryDelay = config.retryDelay ?? defaultRetryDelay;
  const apiRoot = config.baseURL.replace(/\/+$/, '');
  // Link hrefs resolve like URLs against the API root as a directory.
  const linkBase = `${apiRoot}/`;
  const apiOrigin = originOf(apiRoot);
  // The bearer token goes only to the API's own origin, whatever a link points at.
  const carriesToken = (url: string): boolean => !isAbsolute(url) || (apiOrigin !== undefined && originOf(url) === apiOrigin);

  async function send(url: string, call: Call): Promise<unknown> {
    const fail = (apiError: ApiError, cause?: unknown): ApiFailure =>
      new ApiFailure(apiError, { skipErrorHandler: call.skipErrorHandler === true, cause });
    const retries = call.retry === false ? 0 : RETRY_COUNT;
    for (let attempt = 0; ; attempt += 1) {
      if (call.signal?.aborted === true) throw fail(CANCELLED);
      const token = carriesToken(url)
        ? await config.getToken().catch((error: unknown) => {
            throw fail(toApiError(error), error);
          })
        : undefined;
      const outcome = await $fetch
        .raw(url, {
          method: call.method,
          headers: { Accept: ACCEPT, ...config.headers?.(), ...call.headers, ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }) },
          ...(call.body === undefined ? {} : { body: call.body as Record<string, unknown> }),
          ...(call.query === undefined ? {} : { query: definedOnly(call.query) }),
          ...(call.signal === undefined ? {} : { signal: call.signal }),
          retry: false,
          ignoreResponseError: true,
          ...(call.blob === true ? { responseType: 'blob' as const } : {}),
        })
        .then(
          (response) => ({ response }),
          (error: unknown) => ({ error }),
        );

      if ('error' in outcome) {
        const apiError = toApiError(outcome.error);
        // No response at all is retried for every method (the spec retries every call), and is the
        // only retry a POST or PATCH gets: usually the request never reached the server. If it did
        // and only the answer was lost, a POST runs twice; this client's POSTs (login by user id,
        // draft key, question) tolerate that, and a POST that must not gets `retry: false`.
        if (apiError.kind === 'network' && attempt < retries) {
          await pause(retryDelay(attempt), call.signal).catch(() => {
            throw fail(CANCELLED);
          });
          continue;
        }
        throw fail(apiError, outcome.error);
      }

      const { response } = outcome;
      const data: unknown = response._data;
      if (response.status >= 400) {
        if (RETRY_STATUSES.has(response.status) && IDEMPOTENT.has(call.method) && attempt < retries) {
          await pause(retryDelay(attempt), call.signal).catch(() => {
            throw fail(CANCELLED);
          });
          continue;
        }
        throw fail(fromResponse(response.status, await errorBodyOf(data)));
      }
      if (call.blob === true) return data instanceof Blob ? data : new Blob([]);
      if (call.schema === undefined) return undefined;
      const empty = response.status === 204 || response.status === 205 || data === undefined || data === '';
      if (empty && call.method !== 'GET') return undefined;
      const parsed = parseWith(call.schema, empty ? undefined : data);
      if (!parsed.ok) {
        const [first] = parsed.issues;
        const where = first === undefined ? '' : `: ${first.field === '' ? 'the body' : `field '${first.field}'`}: ${first.message}`;
        throw fail({ kind: 'parse', message: `Invalid response of ${call.method} ${url}${where}`, issues: parsed.issues });
      }
      return parsed.value;
    }
  }

  // Every failure passes here once, after the retries, on its way to the caller.
  async function sendReported(url: string, call: Call): Promise<unknown> {
    try {
      return await send(url, call);
    } catch (error) {
      if (error instanceof ApiFailure && !isIgnored(error)) config.onError?.(error, { method: call.method, url });
      throw error;
    }
  }

  const atPath = (path: string): string => (isAbsolute(path) ? path : `${apiRoot}/${path.replace(/^\/+/, '')}`);

  const mutation =
    (method: MutationMethod): Mutation =>
    ((url: string, body?: unknown, schema?: z.ZodType, options: RequestOptions = {}) =>
      sendReported(atPath(url), { ...options, method, body, schema })) as Mutation;

  const follow = (resource: HalLike, rel: string, options: RequestOptions & { method?: Method; body?: unknown; schema?: z.ZodType }) => {
    const href = linkHref(resource, rel, linkBase);
    if (href === undefined) {
      return Promise.reject(new ApiFailure({ kind: 'missingLink', rel }, { skipErrorHandler: options.skipErrorHandler === true }));
    }
    return sendReported(href, { ...options, method: options.method ?? 'GET' });
  };

  return {
    baseURL: apiRoot,
    get: (url, schema, options = {}) => sendReported(atPath(url), { ...options, method: 'GET', schema }) as never,
    post: mutation('POST'),
    put: mutation('PUT'),
    patch: mutation('PATCH'),
    delete: mutation('DELETE'),
    follow: follow as Follow,
    download: (resource, rel, accept, options = {}) => {
      const href = linkHref(resource, rel, linkBase);
      if (href === undefined) return Promise.reject(new ApiFailure({ kind: 'missingLink', rel }, { skipErrorHandler: options.skipErrorHandler === true }));
      return sendReported(href, { ...options, method: 'GET', blob: true, headers: { ...options.headers, Accept: accept } }) as Promise<Blob>;
    },
  };
}

/** A failed download's body arrives as a Blob: read it as JSON (the error body) or text. */
async function errorBodyOf(data: unknown): Promise<unknown> {
  if (!(data instanceof Blob)) return data;
  const text = await data.text().catch(() => '');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** An answer that must have a body (the server promised one): undefined becomes a parse error. */
export function required<T>(value: T | undefined, what: string): T {
  if (value !== undefined) return value;
  throw new ApiFailure({ kind: 'parse', message: `Empty response for ${what}`, issues: [{ field: '', message: 'empty body' }] });
}

function isAbsolute(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//');
}

function originOf(url: string): string | undefined {
  if (!isAbsolute(url)) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function definedOnly(query: Query): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(new Error('aborted'));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
