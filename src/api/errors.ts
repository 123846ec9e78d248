import { FetchError } from 'ofetch';
import { errorBodySchema, MESSAGES, statusMessage, type ErrorBody } from '../domain/errors';
import { parseWith, type FieldIssue } from '../domain/parse';

// The error catalogue of spec 000 section 8 as data: every failure of a call becomes one of
// these, and the machines and views decide what to show.

export type ApiError =
  | { readonly kind: 'unauthorized' }
  /** 5xx with a message body: the error screen with 'Uh oh!'. */
  | { readonly kind: 'server'; readonly status: number; readonly message: string }
  /** Any other response error: '[status] {body}', with the parsed error body when there is one. */
  | { readonly kind: 'response'; readonly status: number; readonly message: string; readonly body?: ErrorBody }
  | { readonly kind: 'network'; readonly message: string }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'missingLink'; readonly rel: string }
  | { readonly kind: 'parse'; readonly message: string; readonly issues: readonly FieldIssue[] }
  | { readonly kind: 'unknown'; readonly message: string };

/** The rejection of every client call: an Error (so stacks survive) carrying the typed failure. */
export class ApiFailure extends Error {
  override readonly name = 'ApiFailure';
  readonly apiError: ApiError;
  /** Set by requests flagged `skipErrorHandler`: the caller handles the failure itself. */
  readonly skipErrorHandler: boolean;

  constructor(apiError: ApiError, options: { skipErrorHandler?: boolean; cause?: unknown } = {}) {
    super(describeApiError(apiError), options.cause === undefined ? undefined : { cause: options.cause });
    this.apiError = apiError;
    this.skipErrorHandler = options.skipErrorHandler === true;
  }
}

/** The identity provider's errors that mean "sign in again" (auth0-spa-js `error` codes). */
const SIGN_IN_AGAIN = new Set(['login_required', 'consent_required']);

export const UNAUTHORIZED: ApiError = { kind: 'unauthorized' };
export const CANCELLED: ApiError = { kind: 'cancelled' };
export const NETWORK: ApiError = { kind: 'network', message: MESSAGES.unableToConnect };
export const UNKNOWN: ApiError = { kind: 'unknown', message: MESSAGES.unexpected };

/** Maps a response status and its (already decoded) body onto the catalogue. */
export function fromResponse(status: number, body: unknown): ApiError {
  if (status === 401 || isSignInAgain(body)) return UNAUTHORIZED;
  const message = serverMessage(body);
  if (status >= 500 && message !== undefined) return { kind: 'server', status, message };
  const parsed = parseWith(errorBodySchema, body);
  return {
    kind: 'response',
    status,
    message: statusMessage(status, body),
    ...(parsed.ok ? { body: parsed.value } : {}),
  };
}

/** Any thrown value as an ApiError; never throws. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiFailure) return error.apiError;
  if (isAbort(error)) return CANCELLED;
  if (isSignInAgain(error)) return UNAUTHORIZED;
  if (error instanceof FetchError) {
    if (isAbort(error.cause)) return CANCELLED;
    return error.response === undefined ? NETWORK : fromResponse(error.response.status, error.data);
  }
  return UNKNOWN;
}

/** Failures nobody is told about: cancelled calls, and calls flagged `skipErrorHandler`. */
export function isIgnored(error: unknown): boolean {
  if (error instanceof ApiFailure && error.skipErrorHandler) return true;
  return toApiError(error).kind === 'cancelled';
}

/** Field name -> message of a 400 validation body ('name', 'properties.tap.setting', ...). */
export function fieldErrors(error: unknown): Record<string, string> {
  const apiError = toApiError(error);
  if (apiError.kind !== 'response' || apiError.status !== 400) return {};
  // A Map, then fromEntries: field names such as '__proto__' or 'constructor' stay plain keys.
  const fields = new Map<string, string>();
  for (const entry of apiError.body?.errors ?? []) {
    if (!fields.has(entry.field)) fields.set(entry.field, entry.defaultMessage);
  }
  return Object.fromEntries(fields);
}

/** The text a user sees for the failure. */
export function describeApiError(error: ApiError): string {
  switch (error.kind) {
    case 'server':
    case 'response':
    case 'network':
    case 'parse':
    case 'unknown':
      return error.message;
    case 'unauthorized':
      return 'Sign-in required';
    case 'cancelled':
      return 'Cancelled';
    case 'missingLink':
      return `Missing link '${error.rel}'`;
  }
}

function isSignInAgain(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const code = value.error;
  return typeof code === 'string' && SIGN_IN_AGAIN.has(code);
}

// DOMException is not an Error subclass in every runtime, so the name decides.
function isAbort(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { name?: unknown }).name === 'AbortError';
}

function serverMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() === '' ? undefined : body;
  if (typeof body !== 'object' || body === null || !('message' in body)) return undefined;
  const message = body.message;
  return typeof message === 'string' && message.trim() !== '' ? message : undefined;
}
