import { MESSAGES } from '../domain/errors';

/**
 * The text a machine keeps for a failed actor. The API client rejects only with ApiFailure, whose
 * message is already the catalogue text of spec 000 section 8; anything without a message falls
 * back to the catalogue's 'An unexpected error occurred.'.
 */
export function failureText(error: unknown): string {
  return error instanceof Error && error.message.trim() !== '' ? error.message : MESSAGES.unexpected;
}
