import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { channelSchema, datasetMultiSearchSchema, invitationsCollectionSchema, profilesCollectionSchema, workspaceResourcesCollectionSchema } from '../../src/domain/resources';
import { bytesOf, findResource, writeResource } from '../../server/repositories/workspaceResources';
import { DEMO } from '../../server/seed';
import { embedded, expectError, hasLink, linkOf, type Answer } from './helpers/http';
import { login, startWorld, type Person, type World } from './helpers/world';
import { outsiderWorkspace } from './lab/labWorld';

// The Matatika reference's last seven endpoints (issue 38): initialising a channel, a channel read
// in its workspace, deleting a data component, the invitations the caller sent, the caller's
// profiles, several resources in one POST and the dataset multi-search. Each: what it answers,
// its link offered exactly to who may follow it, bad input as field errors, a member where admins
// only, and another workspace's caller answered as nothing there (404).

let world: World;
let outsiderWorkspaceId: string;
const RESOURCE_WORKSPACE_MB = 2;

beforeAll(async () => {
  world = await startWorld({ env: { RESOURCE_MAX_MB: '1', RESOURCE_WORKSPACE_MB: String(RESOURCE_WORKSPACE_MB) } });
  await Promise.all([login(world.owner), login(world.member)]);
}, 120_000);
afterAll(() => world?.close());

const root = async (person: Person): Promise<unknown> => (await person.api.get('/api/')).body as unknown;
const workspace = async (person: Person): Promise<unknown> => (await person.api.get(`/api/workspaces/${DEMO.workspaceId}`)).body as unknown;

describe('before the outsider has a profile', () => {
  it('offers them no profiles, no sent invitations and no new channel, and refuses those routes (403)', async () => {
    const theirs = await root(world.outsider);
    for (const rel of [REL.profiles, REL.sentInvitations, REL.newChannel]) expect(hasLink(theirs, rel), rel).toBe(false);
    expectError(await world.outsider.api.get('/api/profiles'), 403);
    expectError(await world.outsider.api.get('/api/invitations'), 403);
    expectError(await world.outsider.api.call('POST', `/api/channels/${randomUUID()}`), 403);
    outsiderWorkspaceId = await outsiderWorkspace(world);
  });
});

describe('POST /api/channels/{id} (initialise)', () => {
  it("answers a blank list at the root's 'new channel', writes nothing, and its 'create channel' creates it in the default workspace", async () => {
    const href = linkOf(await root(world.member), REL.newChannel);
    const draft = await world.member.api.call('POST', href);
    expect(draft.status, JSON.stringify(draft.body)).toBe(200);
    expect(channelSchema.safeParse(draft.body).success).toBe(true);
    const id = String(draft.body.id);
    expect(href.endsWith(`/api/channels/${id}`)).toBe(true);
    expect(draft.body).toMatchObject({ name: '', type: 'LIST', scope: 'PROFILE' });
    expect(Object.keys(draft.body._links)).toEqual([REL.createChannel]);
    expect(linkOf(draft.body, REL.createChannel)).toBe(`${world.baseUrl}/api/workspaces/${DEMO.workspaceId}/channels/${id}`);
    expect(await world.server.db.selectFrom('channels').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    const created = await world.member.api.call('PUT', linkOf(draft.body, REL.createChannel), { name: 'Initialised picks' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ id, name: 'Initialised picks', type: 'LIST', scope: 'PROFILE' });
  });

  it("offers no 'create channel' to someone whose default workspace is not theirs (none set)", async () => {
    await world.server.db.updateTable('profiles').set({ default_workspace_id: null }).where('id', '=', world.outsider.subject).execute();
    const draft = await world.outsider.api.call('POST', linkOf(await root(world.outsider), REL.newChannel));
    expect(draft.status).toBe(200);
    expect(hasLink(draft.body, REL.createChannel)).toBe(false);
  });

  it('refuses an id that is no channel id (400 on id)', async () => {
    expectError(await world.owner.api.call('POST', '/api/channels/not-a-uuid'), 400, { id: 'must be a channel id' });
  });
});

describe('GET /api/workspaces/{w}/channels/{id}', () => {
  it('answers the body GET /api/channels/{id} answers, to a member', async () => {
    const source = await world.server.db.selectFrom('channels').select('id').where('workspace_id', '=', DEMO.workspaceId).where('type', '=', 'SOURCE').executeTakeFirstOrThrow();
    const inWorkspace = await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}/channels/${source.id}`);
    expect(inWorkspace.status, JSON.stringify(inWorkspace.body)).toBe(200);
    const alone = await world.member.api.get(`/api/channels/${source.id}`);
    expect(inWorkspace.body).toEqual(alone.body);
  });

  it('answers 404 when the channel is not in that workspace, to another workspace, and for a private list of someone else', async () => {
    const source = await world.server.db.selectFrom('channels').select('id').where('workspace_id', '=', DEMO.workspaceId).where('type', '=', 'SOURCE').executeTakeFirstOrThrow();
    expectError(await world.owner.api.get(`/api/workspaces/${outsiderWorkspaceId}/channels/${source.id}`), 404);
    expectError(await world.outsider.api.get(`/api/workspaces/${DEMO.workspaceId}/channels/${source.id}`), 404);
    expectError(await world.outsider.api.get(`/api/workspaces/${outsiderWorkspaceId}/channels/${source.id}`), 404);
    const secret = await world.owner.api.call('PUT', linkOf(await workspace(world.owner), REL.createChannel), { name: 'Owner only', scope: 'PROFILE' });
    expect(secret.status).toBe(201);
    expect((await world.owner.api.get(`/api/workspaces/${DEMO.workspaceId}/channels/${secret.body.id}`)).status).toBe(200);
    expectError(await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}/channels/${secret.body.id}`), 404);
  });
});

