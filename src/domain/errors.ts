import { z } from 'zod';

// The server's error body (Spring style, as the Matatika API documents it) and the client's error
// catalogue of spec 000 section 8, word for word.

export const fieldErrorSchema = z.looseObject({
  field: z.string(),
  objectName: z.string(),
  defaultMessage: z.string(),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

export const errorBodySchema = z.looseObject({
  timestamp: z.string(),
  status: z.int(),
  error: z.string(),
  message: z.string(),
  path: z.string(),
  errors: z.array(fieldErrorSchema).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const MESSAGES = {
  uhOh: 'Uh oh!',
  unableToConnect: 'We were unable to connect.',
  unexpected: 'An unexpected error occurred.',
  verifyEmail: 'Please verify your email before logging in.',
  changePasswordFailed: 'Error ! Please try again',
  noAnswer: 'We found no information related to your request.',
  nameMandatory: 'Name is mandatory',
  profileSaveFailed: 'Error while updating. Please try again.',
  copied: 'Copied',
  profileUpdated: 'Profile updated successfully!',
  profileUpdatedDefault: 'Profile updated !',
  secretNotShownAgain: 'Your client secret will not be shown again',
  loggingOut: 'Logging out',
  loggedOut: 'You are logged out.',
  noAccount: 'You do not have an account.',
  verifyAccount: 'Please check your email and verify your account',
} as const;

/** '[status] {body}' for a response error; a non-text body is shown as JSON. */
export function statusMessage(status: number, body: unknown): string {
  const text = bodyText(body);
  return text === '' ? `[${status}]` : `[${status}] ${text}`;
}

function bodyText(body: unknown): string {
  if (body === null || body === undefined) return '';
  if (typeof body === 'string') return body;
  if (typeof body === 'bigint') return body.toString();
  try {
    // functions and symbols have no JSON form and no useful text either
    const json: string | undefined = JSON.stringify(body);
    return json ?? '';
  } catch {
    // a cyclic value cannot be JSON
    return Object.prototype.toString.call(body);
  }
}
