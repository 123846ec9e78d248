import type { ApiError } from '../api/errors';
import { MESSAGES } from '../domain/errors';

// Actors reject with the API client's ApiFailure, which carries a typed ApiError. Machines read it
// structurally so they import no value from src/api; anything else counts as unexpected.

const KINDS = new Set<string>(['unauthorized', 'server', 'response', 'network', 'cancelled', 'missingLink', 'parse', 'unknown']);

export const UNEXPECTED: ApiError = { kind: 'unknown', message: MESSAGES.unexpected };

export function apiErrorOf(error: unknown): ApiError {
  if (typeof error !== 'object' || error === null || !('apiError' in error)) return UNEXPECTED;
  const candidate = error.apiError;
  if (typeof candidate !== 'object' || candidate === null || !('kind' in candidate)) return UNEXPECTED;
  return typeof candidate.kind === 'string' && KINDS.has(candidate.kind) ? (candidate as ApiError) : UNEXPECTED;
}

/**
 * The text of the shell's error view (spec 000 section 8): the server's message, '[status] {body}',
 * 'We were unable to connect.', or the fallback 'An unexpected error occurred.'.
 */
export function shellErrorMessage(error: ApiError): string {
  switch (error.kind) {
    case 'server':
    case 'response':
    case 'network':
      return error.message;
    default:
      return MESSAGES.unexpected;
  }
}