describe('DELETE /api/datacomponents/{id}', () => {
  const component = async (name: string) => {
    const created = await world.owner.api.call('POST', `/api/workspaces/${DEMO.workspaceId}/datacomponents`, { name, dataPlugin: 'extractors/tap-postgres', properties: { host: 'db.example.com', password: `secret-of-${name}` } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return String(created.body.id);
  };

  it("offers 'delete datacomponent' to admins only; a member is refused (403), another workspace's admin answered 404", async () => {
    const id = await component('ref-offered');
    const asOwner = await world.owner.api.get(`/api/datacomponents/${id}`);
    expect(linkOf(asOwner.body, REL.deleteDatacomponent)).toBe(`${world.baseUrl}/api/datacomponents/${id}`);
    expectError(await world.member.api.call('DELETE', `/api/datacomponents/${id}`), 403);
    expectError(await world.outsider.api.call('DELETE', `/api/datacomponents/${id}`), 404);
    expectError(await world.outsider.api.call('DELETE', `/api/datacomponents/${randomUUID()}`), 404);
    expect((await world.owner.api.get(`/api/datacomponents/${id}`)).status).toBe(200);
  });

  it('deletes an unused component with its settings and their secrets (204)', async () => {
    const id = await component('ref-unused');
    const deleted = await world.owner.api.call('DELETE', `/api/datacomponents/${id}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
    expectError(await world.owner.api.get(`/api/datacomponents/${id}`), 404);
    const rows = await world.server.db.selectFrom('data_components').select('id').where('workspace_id', '=', DEMO.workspaceId).where('name', '=', 'ref-unused').execute();
    expect(rows).toEqual([]);
    const anywhere = await world.server.db.selectFrom('data_components').select('properties').execute();
    expect(JSON.stringify(anywhere)).not.toContain('secret-of-ref-unused');
  });

  it('keeps a component a pipeline names: 409 naming the pipeline, and deletes it once the pipeline is gone', async () => {
    const id = await component('ref-used');
    const draft = await world.owner.api.call('POST', `/api/workspaces/${DEMO.workspaceId}/pipelines`);
    const pipeline = await world.owner.api.call('PUT', linkOf(draft.body, REL.draftPipeline), { name: 'Uses ref-used', dataComponents: ['ref-used', 'loaders/target-store'] });
    expect(pipeline.status, JSON.stringify(pipeline.body)).toBe(201);
    const refused = await world.owner.api.call('DELETE', `/api/datacomponents/${id}`);
    expectError(refused, 409);
    expect(refused.body.message).toContain('Uses ref-used');
    expect((await world.owner.api.get(`/api/datacomponents/${id}`)).status).toBe(200);
    expect((await world.owner.api.call('DELETE', `/api/pipelines/${pipeline.body.id}`)).status).toBe(204);
    expect((await world.owner.api.call('DELETE', `/api/datacomponents/${id}`)).status).toBe(204);
  });
});

describe('GET /api/invitations (sent by the caller)', () => {
  const sentEmails = (answer: Answer) => embedded(answer.body, 'invitations').map((i: { email: string }) => i.email);

  it("lists what the caller sent in workspaces they administer, at the root's 'sent invitations', with the admin's links", async () => {
    expect(linkOf(await root(world.owner), REL.sentInvitations)).toBe(`${world.baseUrl}/api/invitations`);
    const invited = await world.owner.api.call('POST', `/api/workspaces/${DEMO.workspaceId}/invitations`, { email: 'sent-by-owner@example.com' });
    expect(invited.status).toBe(201);
    const elsewhere = await world.outsider.api.call('POST', `/api/workspaces/${outsiderWorkspaceId}/invitations`, { email: 'sent-by-outsider@example.com' });
    expect(elsewhere.status).toBe(201);
    const mine = await world.owner.api.get('/api/invitations');
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(invitationsCollectionSchema.safeParse(mine.body).success).toBe(true);
    expect(sentEmails(mine)).toContain('sent-by-owner@example.com');
    expect(sentEmails(mine)).not.toContain('sent-by-outsider@example.com');
    const item = embedded(mine.body, 'invitations').find((i: { email: string }) => i.email === 'sent-by-owner@example.com');
    expect(hasLink(item, REL.withdrawInvitation)).toBe(true);
    expect(sentEmails(await world.outsider.api.get('/api/invitations'))).toEqual(['sent-by-outsider@example.com']);
  });

  it('leaves out what a sender sent where they are no longer an admin', async () => {
    const id = randomUUID();
    await world.server.db.insertInto('invitations').values({ id, workspace_id: DEMO.workspaceId, email: 'sent-by-member@example.com', status: 'PENDING', invited_by: world.member.subject }).execute();
    expect(sentEmails(await world.member.api.get('/api/invitations'))).toEqual([]);
    const promote = () => world.server.db.updateTable('workspace_members').where('workspace_id', '=', DEMO.workspaceId).where('profile_id', '=', world.member.subject);
    await promote().set({ role: 'editor' }).execute();
    try {
      expect(sentEmails(await world.member.api.get('/api/invitations'))).toEqual(['sent-by-member@example.com']);
    } finally {
      await promote().set({ role: 'member' }).execute();
    }
    expect(sentEmails(await world.member.api.get('/api/invitations'))).toEqual([]);
  });

  it("keeps `?email=` to the caller's own address: another's is refused (403) even to a sender; a blank one is a 400", async () => {
    expectError(await world.owner.api.get(`/api/invitations?email=${encodeURIComponent('sent-by-owner@example.com')}`), 403);
    expectError(await world.unverified.api.get(`/api/invitations?email=${encodeURIComponent('sent-by-owner@example.com')}`), 403);
    expectError(await world.owner.api.get('/api/invitations?email='), 400, { email: /required/ });
    const own = await world.outsider.api.get(`/api/invitations?email=${encodeURIComponent(world.outsider.email)}`);
    expect(own.status).toBe(200);
  });
});

describe('GET /api/profiles', () => {
  it("answers a page holding the caller's own profile only, at the root's 'profiles'", async () => {
    expect(linkOf(await root(world.member), REL.profiles)).toBe(`${world.baseUrl}/api/profiles`);
    const page = await world.member.api.get('/api/profiles');
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(profilesCollectionSchema.safeParse(page.body).success).toBe(true);
    const profiles = embedded(page.body, 'profiles');
    expect(profiles.map((p: { id: string }) => p.id)).toEqual([world.member.subject]);
    expect(page.body.page.totalElements).toBe(1);
    expect(linkOf(profiles[0], REL.self)).toBe(`${world.baseUrl}/api/profiles/${encodeURIComponent(world.member.subject)}`);
    // nobody else's address, though the member shares a workspace with the owner
    expect(JSON.stringify(page.body)).not.toContain(world.owner.email);
    expect(embedded((await world.member.api.get('/api/profiles?page=1')).body, 'profiles')).toEqual([]);
  });

  it('refuses bad paging with field errors', async () => {
    expectError(await world.member.api.get('/api/profiles?size=0'), 400, { size: /./ });
  });
});

describe('POST /api/workspaces/{w}/resources', () => {
  const url = `/api/workspaces/${DEMO.workspaceId}/resources`;
  const stored = (path: string) => findResource(world.server.db, DEMO.workspaceId, path);

  it("publishes several files at once, to admins at the workspace's 'publish resources'; a member is not offered it (403)", async () => {
    expect(linkOf(await workspace(world.owner), REL.publishResources)).toBe(`${world.baseUrl}${url}`);
    expect(hasLink(await workspace(world.member), REL.publishResources)).toBe(false);
    const body = [
      { path: 'batch/a.csv', content: 'a,b\n1,2\n', contentType: 'text/csv' },
      { path: 'batch/notes.txt', content: 'hello' },
    ];
    expectError(await world.member.api.call('POST', url, body), 403);
    expect(await stored('batch/a.csv')).toBeUndefined();
    const published = await world.owner.api.call('POST', url, body);
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(workspaceResourcesCollectionSchema.safeParse(published.body).success).toBe(true);
    const items = embedded(published.body, 'resources');
    expect(items.map((r: { path: string }) => r.path)).toEqual(['batch/a.csv', 'batch/notes.txt']);
    expect(items.map((r: { contentType: string }) => r.contentType)).toEqual(['text/csv', 'text/plain']);
    expect(hasLink(items[0], REL.deleteResource)).toBe(true);
    const download = await world.member.api.get(`${url}/batch/notes.txt`);
    expect(download.body).toBe('hello');
  });

  it('refuses a bad item with a field error naming its index, and writes none of the others', async () => {
    const bad = await world.owner.api.call('POST', url, [
      { path: 'batch/fine.txt', content: 'fine' },
      { path: '../escape.txt', content: 'no' },
      { path: 'batch/fine.txt', content: 'twice' },
    ]);
    expectError(bad, 400, { '1.path': /./, '2.path': /given twice/ });
    expect(bad.body.errors).toHaveLength(2);
    expect(await stored('batch/fine.txt')).toBeUndefined();
    expectError(await world.owner.api.call('POST', url, [{ path: 'batch/fine.txt', content: 'fine' }, { content: 'no path' }]), 400, { '1.path': 'is required' });
    expect(await stored('batch/fine.txt')).toBeUndefined();
    expectError(await world.owner.api.call('POST', url, []), 400);
    expectError(await world.owner.api.call('POST', url, { path: 'x.txt', content: 'x' }), 400);
    expectError(await world.owner.api.call('POST', url, Array.from({ length: 101 }, (_, i) => ({ path: `many/${i}.txt`, content: 'x' }))), 400);
  });

  it("writes all or nothing against the workspace's quota (413), and refuses another workspace's admin (404)", async () => {
    // fill the workspace to just under its quota, through the repository (the API's body limit is 1 MB)
    const used = await world.server.db.selectFrom('workspace_resources').select((eb) => eb.fn.sum<string>('size').as('n')).where('workspace_id', '=', DEMO.workspaceId).executeTakeFirstOrThrow();
    const room = RESOURCE_WORKSPACE_MB * 1024 * 1024 - Number(used.n ?? 0);
    const filler = await writeResource(world.server.db, { workspaceId: DEMO.workspaceId, path: 'batch/filler.bin', content: bytesOf(Buffer.alloc(room - 300_000)), contentType: 'application/octet-stream', profileId: null }, RESOURCE_WORKSPACE_MB * 1024 * 1024);
    expect(filler.ok).toBe(true);
    const over = await world.owner.api.call('POST', url, [
      { path: 'batch/first.txt', content: 'x'.repeat(200_000) },
      { path: 'batch/second.txt', content: 'y'.repeat(200_000) },
    ]);
    expectError(over, 413);
    expect(await stored('batch/first.txt')).toBeUndefined();
    expectError(await world.outsider.api.call('POST', url, [{ path: 'batch/theirs.txt', content: 'x' }]), 404);
    expect(await stored('batch/theirs.txt')).toBeUndefined();
  });
});

describe('POST /api/workspaces/{w}/datasets/_msearch', () => {
  const url = `/api/workspaces/${DEMO.workspaceId}/datasets/_msearch`;
  const msearch = (person: Person, body: string, type = 'application/x-ndjson') =>
    fetch(new URL(url, world.baseUrl), { method: 'POST', headers: { authorization: `Bearer ${person.token}`, 'content-type': type }, body }).then(async (response) => ({
      status: response.status,
      body: await response.json(),
      headers: response.headers,
    }));
  const lines = (...values: unknown[]) => `${values.map((v) => JSON.stringify(v)).join('\n')}\n`;

  it("answers each search as GET …/search answers it, for every member (the workspace's 'search')", async () => {
    const answer = await msearch(world.member, lines({}, { q: 'revenue', size: 3 }, { index: 'datasets' }, { query: { match_all: {} }, from: 2, size: 2 }));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(datasetMultiSearchSchema.safeParse(answer.body).success).toBe(true);
    expect(answer.body.responses).toHaveLength(2);
    const single = await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}/search?q=revenue&page=0&size=3`);
    expect(answer.body.responses[0]).toEqual(single.body);
    expect(embedded(answer.body.responses[0], 'datasets').length).toBeGreaterThan(0);
    const second = await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}/search?page=1&size=2`);
    expect(answer.body.responses[1]).toEqual(second.body);
  });

  it('refuses bad lines naming the line, more than 10 searches, and a body that is no NDJSON (400)', async () => {
    expectError(await msearch(world.member, lines({}, { q: 'a' }, {}, { q: 3 })), 400, { 'line 4': /q must be text/ });
    expectError(await msearch(world.member, '{}\nnot json\n'), 400, { 'line 2': 'must be one JSON object' });
    const eleven = Array.from({ length: 11 }, () => [{}, { q: 'a' }]).flat();
    expectError(await msearch(world.member, lines(...eleven)), 400, { searches: /at most 10/ });
    expectError(await msearch(world.member, JSON.stringify({ q: 'a' }), 'application/json'), 400);
    expect((await msearch(world.member, lines(...eleven.slice(2)))).status).toBe(200);
  });

  it("answers another workspace's caller as nothing there (404)", async () => {
    expectError(await msearch(world.outsider, lines({}, { q: 'revenue' })), 404);
  });
});
