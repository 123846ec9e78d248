import { MAX_PASSWORD_LENGTH } from './passwords';

/**
 * What a new password must be (sign-up, password reset — which is also how the SPA's change
 * password works): long enough, not absurdly long, and not one of the passwords attackers try
 * first. NIST SP 800-63B asks for exactly that instead of composition rules.
 *
 * The list is the head of zxcvbn-ts's frequency-ranked password list (MIT), the same data its
 * strength estimator uses. Existing passwords (the seeded demo users) are never re-checked: the
 * policy applies where a password is chosen, not where it is used.
 */
export const MIN_PASSWORD_LENGTH = 10;
export { MAX_PASSWORD_LENGTH };
const COMMON_PASSWORDS_CHECKED = 10_000;

export const PASSWORD_MESSAGES = {
  tooShort: `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`,
  tooLong: `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`,
  common: 'This password is one of the most common passwords, the first ones attackers try. Choose another.',
} as const;

let common: Promise<ReadonlySet<string>> | undefined;

/**
 * The list is imported when a password is first chosen, not at start: the package (its password,
 * diceware and keyboard lists) holds ~7 MB that an idle server, and every sign-in, never needs.
 */
function commonPasswords(): Promise<ReadonlySet<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set((dictionary['passwords-common'] as readonly string[]).slice(0, COMMON_PASSWORDS_CHECKED).map(fold)),
    (error: unknown) => {
      common = undefined;
      throw error;
    },
  );
  return common;
}

/** The form compared with the list: the hash normalises with NFKC too, and case does not make 'Password123' rarer. */
const fold = (password: string) => password.normalize('NFKC').toLowerCase();

/** Length in characters as a person counts them (code points), after the same normalisation as the hash. */
const passwordLength = (password: string) => [...password.normalize('NFKC')].length;

export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(fold(password));
}

/** Why `password` may not be chosen, as the form shows it; undefined when it may. */
export async function passwordProblem(password: string): Promise<string | undefined> {
  // The cap in UTF-16 units, as verifyPassword applies it: a password allowed here can always sign in.
  if (password.length > MAX_PASSWORD_LENGTH) return PASSWORD_MESSAGES.tooLong;
  if (passwordLength(password) < MIN_PASSWORD_LENGTH) return PASSWORD_MESSAGES.tooShort;
  if (await isCommonPassword(password)) return PASSWORD_MESSAGES.common;
  return undefined;
}
