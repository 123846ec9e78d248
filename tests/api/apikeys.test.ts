import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { apiKeySchema, apiKeysCollectionSchema } from '../../src/domain/resources';
import { API_KEY_NAME_REQUIRED } from '../../src/domain/validation';
import { clientCredentialsToken, TokenRequestError } from '../support/auth';
import { apiClient, embedded, expectError, hasLink, linkOf } from './helpers/http';
import { login, startWorld, type World } from './helpers/world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.unverified)]);
});
afterAll(async () => {
  await world?.close();
});

/** Draft, name, create: the SPA's flow. */
async function createKey(name: string) {
  const root = await world.member.api.get('/api/');
  const draft = await world.member.api.call('POST', linkOf(root.body, REL.newApiKey));
  expect(draft.status).toBe(200);
  const created = await world.member.api.call('PUT', linkOf(draft.body, REL.createApiKey), { ...draft.body, name });
  expect(created.status).toBe(201);
  return created.body as { id: string; name: string; clientId: string; clientSecret: string; _links: Record<string, { href: string }> };
}

describe('POST /api/apikeys (draft)', () => {
  it('answers a draft that is not stored and carries only create apikey', async () => {
    const answer = await world.member.api.call('POST', '/api/apikeys');
    expect(answer.status).toBe(200);
    expect(apiKeySchema.safeParse(answer.body).success).toBe(true);
    expect(answer.body.name).toBeNull();
    expect(linkOf(answer.body, REL.createApiKey)).toBe(`${world.baseUrl}/api/apikeys/${answer.body.id}`);
    const list = await world.member.api.get('/api/apikeys');
    expect(embedded(list.body, 'apikeys').map((k: { id: string }) => k.id)).not.toContain(answer.body.id);
  });

  it('is refused (403) to callers whose root has no new apikey: unverified users and API keys', async () => {
    const root = await world.unverified.api.get('/api/');
    expect(hasLink(root.body, REL.newApiKey)).toBe(false);
    expectError(await world.unverified.api.call('POST', '/api/apikeys'), 403);
    expectError(await world.unverified.api.call('PUT', `/api/apikeys/${crypto.randomUUID()}`, { name: 'sneaky' }), 403);

    const key = await createKey('for the key test');
    const token = await clientCredentialsToken(world.baseUrl, key.clientId, key.clientSecret);
    const asKey = apiClient(world.baseUrl, token.accessToken);
    const keyRoot = await asKey.get('/api/');
    expect(hasLink(keyRoot.body, REL.newApiKey)).toBe(false);
    expectError(await asKey.call('POST', '/api/apikeys'), 403);
  });

  it('answers 401 without a token', async () => {
    expectError(await world.anonymous.call('POST', '/api/apikeys'), 401);
  });
});

