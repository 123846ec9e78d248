import { randomUUID } from 'node:crypto';
import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callersFeed } from '../../server/repositories/datasets';
import { findCaller } from '../../server/repositories/callers';
import { generateClientId, generateSecret, hashSecret } from '../../server/security/secrets';
import { DEMO } from '../../server/seed';
import { clientCredentialsToken } from '../support/auth';
import { apiClient, embedded, expectError, type ApiClient } from './helpers/http';
import { login, startWorld, type World } from './helpers/world';

// Issue 21: the hottest reads (the workspace list and a workspace's feed) read the caller in their
// own statement, one round trip where other routes make two (server/repositories/callers.ts,
// readWithCaller). Every statement the server sends is counted while one request runs.

let world: World;
let statements: string[] = [];
beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
  const executor = world.server.db.getExecutor();
  const execute = executor.executeQuery.bind(executor);
  executor.executeQuery = ((query: CompiledQuery) => {
    statements.push(query.sql);
    return execute(query);
  }) as typeof executor.executeQuery;
});
afterAll(() => world?.close());

const feed = `/api/workspaces/${DEMO.workspaceId}/feed`;

/** The answer to one GET, and the statements the server sent for it. */
async function counted(api: ApiClient, url: string) {
  statements = [];
  const answer = await api.get(url);
  return { answer, statements: [...statements] };
}

describe('a read that carries its caller', () => {
  it('makes one statement for the workspace list and for the feed, where the root makes its own caller query', async () => {
    const list = await counted(world.member.api, '/api/workspaces?size=99');
    expect(list.answer.status).toBe(200);
    expect(embedded(list.answer.body, 'workspaces').map((w: { id: string }) => w.id)).toContain(DEMO.workspaceId);
    expect(list.statements).toHaveLength(1);
    expect(list.statements[0]).toMatch(/^WITH caller AS/);

    const page = await counted(world.member.api, `${feed}?page=0&size=2`);
    expect(page.answer.status).toBe(200);
    expect(embedded(page.answer.body, 'datasets')).toHaveLength(2);
    expect(page.answer.body.page.totalElements).toBeGreaterThan(2);
    expect(page.statements).toHaveLength(1);

    // an ordinary route: the caller's query, then its own
    expect((await counted(world.member.api, `/api/workspaces/${DEMO.workspaceId}/channels`)).statements.length).toBeGreaterThan(1);
  });

  it('gives the feed in the same order and with the same total as page by page', async () => {
    const whole = embedded((await world.member.api.get(`${feed}?page=0&size=50`)).body, 'datasets').map((d: { id: string }) => d.id);
    const pages: string[] = [];
    for (let page = 0; page * 3 < whole.length; page++) pages.push(...embedded((await world.member.api.get(`${feed}?page=${page}&size=3`)).body, 'datasets').map((d: { id: string }) => d.id));
    expect(pages).toEqual(whole);
    // past the end: no row carries the total, which is counted on its own
    const past = await counted(world.member.api, `${feed}?page=99&size=10`);
    expect(past.answer.body.page.totalElements).toBe(whole.length);
    expect(embedded(past.answer.body, 'datasets')).toEqual([]);
  });

  it("refuses another workspace's caller with the guard's 404 (as for no workspace) and none of the rows it read", async () => {
    const { answer, statements: sent } = await counted(world.outsider.api, `${feed}?page=0&size=10`);
    expectError(answer, 404);
    expect(JSON.stringify(answer.body)).not.toMatch(/datasets|Monthly Revenue/);
    expect(sent).toHaveLength(1);
  });

  it('authorises before it validates, as every route does: bad paging is 404 to an outsider, 400 to a member', async () => {
    expectError(await world.outsider.api.get(`${feed}?size=nope`), 404);
    expectError(await world.member.api.get(`${feed}?size=nope`), 400);
    expectError(await world.member.api.get('/api/workspaces?sort=name;drop'), 400);
    // a path that names no workspace reads the caller alone, and is a 404
    expectError(await world.member.api.get('/api/workspaces/not-a-uuid/feed'), 404);
    expectError(await world.member.api.get(`/api/workspaces/${randomUUID()}/feed`), 404);
  });

  it('carries the very caller its own query reads, dates and JSON alike, on this database', async () => {
    const read = callersFeed(world.server.db, { page: 0, size: 3, sort: undefined });
    const carried = await read({ profileId: world.member.subject }, DEMO.workspaceId);
    const own = await findCaller(world.server.db, { profileId: world.member.subject }, DEMO.workspaceId);
    expect(carried.caller).toEqual(own);
    expect(carried.caller?.profile.created_at).toBeInstanceOf(Date);
    expect(carried.caller?.workspace?.row?.app_properties).toEqual(own?.workspace?.row?.app_properties);
    expect(carried.rows).toHaveLength(3);
  });

  it('reads the workspaces of the profile an API key belongs to, in the same one statement', async () => {
    const clientId = generateClientId();
    const secret = generateSecret();
    await world.server.db
      .insertInto('api_keys')
      .values({ id: randomUUID(), profile_id: world.member.subject, name: 'carried', client_id: clientId, secret_hash: hashSecret(secret) })
      .execute();
    const asKey = apiClient(world.baseUrl, (await clientCredentialsToken(world.baseUrl, clientId, secret)).accessToken);
    const idsNames = (body: unknown) => embedded(body, 'workspaces').map((w: { id: string; name: string }) => [w.id, w.name]);
    const asMember = idsNames((await world.member.api.get('/api/workspaces?size=99')).body);
    const list = await counted(asKey, '/api/workspaces?size=99');
    expect(idsNames(list.answer.body)).toEqual(asMember);
    expect(asMember.length).toBeGreaterThan(0);
    expect(list.statements).toHaveLength(1);
    expect((await counted(asKey, `${feed}?page=0&size=2`)).statements).toHaveLength(1);
  });
});
