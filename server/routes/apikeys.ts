import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../src/domain/relations';
import { validateApiKeyName } from '../../src/domain/validation';
import { conflict, notFound } from '../http/errors';
import { pagedCollection, parsePaging } from '../http/hal';
import type { Caller } from '../policy/caller';
import { requireLink } from '../policy/guard';
import { apiKeyDraftLinks, apiKeyLinks, rootLinks } from '../policy/links';
import { isUniqueViolation, isUuid, newId } from '../repositories/ids';
import { apiKeysOf, deleteApiKey, findApiKey, insertApiKey, renameApiKey, type ApiKeyRow } from '../repositories/apiKeys';
import { generateClientId, generateSecret, hashSecret } from '../security/secrets';
import { isoRequired, requestUrl, type RouteContext } from './context';
import { parseBody, rejectFieldErrors } from './validation';

const OBJECT = 'apikey';
const MAX_NAME = 200;

// The SPA sends the whole key back (links included); only the name and id are read.
const keySchema = z.looseObject({ id: z.string().nullish(), name: z.string().nullish() });

export function apiKeyBody(ctx: RouteContext, caller: Caller, key: ApiKeyRow) {
  return {
    id: key.id,
    name: key.name,
    clientId: key.client_id,
    profileId: key.profile_id,
    created: isoRequired(key.created),
    _links: apiKeyLinks(ctx.h, caller, key),
  };
}

function validName(body: z.infer<typeof keySchema>, pathId: string): string {
  const name = body.name?.trim() ?? '';
  rejectFieldErrors(OBJECT, {
    name: validateApiKeyName(name) ?? (name.length > MAX_NAME ? `must be at most ${MAX_NAME} characters` : undefined),
    id: body.id !== undefined && body.id !== null && body.id !== pathId ? 'must match the key in the path' : undefined,
  });
  return name;
}

async function ownedKey(ctx: RouteContext, caller: Caller, id: string, rel: string): Promise<ApiKeyRow> {
  const key = isUuid(id) ? await findApiKey(ctx.db, id) : undefined;
  if (!key) throw notFound(`API key ${id} not found`);
  requireLink(apiKeyLinks(ctx.h, caller, key), rel);
  return key;
}

export function apiKeyRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.get('/apikeys', async (request) => {
    const { caller } = request;
    const paging = parsePaging(request.query, { defaultSize: 99 });
    const { items, total } = caller.profile ? await apiKeysOf(ctx.db, caller.profileId, paging) : { items: [], total: 0 };
    return pagedCollection('apikeys', items.map((k) => apiKeyBody(ctx, caller, k)), paging, total, requestUrl(ctx, request));
  });

  /** A draft: nothing is stored until it is PUT to its 'create apikey' link. */
  app.post('/apikeys', (request) => {
    const { caller } = request;
    requireLink(rootLinks(ctx.h, caller), REL.newApiKey);
    const id = newId();
    return { id, name: null, clientId: null, _links: apiKeyDraftLinks(ctx.h, caller, id) };
  });

  app.get<{ Params: { id: string } }>('/apikeys/:id', async (request) => {
    const key = await ownedKey(ctx, request.caller, request.params.id, REL.self);
    return apiKeyBody(ctx, request.caller, key);
  });

  /**
   * One href both creates ('create apikey' on a draft) and renames ('update apikey'): a key that
   * exists is renamed (200, no secret); a new id creates the key (201) and is the only answer that
   * ever carries the client secret, which is stored hashed.
   */
  app.put<{ Params: { id: string } }>('/apikeys/:id', async (request, reply) => {
    const { caller } = request;
    const { id } = request.params;
    const existing = isUuid(id) ? await findApiKey(ctx.db, id) : undefined;
    if (existing) {
      requireLink(apiKeyLinks(ctx.h, caller, existing), REL.updateApiKey);
      const name = validName(parseBody(keySchema, request.body, OBJECT), id);
      return apiKeyBody(ctx, caller, await renameApiKey(ctx.db, id, name));
    }
    requireLink(apiKeyDraftLinks(ctx.h, caller, id), REL.createApiKey);
    if (!isUuid(id)) rejectFieldErrors(OBJECT, { id: 'must be a UUID' });
    const name = validName(parseBody(keySchema, request.body, OBJECT), id);
    const secret = generateSecret();
    const key = await insertApiKey(ctx.db, { id, profileId: caller.profileId, name, clientId: generateClientId(), secretHash: hashSecret(secret) }).catch(
      (error: unknown) => {
        // The same draft PUT twice at once: the second finds the key the first just created.
        if (isUniqueViolation(error)) throw conflict(`API key ${id} already exists`);
        throw error;
      },
    );
    return reply.status(201).send({ ...apiKeyBody(ctx, caller, key), clientSecret: secret });
  });

  app.delete<{ Params: { id: string } }>('/apikeys/:id', async (request, reply) => {
    const key = await ownedKey(ctx, request.caller, request.params.id, REL.deleteApiKey);
    await deleteApiKey(ctx.db, key.id);
    return reply.status(204).send();
  });
}
