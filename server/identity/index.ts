import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { JSONWebKeySet } from 'jose';
import type Provider from 'oidc-provider';
import type { Config } from '../config';
import { EMBEDDED_IDP_PATH } from '../config';
import type { Db } from '../db/database';
import { deleteExpiredPayloads } from './adapter';
import { rewriteBasicAuthorization, rewriteTokenForm } from './api-key-clients';
import { createAttemptGuards } from './attempt-guards';
import type { IdentityContext } from './context';
import { handleConfirmEmail } from './email-change';
import { handleVerifyEmail } from './email-verification';
import { sendPage } from './html';
import { readBody, RequestError, sendText, withBody } from './http';
import { handleInteraction } from './interactions';
import { loadOrCreateKeys, publicJwks } from './keys';
import { createMailer } from './mailer';
import { deleteStaleOneTimeTokens } from './one-time-tokens';
import { handleOutbox } from './outbox-access';
import { createPages } from './pages';
import { handleChangePasswordRequest, handleResetPassword } from './password-reset';
import { createProvider } from './provider';
import { withProviderContext } from './provider-context';
import { handleSignInLink } from './sign-in-link';
import { deleteStaleThrottles } from './throttle';
import { handleResendVerification } from './verification-resend';

export interface Identity {
  handle(req: IncomingMessage, res: ServerResponse): void;
  jwks(): Promise<JSONWebKeySet>;
  close(): Promise<void>;
}

interface IdentityDeps {
  config: Config;
  db: Db;
  logger: FastifyBaseLogger;
}

const SWEEP_INTERVAL_MS = 15 * 60 * 1000;
const INTERACTION_ROUTE = /^\/interaction\/([A-Za-z0-9_-]{1,64})(?:\/(login|signup|forgot|link-request))?\/?$/;

/**
 * The embedded OpenID provider (oidc-provider) plus its own pages and Auth0-compatible extras.
 * server/app.ts hands it every request under /idp, unparsed.
 */
