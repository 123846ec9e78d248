import { linkHref } from '../domain/hal';
import type { OAuthProvider } from '../domain/oauth';
import { REL } from '../domain/relations';
import { oauthTokenSchema, type DataComponent, type OAuthToken } from '../domain/resources';
import { required, type ApiClient, type RequestOptions } from './client';
import { ApiFailure } from './errors';

// OAuth connect's calls to our own API (spec 001 §7). Token calls skip the shared error handler:
// the setting editor shows their failure next to the Connect button.

interface CodeExchange {
  readonly component: DataComponent;
  readonly provider: OAuthProvider;
  readonly code: string;
  readonly verifier: string;
  readonly redirectUri: string;
  readonly scope: string;
}

const tokenHref = (component: DataComponent, provider: OAuthProvider, base: string): string | undefined =>
  // the href names the provider as '{provider}' (percent-encoded once resolved)
  linkHref(component, REL.authorizeDatacomponent, base)?.replace(/\{provider\}|%7Bprovider%7D/i, encodeURIComponent(provider));

async function postToken(client: ApiClient, component: DataComponent, provider: OAuthProvider, body: Record<string, unknown>, options: RequestOptions): Promise<OAuthToken> {
  const href = tokenHref(component, provider, client.baseURL);
  if (href === undefined) throw new ApiFailure({ kind: 'missingLink', rel: REL.authorizeDatacomponent }, { skipErrorHandler: true });
  const answer = await client.post(href, { ...body, component: component.id }, oauthTokenSchema, { ...options, skipErrorHandler: true, retry: false });
  return required(answer, 'the token exchange');
}

/** POST /tokens/{provider}/token with the popup's code (grant_type=authorization_code). */
export function exchangeCode(client: ApiClient, exchange: CodeExchange, options: RequestOptions = {}): Promise<OAuthToken> {
  return postToken(
    client,
    exchange.component,
    exchange.provider,
    { grant_type: 'authorization_code', code: exchange.code, code_verifier: exchange.verifier, redirect_uri: exchange.redirectUri, scope: exchange.scope },
    options,
  );
}

/** POST /tokens/{provider}/token with grant_type=refresh_token: the server uses (and rotates) the stored refresh token. */
export function refreshToken(client: ApiClient, component: DataComponent, provider: OAuthProvider, options: RequestOptions = {}): Promise<OAuthToken> {
  return postToken(client, component, provider, { grant_type: 'refresh_token' }, options);
}

/** Disconnect: DELETE the component's 'disconnect datacomponent' link. */
export function disconnect(client: ApiClient, component: DataComponent, options: RequestOptions = {}): Promise<void> {
  return client.follow(component, REL.disconnectDatacomponent, { ...options, method: 'DELETE', skipErrorHandler: true });
}
