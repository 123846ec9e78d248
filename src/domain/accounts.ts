/**
 * Spec 000 §2.3: people who sign in with Google or Microsoft change their password at that
 * provider, not with us. The identity provider's user id says which connection signed them in.
 */
const PROVIDER_PASSWORD_PAGES: ReadonlyArray<readonly [prefix: string, url: string]> = [
  ['google-oauth2|', 'https://myaccount.google.com/signinoptions/password'],
  ['windowslive|', 'https://account.live.com/password/change'],
  ['waad|', 'https://mysignins.microsoft.com/security-info/password/change'],
  ['microsoft|', 'https://account.live.com/password/change'],
];

export function externalPasswordPage(userId: string | null | undefined): string | undefined {
  if (typeof userId !== 'string') return undefined;
  return PROVIDER_PASSWORD_PAGES.find(([prefix]) => userId.startsWith(prefix))?.[1];
}
