import { randomUUID } from 'node:crypto';
import { generateClientId, generateSecret, hashSecret } from '../../../server/security/secrets';
import { clientCredentialsToken } from '../../support/auth';
import { apiClient, type ApiClient } from './http';
import type { World } from './world';

/**
 * An API key stored directly for any profile, and a client acting with its token: reaches
 * profiles no user token of the embedded provider can (e.g. ids of other providers).
 */
export async function createKeyFor(world: World, profileId: string): Promise<ApiClient> {
  const clientId = generateClientId();
  const secret = generateSecret();
  await world.server.db
    .insertInto('api_keys')
    .values({ id: randomUUID(), profile_id: profileId, name: 'test key', client_id: clientId, secret_hash: hashSecret(secret) })
    .execute();
  const token = await clientCredentialsToken(world.baseUrl, clientId, secret);
  return apiClient(world.baseUrl, token.accessToken);
}
