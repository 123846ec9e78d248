import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { expiryOf, isOAuthProvider } from '../../src/domain/oauth';
import { REL } from '../../src/domain/relations';
import { oauthTokenSchema, type Wire } from '../../src/domain/resources';
import { badRequest, notFound } from '../http/errors';
import { exchangeGrant } from '../oauth/tokenExchange';
import { credentialsSummary, storedCredentials, withCredentials, withoutCredentials } from '../oauth/credentials';
import { resolveAccess } from '../policy/access';
import { requireOffered } from '../policy/guard';
import { updateDataComponent } from '../repositories/dataComponents';
import type { RouteContext } from './context';
import { defineRoute } from './define';

// OAuth connect (spec 001 §7 'OAuth and pickers'): POST /tokens/{provider}/token exchanges the
// popup's code (or the stored refresh token) at the provider with the client secret only this
// server holds, and keeps the tokens as the component's oauth_credentials settings. The answer
// carries the access token (the setting editors' pickers call the provider with it) but never the
// refresh token. DELETE /datacomponents/{id}/credentials is Disconnect.

const OBJECT_NAME = 'token';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// RFC 7636 §4.1: 43 to 128 unreserved characters
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

const tokenBody = z
  .object({
    grant_type: z.enum(['authorization_code', 'refresh_token'], { message: 'must be authorization_code or refresh_token' }),
    /** the data component whose credentials these are */
    component: z.string({ message: 'is required' }).regex(UUID, 'must be a data component id'),
    code: z.string().min(1, 'is required').max(4096, 'is too long').optional(),
    code_verifier: z.string().regex(VERIFIER, 'must be 43 to 128 unreserved characters').optional(),
    redirect_uri: z.url({ message: 'must be a URL' }).max(2000, 'is too long').nullish(),
    scope: z.string().max(2000, 'is too long').nullish(),
  })
  .superRefine((body, ctx) => {
    if (body.grant_type !== 'authorization_code') return;
    if (body.code === undefined) ctx.addIssue({ code: 'custom', path: ['code'], message: 'is required' });
    if (body.code_verifier === undefined) ctx.addIssue({ code: 'custom', path: ['code_verifier'], message: 'is required' });
  });

export function tokenRoutes(app: FastifyInstance, ctx: RouteContext): void {
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/tokens/:provider/token',
    // Anyone signed in reaches the route; what it acts on is the component named in the body, whose
    // 'authorize datacomponent' link the handler demands through the same policy.
    guard: { resource: 'root', rel: REL.self },
    response: oauthTokenSchema,
    body: tokenBody,
    objectName: OBJECT_NAME,
    handler: async ({ request, body, param }): Promise<Wire<typeof oauthTokenSchema>> => {
      const provider = param('provider');
      if (!isOAuthProvider(provider)) throw notFound(`Token provider ${provider.slice(0, 100)} not supported`);
      const client = ctx.config.oauth[provider];
      if (!client) throw notFound(`Token provider ${provider} is not configured on this server`);
      const access = await resolveAccess('dataComponent', { db: ctx.db, h: ctx.h, caller: request.caller }, body.component);
      requireOffered(access, REL.authorizeDatacomponent);

      const properties = access.component.properties;
      const stored = storedCredentials(properties);
      if (body.grant_type === 'refresh_token' && stored.refreshToken === undefined) {
        throw badRequest('Nothing to refresh', [{ field: 'refresh_token', objectName: OBJECT_NAME, defaultMessage: 'no refresh token is stored for this component: connect it again' }]);
      }
      const tokens = await exchangeGrant(
        client,
        body.grant_type === 'authorization_code'
          ? { grant_type: 'authorization_code', code: body.code, code_verifier: body.code_verifier, redirect_uri: body.redirect_uri, scope: body.scope }
          : { grant_type: 'refresh_token', refresh_token: stored.refreshToken, scope: body.scope },
        ctx.config.env.OAUTH_TIMEOUT_MS,
        OBJECT_NAME,
      );
      const now = new Date();
      const expiresAt = expiryOf(tokens.expiresIn, now.getTime());
      // A rotated refresh token is always written back (Airbyte #3990): the old one may already be void.
      const next = withCredentials(properties, { provider, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt, now });
      const updated = await updateDataComponent(ctx.db, access.component.id, { properties: next });
      if (!updated?.ok) throw notFound(`Data component ${body.component} not found`);
      return {
        access_token: tokens.accessToken,
        token_type: tokens.tokenType ?? 'Bearer',
        expires_in: expiresAt === undefined ? null : Math.round((Date.parse(expiresAt) - now.getTime()) / 1000),
        scope: tokens.scope ?? null,
        credentials: credentialsSummary(next),
      };
    },
  });

  /** Disconnect (spec §4): removes that component's credentials; nothing else of it changes. */
  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/datacomponents/:id/credentials',
    guard: { resource: 'dataComponent', rel: REL.disconnectDatacomponent },
    handler: async ({ reply, access }) => {
      await updateDataComponent(ctx.db, access.component.id, { properties: withoutCredentials(access.component.properties) });
      return reply.status(204).send();
    },
  });
}
