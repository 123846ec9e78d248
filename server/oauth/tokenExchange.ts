import type { OAuthClientConfig } from '../config';
import { HttpError, badRequest } from '../http/errors';

// The server's half of OAuth connect (spec 001 §7): the code and refresh-token grants against a
// provider's token endpoint, made with the client secret only this server holds. The provider is
// third-party: its answer is size-capped, time-limited and read field by field.

const MAX_RESPONSE_BYTES = 64 * 1024;

interface TokenGrant {
  grant_type: 'authorization_code' | 'refresh_token';
  code?: string | undefined;
  code_verifier?: string | undefined;
  redirect_uri?: string | null | undefined;
  scope?: string | null | undefined;
  refresh_token?: string | undefined;
}

interface ProviderTokens {
  accessToken: string;
  /** a rotated (or first) refresh token; undefined when the provider kept the old one */
  refreshToken: string | undefined;
  expiresIn: unknown;
  tokenType: string | undefined;
  scope: string | undefined;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

async function readCapped(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new HttpError(502, 'The token provider answered with too much data');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Exchanges a grant at the provider: 400 (field `code` or `refresh_token`) when the provider refuses it, 502 when it fails or cannot be reached. */
export async function exchangeGrant(client: OAuthClientConfig, grant: TokenGrant, timeoutMs: number, objectName: string): Promise<ProviderTokens> {
  const form = new URLSearchParams({ grant_type: grant.grant_type, client_id: client.clientId, client_secret: client.clientSecret });
  if (grant.grant_type === 'authorization_code') {
    form.set('code', grant.code ?? '');
    if (grant.code_verifier) form.set('code_verifier', grant.code_verifier);
    if (grant.redirect_uri) form.set('redirect_uri', grant.redirect_uri);
  } else {
    form.set('refresh_token', grant.refresh_token ?? '');
  }
  if (grant.scope) form.set('scope', grant.scope);

  let response: Response;
  try {
    response = await fetch(client.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form,
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    throw new HttpError(502, 'The token provider could not be reached');
  }
  const body = await readCapped(response);
  let parsed: Record<string, unknown> = {};
  try {
    const value: unknown = JSON.parse(body);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) parsed = value as Record<string, unknown>;
  } catch {
    // Facebook's older endpoints answer form-encoded
    parsed = Object.fromEntries(new URLSearchParams(body));
  }
  const field = grant.grant_type === 'authorization_code' ? 'code' : 'refresh_token';
  if (response.status >= 400 && response.status < 500) {
    const reason = text(parsed.error_description) ?? text(parsed.error) ?? `status ${response.status}`;
    throw badRequest('The token provider refused the grant', [{ field, objectName, defaultMessage: `was refused by the provider: ${reason.slice(0, 300)}` }]);
  }
  const accessToken = text(parsed.access_token);
  if (!response.ok || accessToken === undefined) throw new HttpError(502, `The token provider failed (status ${response.status})`);
  return {
    accessToken,
    refreshToken: text(parsed.refresh_token),
    expiresIn: parsed.expires_in,
    tokenType: text(parsed.token_type),
    scope: text(parsed.scope),
  };
}
