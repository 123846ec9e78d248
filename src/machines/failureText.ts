import { MESSAGES } from '../domain/errors';
import { apiErrorOf, shellErrorMessage } from './apiError';

/**
 * The text a machine keeps for a failed actor, in the words of spec 000 section 8. An API
 * failure (anything carrying `apiError`) reads as the shell's error view would show it; another
 * effect's Error (the clipboard, say) keeps its own message; anything else is
 * 'An unexpected error occurred.'.
 */
export function failureText(error: unknown): string {
  const text: unknown =
    typeof error === 'object' && error !== null && 'apiError' in error ? shellErrorMessage(apiErrorOf(error)) : error instanceof Error ? error.message : undefined;
  // apiErrorOf checks only the kind, so a look-alike object may carry no message at all.
  return typeof text === 'string' && text.trim() !== '' ? text : MESSAGES.unexpected;
}
