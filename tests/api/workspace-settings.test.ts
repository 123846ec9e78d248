import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { channelsCollectionSchema, workspaceSchema } from '../../src/domain/resources';
import { DEMO } from '../../server/seed';
import { embedded, expectError, linkOf } from './helpers/http';
import { login, startWorld, type World } from './helpers/world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member)]);
});
afterAll(() => world?.close());

const sandbox = `/api/workspaces/${DEMO.sandboxWorkspaceId}`;

describe("PUT the workspace's 'update delete workspace' link", () => {
  it('saves name, domains (stored without @), default environment and app properties', async () => {
    const workspace = await world.owner.api.get(sandbox);
    const href = linkOf(workspace.body, REL.updateDeleteWorkspace);
    const answer = await world.owner.api.call('PUT', href, {
      ...workspace.body,
      name: '  Sandbox renamed ',
      domains: ['@Example.com', 'example.com', 'corp.example.org'],
      defaultEnvironment: '',
      appProperties: { HOME_PAGE: 'explore' },
    });
    expect(answer.status).toBe(200);
    expect(workspaceSchema.safeParse(answer.body).success).toBe(true);
    expect(answer.body).toMatchObject({ name: 'Sandbox renamed', domains: ['example.com', 'corp.example.org'], defaultEnvironment: null, appProperties: { HOME_PAGE: 'explore' } });
    expect((await world.owner.api.get(sandbox)).body.name).toBe('Sandbox renamed');
  });

  it('answers field errors for a missing name and a domain that is no host name', async () => {
    expectError(await world.owner.api.call('PUT', sandbox, { name: '  ' }), 400, { name: 'Name is required' });
    expectError(await world.owner.api.call('PUT', sandbox, { name: 'x', domains: ['not a domain'] }), 400, { domains: /not a domain/ });
    expectError(await world.owner.api.call('PUT', sandbox, { name: 'x', appProperties: { 'bad key!': 'v' } }), 400);
  });

  it("refuses a plain member (403), a stranger who may not create workspaces (403, as at any id), a non-owner's unknown workspace (403) and no token (401)", async () => {
    expectError(await world.member.api.call('PUT', `/api/workspaces/${DEMO.workspaceId}`, { name: 'Mine now' }), 403);
    expectError(await world.outsider.api.call('PUT', sandbox, { name: 'Mine now' }), 403);
    // An unknown id is a workspace not created yet: only an owner's PUT creates it (workspace-create.test.ts).
    expectError(await world.member.api.call('PUT', `/api/workspaces/${randomUUID()}`, { name: 'x' }), 403);
    expectError(await world.anonymous.call('PUT', sandbox, { name: 'x' }), 401);
  });
});

describe("DELETE the workspace's 'update delete workspace' link", () => {
  it('refuses while a job is queued or running (409), then deletes the workspace and its content (204)', async () => {
    const db = world.server.db;
    const job = randomUUID();
    await db.insertInto('jobs').values({ id: job, workspace_id: DEMO.sandboxWorkspaceId, type: 'PIPELINE_RUN', status: 'QUEUED', attempt: 1, max_attempts: 1 }).execute();
    expectError(await world.member.api.call('DELETE', `/api/workspaces/${DEMO.workspaceId}`), 403);
    expectError(await world.owner.api.call('DELETE', sandbox), 409);
    await db.updateTable('jobs').set({ status: 'STOPPED' }).where('id', '=', job).execute();
    await world.owner.api.call('PATCH', `/api/profiles/${encodeURIComponent(world.owner.subject)}`, { defaultWorkspace: { id: DEMO.sandboxWorkspaceId } });

    const answer = await world.owner.api.raw('DELETE', sandbox, undefined);
    expect(answer.status).toBe(204);
    expectError(await world.owner.api.get(sandbox), 404);
    const left = await db.selectFrom('datasets').select('id').where('workspace_id', '=', DEMO.sandboxWorkspaceId).execute();
    expect(left).toEqual([]);
    const profile = await world.owner.api.get(`/api/profiles/${encodeURIComponent(world.owner.subject)}`);
    expect(profile.body.defaultWorkspace).toBeNull();
  });
});

describe("GET the workspace's channels link", () => {
  it('lists channels, most recently changed first, filtered by type and by holding datasets', async () => {
    const workspace = await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}`);
    const href = linkOf(workspace.body, REL.channels);
    const answer = await world.member.api.get(`${href}?sort=lastModified,desc`);
    expect(answer.status).toBe(200);
    expect(channelsCollectionSchema.safeParse(answer.body).success).toBe(true);
    const channels = embedded(answer.body, 'channels');
    expect(channels.length).toBeGreaterThan(0);
    const modified = channels.map((c: { lastModified: string }) => Date.parse(c.lastModified));
    expect(modified).toEqual([...modified].sort((a, b) => b - a));
    expect(embedded((await world.member.api.get(`${href}?type=NOPE`)).body, 'channels')).toEqual([]);
    const holding = embedded((await world.member.api.get(`${href}?containsDataset=true`)).body, 'channels');
    expect(holding.length).toBeGreaterThan(0);
  });

  it('refuses a bad sort (400), a stranger (404, as for no such id) and no token (401)', async () => {
    const href = `/api/workspaces/${DEMO.workspaceId}/channels`;
    expectError(await world.member.api.get(`${href}?sort=secret,asc`), 400, { sort: /cannot sort/ });
    expectError(await world.outsider.api.get(href), 404);
    expectError(await world.anonymous.get(href), 401);
  });
});