export async function createIdentity({ config, db, logger }: IdentityDeps): Promise<Identity> {
  const keys = await loadOrCreateKeys(db);
  const issuer = config.auth.issuer;
  const issuerUrl = new URL(issuer);
  const basePath = issuerUrl.pathname.replace(/\/$/, '');
  const pages = createPages({ brand: config.env.APP_TITLE, basePath, appUrl: config.publicUrl });
  const mailer = createMailer({ config, db, logger });
  // The provider is made by the first request that needs it (a sign-in, a token, a logout, its
  // discovery document), not at start: oidc-provider and its dependencies hold ~20 MB an idle server
  // does not need, and API requests verify their tokens against `jwks` below without it. Made once;
  // a failure is not kept, so the next request tries again.
  let made: Promise<{ provider: Provider; callback: ReturnType<Provider['callback']> }> | undefined;
  const makeProvider = () =>
    (made ??= createProvider({ config, db, keys, pages, logger }).then(
      (provider) => ({ provider, callback: provider.callback() }),
      (error: unknown) => {
        made = undefined;
        throw error;
      },
    ));
  const guards = createAttemptGuards(db, config);
  const context: IdentityContext = { config, db, logger, provider: () => makeProvider().then(({ provider }) => provider), pages, mailer, guards, issuer, basePath };
  const jwks = publicJwks(keys);

  if (mailer.usesOutbox) {
    logger.warn(`SMTP_URL is not set: mail is not sent but kept in the outbox at ${issuer}outbox (a development convenience; set SMTP_URL in production)`);
  }

  const sweep = async () => {
    try {
      await deleteExpiredPayloads(db);
      await deleteStaleOneTimeTokens(db);
      await deleteStaleThrottles(db);
    } catch (error) {
      logger.warn({ err: error }, 'identity: expired state could not be swept');
    }
  };
  await sweep();
  const sweeper = setInterval(() => void sweep(), SWEEP_INTERVAL_MS);
  sweeper.unref();

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const original = req.url ?? '/';
    const tail = original.slice(EMBEDDED_IDP_PATH.length);
    const rest = tail.startsWith('/') ? tail : `/${tail}`;
    const url = new URL(rest, 'http://internal');
    const { pathname, searchParams } = url;
    const method = req.method ?? 'GET';

    const interaction = INTERACTION_ROUTE.exec(pathname);
    if (interaction?.[1]) return handleInteraction(context, req, res, interaction[1], interaction[2] ?? '');
    if (pathname === '/verify-email') return handleVerifyEmail(context, req, res, searchParams);
    if (pathname === '/confirm-email') return handleConfirmEmail(context, req, res, searchParams);
    if (pathname === '/reset-password') return handleResetPassword(context, req, res, searchParams);
    if (pathname === '/sign-in-link') return handleSignInLink(context, req, res, searchParams);
    if (pathname === '/dbconnections/change_password') return handleChangePasswordRequest(context, req, res);
    if (pathname === '/verify/resend') return handleResendVerification(context, req, res, searchParams);
    if (mailer.usesOutbox && method === 'GET' && pathname === '/outbox') return handleOutbox(context, req, res, 'html');
    if (mailer.usesOutbox && method === 'GET' && pathname === '/outbox.json') return handleOutbox(context, req, res, 'json');

    let forwarded = req;
    let providerUrl = rest;
    if (pathname === '/v2/logout' && searchParams.has('returnTo') && !searchParams.has('post_logout_redirect_uri')) {
      // Auth0's logout names the return address `returnTo`; OpenID's RP-initiated logout does not.
      searchParams.set('post_logout_redirect_uri', searchParams.get('returnTo') ?? '');
      searchParams.delete('returnTo');
      providerUrl = `${pathname}?${searchParams.toString()}`;
    }
    if (method === 'POST' && (pathname === '/oauth/token' || pathname === '/oauth/revoke')) {
      forwarded = await withHashedClientSecret(req);
    }
    const { callback } = await makeProvider();
    await withProviderContext(() => callback(prepareForProvider(forwarded, providerUrl, `${basePath}${providerUrl}`, issuerUrl), res));
  }

  return {
    handle(req, res) {
      route(req, res).catch((error: unknown) => {
        if (error instanceof RequestError) {
          if (!res.headersSent) sendText(res, error.status, error.message);
          return;
        }
        logger.error({ err: error, url: req.url }, 'identity request failed');
        if (!res.headersSent) sendPage(res, 500, pages.error({ title: 'Something went wrong', description: 'The request could not be completed. Please try again.' }));
        else res.destroy();
      });
    },
    jwks: () => Promise.resolve(jwks),
    close() {
      clearInterval(sweeper);
      mailer.close();
      return Promise.resolve();
    },
  };
}

/** API-key secrets are stored hashed; see api-key-clients.ts for why the presented one is hashed here. */
async function withHashedClientSecret(req: IncomingMessage): Promise<IncomingMessage> {
  const headers: Record<string, string> = {};
  const authorization = req.headers.authorization;
  const basic = authorization ? rewriteBasicAuthorization(authorization) : undefined;
  if (basic) headers.authorization = basic;
  const body = await readBody(req);
  const isForm = (req.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
  const rewritten = isForm ? rewriteTokenForm(body) : undefined;
  return withBody(req, rewritten ?? body, headers);
}

/**
 * oidc-provider routes on the path below its mount point and derives the mount point, for the URLs
 * it builds, from `originalUrl`; the host and scheme come from forwarded headers (provider.proxy),
 * set here to the issuer's so that every URL it builds is under the issuer whatever the Host header.
 */
function prepareForProvider(req: IncomingMessage, url: string, originalUrl: string, issuer: URL): IncomingMessage {
  req.url = url;
  (req as IncomingMessage & { originalUrl?: string }).originalUrl = originalUrl;
  req.headers['x-forwarded-host'] = issuer.host;
  req.headers['x-forwarded-proto'] = issuer.protocol.replace(/:$/, '');
  return req;
}
