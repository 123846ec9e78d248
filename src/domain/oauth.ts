// OAuth connect of a data source (spec 001 §4 'OAuth connection', §7 'OAuth and pickers', §8, §9):
// which token provider an authorization url belongs to, the PKCE pair, the popup's geometry and
// polling, the authorization request, and how healthy a stored credential is. Shared by the SPA
// (the popup and the setting editor) and the server (which provider's secret to use).

export const OAUTH_PROVIDERS = ['oauth2-google', 'oauth2-microsoft', 'oauth2-facebook', 'oauth2-linkedin'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

export const isOAuthProvider = (value: unknown): value is OAuthProvider => typeof value === 'string' && (OAUTH_PROVIDERS as readonly string[]).includes(value);

/** Spec §9. */
export const OAUTH_POPUP = { width: 700, height: 800 } as const;
/** Spec §4 and §9: the opener looks for the returned code this often. */
export const OAUTH_POLL_DELAY_MS = 500;
/** Spec §9: the PKCE verifier's length and alphabet. */
const PKCE_VERIFIER_LENGTH = 96;
export const PKCE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A credential this close to its expiry is shown with a warning. */
export const OAUTH_EXPIRY_WARNING_MS = 10 * 60 * 1000;

export const OAUTH_TEXTS = {
  popupBlocked: 'Popup blocked. Disable popup blocker to authorise data source.',
  insecureContext: "The context/environment is not secure, and does not support the 'crypto.subtle' module",
  notAuthorized: 'Data source must be authorized',
  popupClosed: 'The authorisation window was closed before the data source was authorised.',
  unsupported: (url: string) => `Authorization url not supported: ${url}`,
} as const;

/** The well-known authorization hosts of each provider (the url's host, or a suffix of it after a dot). */
const KNOWN_HOSTS: Readonly<Record<OAuthProvider, readonly string[]>> = {
  'oauth2-google': ['accounts.google.com'],
  'oauth2-microsoft': ['login.microsoftonline.com', 'login.live.com'],
  'oauth2-facebook': ['facebook.com'],
  'oauth2-linkedin': ['linkedin.com'],
};

function parseUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

const hostMatches = (host: string, known: string) => host === known || host.endsWith(`.${known}`);
/** `/ms/x` is under `/ms` and `/ms/`; `/msevil` is under neither. */
const underPath = (path: string, base: string) => path === base || path.startsWith(base.endsWith('/') ? base : `${base}/`);

/**
 * The token provider of an authorization url (spec §7), or undefined ('Authorization url not
 * supported'). `configured` adds a deployment's own authorization urls per provider (a provider
 * behind another host, or a local one in tests): a url starting with one of them is that provider's.
 * Well-known hosts count only over https.
 */
export function providerOf(authorizationUrl: string, configured: Partial<Record<OAuthProvider, readonly string[]>> = {}): OAuthProvider | undefined {
  const url = parseUrl(authorizationUrl.trim());
  if (!url) return undefined;
  for (const provider of OAUTH_PROVIDERS) {
    for (const prefix of configured[provider] ?? []) {
      const base = parseUrl(prefix);
      if (base && url.origin === base.origin && underPath(url.pathname, base.pathname)) return provider;
    }
  }
  if (url.protocol !== 'https:') return undefined;
  const host = url.hostname.toLowerCase();
  return OAUTH_PROVIDERS.find((provider) => KNOWN_HOSTS[provider].some((known) => hostMatches(host, known)));
}

/** A PKCE verifier: 96 characters of the alphanumeric alphabet, drawn from `random` bytes without bias. */
export function pkceVerifier(random: (length: number) => Uint8Array): string {
  const limit = 256 - (256 % PKCE_ALPHABET.length); // 248: bytes at or above it are redrawn
  let verifier = '';
  while (verifier.length < PKCE_VERIFIER_LENGTH) {
    for (const byte of random(PKCE_VERIFIER_LENGTH)) {
      if (byte < limit && verifier.length < PKCE_VERIFIER_LENGTH) verifier += PKCE_ALPHABET[byte % PKCE_ALPHABET.length];
    }
  }
  return verifier;
}

export function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The S256 challenge of a verifier; refused with the spec's text where there is no crypto.subtle (an insecure context). */
export async function pkceChallenge(verifier: string, subtle: SubtleCrypto | undefined): Promise<string> {
  if (!subtle) throw new Error(OAUTH_TEXTS.insecureContext);
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

interface AuthorizationRequest {
  authorizationUrl: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string;
  codeChallenge: string;
}

/** The provider's authorization url with the code-flow parameters added (ones already in the url are replaced). */
export function authorizationRequestUrl(request: AuthorizationRequest): string {
  const url = new URL(request.authorizationUrl);
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    scope: request.scope,
    state: request.state,
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
    // a refresh token is only handed out for offline access, and again only on renewed consent
    access_type: 'offline',
    prompt: 'consent',
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

/** What the popup's return page left for its opener: the code, or the provider's error. */
type PopupReturn = { code: string; state: string | null } | { error: string };

export function readPopupReturn(search: string): PopupReturn | undefined {
  const params = new URLSearchParams(search);
  const error = params.get('error');
  if (error !== null) return { error: params.get('error_description') ?? error };
  const code = params.get('code');
  return code === null || code === '' ? undefined : { code, state: params.get('state') };
}

// The OAuth settings of a component (spec §3): the OAUTH setting's name is the prefix of its parts.
export const OAUTH_PARTS = ['authorization_url', 'scope', 'access_token', 'refresh_token'] as const;
export const oauthKey = (settingName: string, part: (typeof OAUTH_PARTS)[number] | 'expires_at' | 'refreshed_at' | 'provider'): string => `${settingName}.${part}`;

const textOf = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** Spec §4: authorization is required when an authorization url and a scope are set. */
export function isAuthorizationRequired(authorizationUrl: unknown, scope: unknown): boolean {
  return textOf(authorizationUrl) !== '' && textOf(scope) !== '';
}

type CredentialHealth = 'none' | 'valid' | 'expiring' | 'expired';

/** How a stored credential stands at `now`: no token, valid, expiring within the warning window, or expired. */
export function credentialHealth(credential: { connected: boolean; expiresAt?: string | null }, now: number): CredentialHealth {
  if (!credential.connected) return 'none';
  const expires = credential.expiresAt ? Date.parse(credential.expiresAt) : Number.NaN;
  if (Number.isNaN(expires)) return 'valid';
  if (expires <= now) return 'expired';
  return expires - now <= OAUTH_EXPIRY_WARNING_MS ? 'expiring' : 'valid';
}

/** The instant a token expires, from the provider's `expires_in` seconds; undefined when it gave none or nonsense. */
export function expiryOf(expiresIn: unknown, now: number): string | undefined {
  const seconds = typeof expiresIn === 'string' && /^\d{1,9}$/.test(expiresIn) ? Number(expiresIn) : expiresIn;
  if (typeof seconds !== 'number' || !Number.isSafeInteger(seconds) || seconds <= 0 || seconds > 10 * 365 * 24 * 3600) return undefined;
  return new Date(now + seconds * 1000).toISOString();
}

export type PickerKind = 'drive' | 'analytics' | 'ads';

/** Which third-party list fills a setting (spec §5 'Pickers for spreadsheet or account choices'), by the setting's name. */
export function pickerOf(settingName: string): PickerKind | undefined {
  switch (settingName) {
    case 'spreadsheet_id':
      return 'drive';
    case 'view_id':
    case 'profile_id':
      return 'analytics';
    case 'customer_id':
    case 'customer_ids':
    case 'login_customer_id':
      return 'ads';
    default:
      return undefined;
  }
}
