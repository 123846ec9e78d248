import type { apiKeySchema, Wire } from '../../src/domain/resources';
import type { Caller } from '../policy/caller';
import { apiKeyLinks } from '../policy/links';
import type { ApiKeyRow } from '../repositories/apiKeys';
import { isoRequired, type BodyContext } from './context';

export function apiKeyBody(ctx: BodyContext, caller: Caller, key: ApiKeyRow): Wire<typeof apiKeySchema> {
  return {
    id: key.id,
    name: key.name,
    clientId: key.client_id,
    profileId: key.profile_id,
    created: isoRequired(key.created),
    _links: apiKeyLinks(ctx.h, caller, key),
  };
}