describe('PUT /api/apikeys/{id}', () => {
  it('creates the key once with its secret, which a client-credentials token then uses', async () => {
    const key = await createKey('My laptop');
    expect(key).toMatchObject({ name: 'My laptop', clientId: expect.any(String), clientSecret: expect.any(String) });
    for (const rel of [REL.self, REL.updateApiKey, REL.deleteApiKey]) expect(linkOf(key, rel)).toBe(`${world.baseUrl}/api/apikeys/${key.id}`);

    const token = await clientCredentialsToken(world.baseUrl, key.clientId, key.clientSecret);
    const asKey = apiClient(world.baseUrl, token.accessToken);
    const root = await asKey.get('/api/');
    expect(root.status).toBe(200);
    expect(linkOf(root.body, REL.profile)).toBe(`${world.baseUrl}/api/profiles/${encodeURIComponent(world.member.subject)}`);
    const workspaces = await asKey.get('/api/workspaces');
    expect(workspaces.body.page.totalElements).toBe(1);

    // The secret is never shown again, in the list or the key itself.
    const list = await world.member.api.get('/api/apikeys');
    expect(JSON.stringify(list.body)).not.toContain(key.clientSecret);
    const read = await world.member.api.get(linkOf(key, REL.self));
    expect(read.status).toBe(200);
    expect(read.body.clientSecret).toBeUndefined();
    expect(JSON.stringify(read.body)).not.toContain(key.clientSecret);
    // ...and is stored only hashed.
    const stored = await world.server.db.selectFrom('api_keys').select('secret_hash').where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(stored.secret_hash).not.toContain(key.clientSecret);
  });

  it('renames an existing key through update apikey, without the secret', async () => {
    const key = await createKey('default');
    const renamed = await world.member.api.call('PUT', linkOf(key, REL.updateApiKey), { id: key.id, name: 'CI pipeline' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: key.id, name: 'CI pipeline', clientId: key.clientId });
    expect(renamed.body.clientSecret).toBeUndefined();
    const list = await world.member.api.get('/api/apikeys');
    expect(embedded(list.body, 'apikeys').find((k: { id: string }) => k.id === key.id).name).toBe('CI pipeline');
  });

  it("answers 'Name is mandatory' for an empty name on create and rename, 400 for malformed JSON", async () => {
    const draft = await world.member.api.call('POST', '/api/apikeys');
    expectError(await world.member.api.call('PUT', linkOf(draft.body, REL.createApiKey), { name: '  ' }), 400, { name: API_KEY_NAME_REQUIRED });
    expectError(await world.member.api.call('PUT', linkOf(draft.body, REL.createApiKey), {}), 400, { name: API_KEY_NAME_REQUIRED });
    expectError(await world.member.api.call('PUT', linkOf(draft.body, REL.createApiKey), '{"name":'), 400);
    const key = await createKey('to rename');
    expectError(await world.member.api.call('PUT', linkOf(key, REL.updateApiKey), { name: '' }), 400, { name: API_KEY_NAME_REQUIRED });
  });

  it("refuses another profile's key (404, as for none; a create at its id 409): no links are rendered to them and nothing changes", async () => {
    const key = await createKey('private');
    const list = await world.owner.api.get('/api/apikeys');
    expect(embedded(list.body, 'apikeys').map((k: { id: string }) => k.id)).not.toContain(key.id);
    expectError(await world.owner.api.get(`/api/apikeys/${key.id}`), 404);
    expectError(await world.owner.api.call('PUT', `/api/apikeys/${key.id}`, { name: 'mine now' }), 409);
    expectError(await world.owner.api.call('DELETE', `/api/apikeys/${key.id}`), 404);
    const mine = await world.member.api.get(`/api/apikeys/${key.id}`);
    expect(mine.body.name).toBe('private');
  });

  it('answers 401 without a token', async () => {
    expectError(await world.anonymous.call('PUT', `/api/apikeys/${crypto.randomUUID()}`, { name: 'x' }), 401);
  });
});

describe('GET /api/apikeys', () => {
  it("lists only the caller's keys, with their links", async () => {
    await createKey('listed');
    const answer = await world.member.api.get('/api/apikeys');
    expect(answer.status).toBe(200);
    expect(apiKeysCollectionSchema.safeParse(answer.body).success).toBe(true);
    const keys = answer.body._embedded.apikeys as { name: string; profileId: string; clientSecret?: string }[];
    expect(keys.map((k) => k.name)).toContain('listed');
    expect(keys.every((k) => k.profileId === world.member.subject && k.clientSecret === undefined)).toBe(true);
    for (const key of answer.body._embedded.apikeys) {
      expect(hasLink(key, REL.updateApiKey) && hasLink(key, REL.deleteApiKey)).toBe(true);
    }
  });

  it('answers 404 for an unknown key and 401 without a token', async () => {
    expectError(await world.member.api.get(`/api/apikeys/${crypto.randomUUID()}`), 404);
    expectError(await world.anonymous.get('/api/apikeys'), 401);
  });
});

describe('DELETE /api/apikeys/{id}', () => {
  it('deletes the key (204), after which its token no longer resolves and no new token is issued', async () => {
    const key = await createKey('short-lived');
    const token = await clientCredentialsToken(world.baseUrl, key.clientId, key.clientSecret);
    const asKey = apiClient(world.baseUrl, token.accessToken);
    expect((await asKey.get('/api/')).status).toBe(200);

    const deleted = await world.member.api.raw('DELETE', linkOf(key, REL.deleteApiKey), { id: key.id, name: key.name });
    expect(deleted.status).toBe(204);
    expectError(await world.member.api.get(`/api/apikeys/${key.id}`), 404);
    expectError(await asKey.get('/api/'), 401);
    await expect(clientCredentialsToken(world.baseUrl, key.clientId, key.clientSecret)).rejects.toBeInstanceOf(TokenRequestError);
  });

  it('answers 404 for an unknown key and 401 without a token', async () => {
    expectError(await world.member.api.call('DELETE', `/api/apikeys/${crypto.randomUUID()}`), 404);
    expectError(await world.anonymous.call('DELETE', `/api/apikeys/${crypto.randomUUID()}`), 401);
  });
});
