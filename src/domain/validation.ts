// Form rules of spec 000 sections 2.7, 2.9, 2.10 and 5, with their texts word for word.

export const PROFILE_MESSAGES = {
  nameRequired: 'Enter your name',
  emailInvalid: 'Enter valid email address',
} as const;

export const API_KEY_NAME_REQUIRED = 'Name is mandatory';

const MAX_EMAIL_LENGTH = 254;
// The HTML living standard's valid-email-address rule, plus a dotted domain: a bare host such as
// 'user@localhost' is not an address a person can receive mail at. Labels exclude '.', so the
// pattern cannot backtrack catastrophically.
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** Checked on the trimmed text: forms should send the trimmed value. */
export function isValidEmail(text: string | null | undefined): boolean {
  if (typeof text !== 'string') return false;
  const email = text.trim();
  return email.length <= MAX_EMAIL_LENGTH && EMAIL.test(email);
}

function isBlank(text: string | null | undefined): boolean {
  return typeof text !== 'string' || text.trim() === '';
}

export type ProfileErrors = Partial<Record<'name' | 'email', string>>;

/** Field -> message; an empty object means the profile may be saved. */
export function validateProfile({ name, email }: { name: string | null | undefined; email: string | null | undefined }): ProfileErrors {
  const errors: ProfileErrors = {};
  if (isBlank(name)) errors.name = PROFILE_MESSAGES.nameRequired;
  if (!isValidEmail(email)) errors.email = PROFILE_MESSAGES.emailInvalid;
  return errors;
}

/** The field message, or undefined when the name may be saved. */
export function validateApiKeyName(name: string | null | undefined): string | undefined {
  return isBlank(name) ? API_KEY_NAME_REQUIRED : undefined;
}

/** Enter submits a question only when there is text. */
export function canSubmitQuestion(text: string | null | undefined): boolean {
  return !isBlank(text);
}

/** Only accounts of the identity provider's own database (user ids 'auth0|...') may change email. */
export function isEmailEditable(userId: string | null | undefined): boolean {
  return typeof userId === 'string' && userId.startsWith('auth0');
}
