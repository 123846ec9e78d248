import { isOAuthProvider, type OAuthProvider } from '../../src/domain/oauth';
import type { OAuthCredentials } from '../../src/domain/resources';

// A component's OAuth credentials live in its properties as the 'oauth_credentials' settings of
// spec 001 §3 (access_token, refresh_token) plus when they expire, when they were obtained and from
// which provider. The tokens are sensitive by name: every body masks them (pipelineRules'
// SECRET_NAME), and only this server reads them back.

const CREDENTIAL_SETTING = 'oauth_credentials';
const KEYS = {
  accessToken: `${CREDENTIAL_SETTING}.access_token`,
  refreshToken: `${CREDENTIAL_SETTING}.refresh_token`,
  expiresAt: `${CREDENTIAL_SETTING}.expires_at`,
  refreshedAt: `${CREDENTIAL_SETTING}.refreshed_at`,
  provider: `${CREDENTIAL_SETTING}.provider`,
} as const;
const CREDENTIAL_KEYS: readonly string[] = Object.values(KEYS);

const isCredentialKey = (key: string): boolean => CREDENTIAL_KEYS.includes(key);

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

interface StoredCredentials {
  accessToken: string | undefined;
  refreshToken: string | undefined;
  expiresAt: string | undefined;
  refreshedAt: string | undefined;
  provider: OAuthProvider | undefined;
}

export function storedCredentials(properties: Readonly<Record<string, unknown>>): StoredCredentials {
  const provider = properties[KEYS.provider];
  return {
    accessToken: text(properties[KEYS.accessToken]),
    refreshToken: text(properties[KEYS.refreshToken]),
    expiresAt: text(properties[KEYS.expiresAt]),
    refreshedAt: text(properties[KEYS.refreshedAt]),
    provider: isOAuthProvider(provider) ? provider : undefined,
  };
}

/** What a body says of the credentials: never a token. Spec §4: authorised when an access token exists. */
export function credentialsSummary(properties: Readonly<Record<string, unknown>>): OAuthCredentials {
  const stored = storedCredentials(properties);
  return {
    connected: stored.accessToken !== undefined,
    provider: stored.provider ?? null,
    expiresAt: stored.expiresAt ?? null,
    refreshedAt: stored.refreshedAt ?? null,
    refreshable: stored.refreshToken !== undefined,
  };
}

/** The properties with new tokens; a refresh token the provider did not rotate keeps the stored one. */
export function withCredentials(
  properties: Readonly<Record<string, unknown>>,
  update: { provider: OAuthProvider; accessToken: string; refreshToken: string | undefined; expiresAt: string | undefined; now: Date },
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...withoutCredentials(properties) };
  out[KEYS.provider] = update.provider;
  out[KEYS.accessToken] = update.accessToken;
  const refreshToken = update.refreshToken ?? storedCredentials(properties).refreshToken;
  if (refreshToken !== undefined) out[KEYS.refreshToken] = refreshToken;
  if (update.expiresAt !== undefined) out[KEYS.expiresAt] = update.expiresAt;
  out[KEYS.refreshedAt] = update.now.toISOString();
  return out;
}

export function withoutCredentials(properties: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(properties).filter(([key]) => !isCredentialKey(key)));
}

/** The stored credential entries, to carry over when a form saves the component's other properties. */
export function credentialEntries(properties: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(properties).filter(([key]) => isCredentialKey(key)));
}
