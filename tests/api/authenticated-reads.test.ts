import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClientId, generateSecret, hashSecret } from '../../server/security/secrets';
import { DEMO } from '../../server/seed';
import { clientCredentialsToken } from '../support/auth';
import { apiClient, embedded, expectError } from './helpers/http';
import { login, startWorld, type World } from './helpers/world';

// Verified tokens are cached (server/http/token-cache.ts) and a workspace route reads the caller
// and the workspace in one query: what may change between two requests must still come from the
// database every time.

let world: World;
beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member)]);
});
afterAll(async () => {
  await world?.close();
});

const feed = `/api/workspaces/${DEMO.workspaceId}/feed?page=0&size=10`;

describe('a cached token', () => {
  it("stops working at once when its API key is deleted, though its signature is cached", async () => {
    const clientId = generateClientId();
    const secret = generateSecret();
    const keyId = randomUUID();
    await world.server.db
      .insertInto('api_keys')
      .values({ id: keyId, profile_id: world.member.subject, name: 'cached', client_id: clientId, secret_hash: hashSecret(secret) })
      .execute();
    const asKey = apiClient(world.baseUrl, (await clientCredentialsToken(world.baseUrl, clientId, secret)).accessToken);
    for (let i = 0; i < 3; i++) {
      expect((await asKey.get('/api/workspaces?size=99')).status).toBe(200);
      expect((await asKey.get(feed)).status).toBe(200);
    }

    await world.server.db.deleteFrom('api_keys').where('id', '=', keyId).execute();
    expectError(await asKey.get('/api/workspaces?size=99'), 401);
    expectError(await asKey.get(feed), 401);
    expectError(await asKey.get('/api/'), 401);
  });

  it('loses a workspace at once when its membership ends, and regains it when it comes back', async () => {
    expect((await world.member.api.get(feed)).status).toBe(200);
    const membership = await world.server.db
      .selectFrom('workspace_members')
      .selectAll()
      .where('workspace_id', '=', DEMO.workspaceId)
      .where('profile_id', '=', world.member.subject)
      .executeTakeFirstOrThrow();
    await world.server.db.deleteFrom('workspace_members').where('workspace_id', '=', DEMO.workspaceId).where('profile_id', '=', world.member.subject).execute();
    try {
      expectError(await world.member.api.get(feed), 404);
      expectError(await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}`), 404);
      const list = await world.member.api.get('/api/workspaces?size=99');
      expect(embedded(list.body, 'workspaces').map((w: { id: string }) => w.id)).not.toContain(DEMO.workspaceId);
    } finally {
      await world.server.db.insertInto('workspace_members').values(membership).execute();
    }
    expect((await world.member.api.get(feed)).status).toBe(200);
  });
});

describe('workspace routes read the caller and the workspace together', () => {
  it('answer 404 for an unknown or malformed workspace and to a non-member alike', async () => {
    expectError(await world.member.api.get(`/api/workspaces/${randomUUID()}/feed`), 404);
    expectError(await world.member.api.get('/api/workspaces/not-a-uuid/feed'), 404);
    expectError(await world.outsider.api.get(feed), 404);
    expectError(await world.unverified.api.get(feed), 404);
  });

  it('serve the feed page with its tags, channel and total, and a total past the last page', async () => {
    const first = await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}/feed?page=0&size=2`);
    expect(first.status).toBe(200);
    const items = embedded(first.body, 'datasets') as Array<{ tags: Array<{ name: string }> }>;
    expect(items).toHaveLength(2);
    for (const item of items) {
      const names = item.tags.map((t) => t.name);
      expect(names).toEqual([...names].sort());
    }
    const total = (first.body as { page: { totalElements: number } }).page.totalElements;
    expect(total).toBeGreaterThan(2);
    const beyond = await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}/feed?page=99&size=2`);
    expect(embedded(beyond.body, 'datasets')).toEqual([]);
    expect((beyond.body as { page: { totalElements: number } }).page.totalElements).toBe(total);
  });
});
