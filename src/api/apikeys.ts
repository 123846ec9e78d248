import { embeddedList } from '../domain/hal';
import { REL } from '../domain/relations';
import { apiKeySchema, apiKeysCollectionSchema, type ApiKey } from '../domain/resources';
import { required, type ApiClient, type RequestOptions } from './client';

export async function listApiKeys(client: ApiClient, options?: RequestOptions): Promise<ApiKey[]> {
  return embeddedList(await client.get('/apikeys', apiKeysCollectionSchema, options), 'apikeys');
}

/** POST /apikeys: a draft key carrying the 'create apikey' link that saves it. */
export async function draftApiKey(client: ApiClient, options?: RequestOptions): Promise<ApiKey> {
  return required(await client.post('/apikeys', undefined, apiKeySchema, options), 'draft api key');
}

/** PUTs the named draft to its 'create apikey' link; the answer holds the client secret, shown once. */
export async function createApiKey(client: ApiClient, draft: ApiKey, name: string, options: RequestOptions = {}): Promise<ApiKey> {
  const saved = await client.follow(draft, REL.createApiKey, { ...options, method: 'PUT', body: { ...keyBody(draft), name }, schema: apiKeySchema });
  return required(saved, 'api key creation');
}

/** PUTs the key with its new name to 'update apikey'; an empty answer keeps the local key renamed. */
export async function renameApiKey(client: ApiClient, key: ApiKey, name: string, options: RequestOptions = {}): Promise<ApiKey> {
  const saved = await client.follow(key, REL.updateApiKey, { ...options, method: 'PUT', body: { ...keyBody(key), name }, schema: apiKeySchema });
  return saved ?? { ...key, name };
}

/** DELETE on 'delete apikey' with the key as body (the server's documented contract). */
export function deleteApiKey(client: ApiClient, key: ApiKey, options: RequestOptions = {}): Promise<void> {
  return client.follow(key, REL.deleteApiKey, { ...options, method: 'DELETE', body: keyBody(key) });
}

/** The key as a request body: its fields without the HAL envelope. */
function keyBody(key: ApiKey): Record<string, unknown> {
  const { _links: _ignoredLinks, _embedded: _ignoredEmbedded, ...fields } = key;
  return fields;
}
