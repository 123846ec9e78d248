import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../src/domain/relations';
import { apiKeySchema, apiKeysCollectionSchema, type Wire } from '../../src/domain/resources';
import { validateApiKeyName } from '../../src/domain/validation';
import { conflict } from '../http/errors';
import { pagedCollection } from '../http/hal';
import { apiKeyDraftLinks } from '../policy/links';
import { isUniqueViolation, isUuid, newId } from '../repositories/ids';
import { apiKeysOf, deleteApiKey, insertApiKey, renameApiKey } from '../repositories/apiKeys';
import { apiKeyBody } from '../representations/apiKey';
import { generateClientId, generateSecret, hashSecret } from '../security/secrets';
import { requestUrl, type RouteContext } from './context';
import { defineRoute } from './define';
import { rejectFieldErrors } from '../http/validation';

const OBJECT = 'apikey';
const MAX_NAME = 200;

// The SPA sends the whole key back (links included); only the name and id are read.
const keySchema = z.looseObject({ id: z.string().max(100).nullish(), name: z.string().nullish() });

function validName(body: z.infer<typeof keySchema>, pathId: string): string {
  const name = body.name?.trim() ?? '';
  rejectFieldErrors(OBJECT, {
    name: validateApiKeyName(name) ?? (name.length > MAX_NAME ? `must be at most ${MAX_NAME} characters` : undefined),
    id: body.id !== undefined && body.id !== null && body.id !== pathId ? 'must match the key in the path' : undefined,
  });
  return name;
}

export function apiKeyRoutes(app: FastifyInstance, ctx: RouteContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/apikeys',
    guard: { resource: 'root', rel: REL.apikeys },
    response: apiKeysCollectionSchema,
    paging: { defaultSize: 99 },
    handler: async ({ request, paging }) => {
      const { caller } = request;
      const { items, total } = caller.profile ? await apiKeysOf(ctx.db, caller.profileId, paging) : { items: [], total: 0 };
      return pagedCollection('apikeys', items.map((k) => apiKeyBody(ctx, caller, k)), paging, total, requestUrl(ctx, request));
    },
  });

  /** A draft: nothing is stored until it is PUT to its 'create apikey' link. */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/apikeys',
    guard: { resource: 'root', rel: REL.newApiKey },
    response: apiKeySchema,
    handler: ({ request }): Wire<typeof apiKeySchema> => {
      const id = newId();
      return { id, name: null, clientId: null, _links: apiKeyDraftLinks(ctx.h, request.caller, id) };
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/apikeys/:id',
    guard: { resource: 'apikey', rel: REL.self },
    response: apiKeySchema,
    handler: ({ request, access }) => apiKeyBody(ctx, request.caller, access.key),
  });

  /**
   * One href both creates ('create apikey' on a draft) and renames ('update apikey'): a key that
   * exists is renamed (200, no secret); a new id creates the key (201) and is the only answer that
   * ever carries the client secret, which is stored hashed.
   */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/apikeys/:id',
    guard: { resource: 'apikeyOrDraft', rel: [REL.updateApiKey, REL.createApiKey] },
    response: apiKeySchema,
    body: keySchema,
    objectName: OBJECT,
    handler: async ({ request, reply, access, body }) => {
      const { caller } = request;
      const { id, key } = access;
      if (key) return apiKeyBody(ctx, caller, await renameApiKey(ctx.db, id, validName(body, id)));
      if (!isUuid(id)) rejectFieldErrors(OBJECT, { id: 'must be a UUID' });
      const name = validName(body, id);
      const secret = generateSecret();
      const created = await insertApiKey(ctx.db, { id, profileId: caller.profileId, name, clientId: generateClientId(), secretHash: hashSecret(secret) }).catch(
        (error: unknown) => {
          // The same draft PUT twice at once: the second finds the key the first just created.
          if (isUniqueViolation(error)) throw conflict(`API key ${id} already exists`);
          throw error;
        },
      );
      return reply.status(201).send({ ...apiKeyBody(ctx, caller, created), clientSecret: secret });
    },
  });

  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/apikeys/:id',
    guard: { resource: 'apikey', rel: REL.deleteApiKey },
    handler: async ({ reply, access }) => {
      await deleteApiKey(ctx.db, access.key.id);
      return reply.status(204).send();
    },
  });
}
