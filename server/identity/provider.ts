import type { FastifyBaseLogger } from 'fastify';
import type { Account, ClientMetadata, Configuration, default as Provider, KoaContextWithOIDC, ResourceServer } from 'oidc-provider';
import { PROVIDER_PARAM } from '../../src/domain/emailLinks';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { databaseAdapter } from './adapter';
import { findApiKeyOwner } from './api-key-clients';
import { isUnderApp } from './app-redirects';
import type { ProviderKeys } from './keys';
import type { Pages } from './pages';
import { findIdpUserBySubject } from './users';

const HOUR = 60 * 60;
const DAY = 24 * HOUR;

/** Lifetimes: short-lived JWT access tokens; a sign-in lasts two weeks, refresh tokens rotate within it. */
const TTL = {
  accessToken: HOUR,
  idToken: HOUR,
  authorizationCode: 60,
  interaction: HOUR,
  session: 14 * DAY,
  grant: 14 * DAY,
  refreshToken: 14 * DAY,
} as const;

const SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;

interface ProviderDeps {
  config: Config;
  db: Db;
  keys: ProviderKeys;
  pages: Pages;
  logger: FastifyBaseLogger;
}

/**
 * oidc-provider set up to look like the Auth0 tenant @auth0/auth0-spa-js expects
 * (see /work/shared/notes/identity.md): Auth0's paths, PKCE, JWT access tokens for the API audience,
 * rotating refresh tokens, and API keys as client-credentials clients.
 *
 * The package is imported here, on the first request that needs the provider (index.ts), not at
 * start: with its dependencies (Koa, its routers, its JOSE and schema code) it holds ~20 MB that an
 * idle server, and an API request (its bearer token is verified with jose against publicJwks), never uses.
 */
export async function createProvider({ config, db, keys, pages, logger }: ProviderDeps): Promise<Provider> {
  const { default: Provider, errors } = await import('oidc-provider');
  const { issuer, audience, clientId: spaClientId } = config.auth;
  const appUrl = config.publicUrl;
  const appOrigin = new URL(appUrl).origin;
  const basePath = new URL(issuer).pathname.replace(/\/$/, '');

  const spaClient: ClientMetadata = {
    client_id: spaClientId,
    client_name: config.env.APP_TITLE,
    application_type: 'web',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: [appUrl, `${appUrl}/`],
    post_logout_redirect_uris: [appUrl, `${appUrl}/`],
  };

  const resourceServer = (client: { clientId: string } | undefined): ResourceServer => ({
    // API keys ask for no scope; users' tokens carry what Auth0 puts in them.
    scope: client?.clientId === spaClientId ? SCOPES.join(' ') : '',
    audience,
    accessTokenTTL: TTL.accessToken,
    accessTokenFormat: 'jwt',
    jwt: { sign: { alg: 'RS256' } },
  });

  const findAccount = async (_ctx: KoaContextWithOIDC, sub: string): Promise<Account | undefined> => {
    const user = await findIdpUserBySubject(db, sub);
    if (!user) return undefined;
    return {
      accountId: user.subject,
      claims: () => ({
        sub: user.subject,
        email: user.email,
        email_verified: user.emailVerified,
        name: user.name,
        nickname: user.email.split('@')[0] ?? user.name,
        preferred_username: user.email,
      }),
    };
  };

  const configuration: Configuration = {
    adapter: databaseAdapter(db),
    clients: [spaClient],
    jwks: { keys: keys.signing },
    cookies: {
      keys: keys.cookies,
      names: { session: '_idp_session', interaction: '_idp_interaction', resume: '_idp_interaction_resume' },
      long: { signed: true, httpOnly: true, sameSite: 'lax', path: basePath },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    routes: {
      authorization: '/authorize',
      token: '/oauth/token',
      end_session: '/v2/logout',
      revocation: '/oauth/revoke',
      userinfo: '/userinfo',
      jwks: '/.well-known/jwks.json',
    },
    scopes: [...SCOPES],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'nickname', 'preferred_username'],
    },
    // getUser() in the SDK reads the ID token only, so the profile and email claims must be in it.
    conformIdTokenClaims: false,
    // ext-notice / ext-invitation: what the mailed link that began this sign-in did (src/domain/emailLinks.ts).
    extraParams: ['audience', 'screen_hint', PROVIDER_PARAM.notice, PROVIDER_PARAM.invitation],
    responseTypes: ['code'],
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    pkce: { required: () => true },
    enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => Promise.resolve(token.clientId === client.clientId),
      },
      userinfo: { enabled: true },
      pushedAuthorizationRequests: { enabled: false },
      // The API verifies bearer tokens only; a DPoP-bound token would be accepted without its proof.
      dPoP: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          const page = pages.signingOut(form);
          ctx.set(page.headers);
          ctx.type = 'html';
          ctx.body = page.html;
        },
        postLogoutSuccessSource: (ctx) => {
          const page = pages.signedOut();
          ctx.set(page.headers);
          ctx.type = 'html';
          ctx.body = page.html;
        },
      },
      resourceIndicators: {
        enabled: true,
        // The SDK names the API with Auth0's `audience` parameter, not `resource`.
        defaultResource: (ctx, _client, oneOf) => {
          if (oneOf) return oneOf.includes(audience) ? audience : oneOf;
          const requested = ctx.oidc.params?.audience;
          return typeof requested === 'string' && requested !== '' ? requested : audience;
        },
        // The SDK sends no resource to the token endpoint: the granted one is the one meant.
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator, client) => {
          if (indicator !== audience) throw new errors.InvalidTarget(`unknown audience ${indicator}`);
          return resourceServer(client);
        },
      },
    },
    extraTokenClaims: async (_ctx, token) => {
      if (token.kind === 'AccessToken') {
        const user = await findIdpUserBySubject(db, token.accountId);
        return user ? { email: user.email, email_verified: user.emailVerified, name: user.name } : undefined;
      }
      const owner = token.clientId ? await findApiKeyOwner(db, token.clientId) : undefined;
      return owner ? { email: owner.email, email_verified: owner.emailVerified } : undefined;
    },
    // offline_access is dropped by the provider when a prompt other than consent is sent; the SPA
    // still needs its refresh token then.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // Refresh tokens live as long as the provider session: signing out (or the session running out)
    // ends them, rather than leaving a working token in the SPA's localStorage. The provider's
    // default would let offline_access tokens outlive the sign-out.
    expiresWithSession: () => true,
    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? TTL.accessToken,
      ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? TTL.accessToken,
      AuthorizationCode: TTL.authorizationCode,
      IdToken: TTL.idToken,
      Interaction: TTL.interaction,
      Session: TTL.session,
      Grant: TTL.grant,
      RefreshToken: (ctx, token, client) => {
        // A rotated refresh token inherits what is left of its predecessor: the chain ends with the sign-in.
        const rotated = ctx.oidc.entities.RotatedRefreshToken;
        if (rotated && client.clientAuthMethod === 'none' && !token.isSenderConstrained()) return rotated.remainingTTL;
        return TTL.refreshToken;
      },
    },
    interactions: {
      url: (_ctx, interaction) => `${basePath}/interaction/${interaction.uid}`,
    },
    findAccount,
    clientBasedCORS: (_ctx, origin) => origin === appOrigin,
    renderError: (ctx, out) => {
      const page = pages.error({
        title: 'Something went wrong',
        description: out.error_description ?? out.error,
      });
      ctx.set(page.headers);
      ctx.type = 'html';
      ctx.body = page.html;
    },
  };

  const provider = new Provider(issuer, configuration);
  // Every URL the provider builds must be under the issuer, whatever Host header the request had;
  // the router hands it forwarded headers naming the public origin (see index.ts).
  provider.proxy = true;

  provider.on('server_error', (_ctx: unknown, error: unknown) => logger.error({ err: error }, 'identity provider error'));
  // Koa prints uncaught errors to stderr unless somebody listens; ours go to the server's log.
  (provider as unknown as NodeJS.EventEmitter).on('error', (error: unknown) => logger.error({ err: error }, 'identity provider error'));
  const rejected = (event: string) => (_ctx: unknown, error: unknown) => logger.debug({ err: error, event }, 'identity provider rejected a request');
  provider.on('authorization.error', rejected('authorization.error'));
  provider.on('grant.error', rejected('grant.error'));
  provider.on('end_session.error', rejected('end_session.error'));

  allowAppPathsAsRedirects(provider, spaClientId, appUrl);
  return provider;
}

/**
 * The SPA may come back to any path of its own origin (it keeps the original target URL), so for the
 * SPA client a redirect or post-logout URI is allowed when it lies under the app URL, besides the
 * registered ones. Overriding these two Client methods is oidc-provider's documented hook for that.
 */
function allowAppPathsAsRedirects(provider: Provider, spaClientId: string, appUrl: string): void {
  interface ClientRedirects {
    clientId: string;
    redirectUriAllowed: (this: ClientRedirects, value: string) => boolean;
    postLogoutRedirectUriAllowed: (this: ClientRedirects, value: string) => boolean;
  }
  const prototype = provider.Client.prototype as unknown as ClientRedirects;
  const { redirectUriAllowed, postLogoutRedirectUriAllowed } = prototype;
  prototype.redirectUriAllowed = function (value) {
    return redirectUriAllowed.call(this, value) || (this.clientId === spaClientId && isUnderApp(value, appUrl));
  };
  prototype.postLogoutRedirectUriAllowed = function (value) {
    return postLogoutRedirectUriAllowed.call(this, value) || (this.clientId === spaClientId && isUnderApp(value, appUrl));
  };
}
