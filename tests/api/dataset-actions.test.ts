import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../server/seed';
import { DEMO_LIST } from '../../server/seed/showcase';
import { REL } from '../../src/domain/relations';
import { channelSchema, datasetSchema } from '../../src/domain/resources';
import { embedded, expectError, hasLink, linkOf } from './helpers/http';
import { login, startWorld, type World } from './helpers/world';

// What members and admins do to a dataset through its links: star, view, watch, related; publish,
// edit and delete (admins); lists of datasets. Each link both ways: offered and allowed, absent and 403.

let world: World;
const W = DEMO.workspaceId;

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
}, 120_000);
afterAll(() => world?.close());

const get = (who: 'owner' | 'member', alias: string) => world[who].api.get(`/api/workspaces/${W}/datasets/${alias}`);

describe('links of a dataset per caller', () => {
  it('offers every member like, view, watch, related and data; only admins edit and delete', async () => {
    const member = await get('member', 'sales/monthly-revenue');
    expect(datasetSchema.safeParse(member.body).success).toBe(true);
    for (const rel of [REL.self, REL.data, REL.likeDataset, REL.viewDataset, REL.addSubscription, REL.related]) expect(hasLink(member.body, rel), rel).toBe(true);
    for (const rel of [REL.editDataset, REL.deleteDataset, REL.deleteSubscription]) expect(hasLink(member.body, rel), rel).toBe(false);
    const owner = await get('owner', 'sales/monthly-revenue');
    expect(hasLink(owner.body, REL.editDataset)).toBe(true);
    expect(hasLink(owner.body, REL.deleteDataset)).toBe(true);
    expect(owner.body).toMatchObject({ likeCount: 0, likedByProfiles: [], commentCount: 0, continuousPoll: false });
  });

  it('refuses a member the admin relations (403) and another workspace’s caller everything (403)', async () => {
    const { body } = await get('member', 'sales/monthly-revenue');
    expectError(await world.member.api.call('PATCH', `/api/datasets/${body.id}`, { description: 'mine now' }), 403);
    expectError(await world.member.api.call('DELETE', `/api/datasets/${body.id}`), 403);
    for (const [method, path] of [
      ['GET', `/api/datasets/${body.id}`],
      ['PUT', `/api/datasets/${body.id}/like`],
      ['PUT', `/api/datasets/${body.id}/view`],
      ['POST', `/api/datasets/${body.id}/subscriptions`],
      ['GET', `/api/datasets/${body.id}/related`],
      ['GET', `/api/workspaces/${W}/datasets`],
    ] as const) {
      expectError(await world.outsider.api.call(method, path, method === 'POST' ? { type: 'ALL' } : undefined), 404);
    }
  });
});

describe('star, view, watch', () => {
  it('stars and unstars idempotently, the count following likedByProfiles', async () => {
    const { body } = await get('member', 'top-customers');
    const like = linkOf(body, REL.likeDataset);
    const first = await world.member.api.call('PUT', like);
    expect(first.status).toBe(200);
    await world.member.api.call('PUT', like);
    await world.owner.api.call('PUT', like);
    const liked = await get('member', 'top-customers');
    expect(liked.body.likeCount).toBe(2);
    expect((liked.body.likedByProfiles as { email: string }[]).map((p) => p.email).sort()).toEqual([DEMO.member.email, DEMO.owner.email]);
    expect((await world.member.api.call('DELETE', like)).status).toBe(204);
    expect((await world.member.api.call('DELETE', like)).status).toBe(204);
    const after = await get('member', 'top-customers');
    expect(after.body.likeCount).toBe(1);
    expect(after.body.likedByProfiles).toEqual([expect.objectContaining({ email: DEMO.owner.email })]);
  });

  it('counts a view per PUT', async () => {
    const { body } = await get('member', 'newsletter-growth');
    const viewed = await world.member.api.call('PUT', linkOf(body, REL.viewDataset));
    expect(viewed.status).toBe(204);
    expect((await get('member', 'newsletter-growth')).body.viewCount).toBe(body.viewCount + 1);
  });

  it('watches with add subscription, then offers delete subscription instead; unwatching turns it back', async () => {
    const { body } = await get('member', 'support-tickets');
    expectError(await world.member.api.call('POST', linkOf(body, REL.addSubscription), { type: 'SOMETIMES' }), 400, { type: /./ });
    const watched = await world.member.api.call('POST', linkOf(body, REL.addSubscription), { type: 'ALERTS' });
    expect(watched.status).toBe(201);
    expect(watched.body.type).toBe('ALERTS');
    const now = await get('member', 'support-tickets');
    expect(hasLink(now.body, REL.addSubscription)).toBe(false);
    expectError(await world.member.api.call('POST', linkOf(body, REL.addSubscription), { type: 'ALL' }), 403);
    // the owner's view is their own: not watching
    expect(hasLink((await get('owner', 'support-tickets')).body, REL.addSubscription)).toBe(true);
    expect((await world.member.api.call('DELETE', linkOf(now.body, REL.deleteSubscription))).status).toBe(204);
    const after = await get('member', 'support-tickets');
    expect(hasLink(after.body, REL.deleteSubscription)).toBe(false);
    expectError(await world.member.api.call('DELETE', linkOf(now.body, REL.deleteSubscription)), 403);
  });

  it('lists related datasets sharing a tag or the channel, most shared first, never itself', async () => {
    const { body } = await get('member', 'sales/monthly-revenue');
    const related = await world.member.api.get(linkOf(body, REL.related));
    expect(related.status).toBe(200);
    const aliases = embedded(related.body, 'datasets').map((d: { alias: string }) => d.alias);
    expect(aliases).not.toContain('sales/monthly-revenue');
    // 'Revenue Targets vs Actuals' shares revenue, kpi and the Sales channel
    expect(aliases[0]).toBe('sales/targets-vs-actuals');
    expect(aliases).toContain('top-customers');
    expect(aliases).not.toContain('support-tickets');
  });
});

describe('publish, edit, delete (admins)', () => {
  const publish = (body: unknown) => world.owner.api.call('POST', `/api/workspaces/${W}/datasets`, body);

  it('offers publish and preview to admins only', async () => {
    const owner = await world.owner.api.get(`/api/workspaces/${W}`);
    const member = await world.member.api.get(`/api/workspaces/${W}`);
    expect(linkOf(owner.body, REL.publishDataset)).toBe(linkOf(owner.body, REL.datasets));
    expect(hasLink(owner.body, REL.previewDataset)).toBe(true);
    expect(hasLink(member.body, REL.publishDataset)).toBe(false);
    expect(hasLink(member.body, REL.datasets)).toBe(true);
    expectError(await world.member.api.call('POST', `/api/workspaces/${W}/datasets`, { title: 'Nope' }), 403);
  });

  it('creates (201) and replaces by alias or id (200), tags replaced when given', async () => {
    const created = await publish({ alias: 'lab/new-one', title: 'New one', description: 'v1', tags: ['Alpha', '#beta'], visualisation: '{"html-table":{}}' });
    expect(created.status).toBe(201);
    expect((created.body.tags as { name: string }[]).map((t) => t.name)).toEqual(['alpha', 'beta']);
    const byAlias = await publish({ alias: 'lab/new-one', title: 'New one, again' });
    expect(byAlias.status).toBe(200);
    expect(byAlias.body).toMatchObject({ id: created.body.id, title: 'New one, again', description: null, visualisation: null });
    expect(byAlias.body.tags).toHaveLength(2);
    const byId = await publish({ id: created.body.id, alias: 'lab/renamed', title: 'Renamed', tags: [] });
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ id: created.body.id, alias: 'lab/renamed', tags: [] });
  });

  it('refuses broken fields with one 400 naming each', async () => {
    const sandboxChannel = await world.server.db.selectFrom('channels').select('id').where('workspace_id', '=', DEMO.sandboxWorkspaceId).executeTakeFirstOrThrow();
    expectError(await publish({ title: '' }), 400, { title: /./ });
    expectError(await publish({ description: 'no title' }), 400, { title: /./ });
    // an alias names the dataset to replace, unless the body names another one by id
    const other = await publish({ title: 'Another' });
    expectError(
      await publish({ id: other.body.id, title: 'Broken', alias: 'top-customers', visualisation: '[1]', metadata: '{not json', query: 'DELETE FROM orders', channelId: sandboxChannel.id }),
      400,
      { alias: /already used/, visualisation: 'must be a JSON object', metadata: 'must be a JSON object', query: /only reads|Only SELECT/, channelId: /not a channel/ },
    );
  });

  it('edits any subset by PATCH under the same rules; a member cannot', async () => {
    const { body } = await get('owner', 'campaign-conversions');
    const edited = await world.owner.api.call('PATCH', linkOf(body, REL.editDataset), { description: '**new** text', continuousPoll: true });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ description: '**new** text', continuousPoll: true, title: body.title, alias: body.alias });
    expect(edited.body.tags).toEqual(body.tags);
    expectError(await world.owner.api.call('PATCH', linkOf(body, REL.editDataset), { alias: 'top-customers', query: 'SELECT * FROM pg_user' }), 400, { alias: /./, query: /system catalogs/ });
    expectError(await world.owner.api.call('PATCH', linkOf(body, REL.editDataset), { title: '' }), 400, { title: /./ });
  });

  it('deletes (204); the dataset is gone (404)', async () => {
    const created = await publish({ title: 'Short-lived' });
    expect((await world.owner.api.call('DELETE', linkOf(created.body, REL.deleteDataset))).status).toBe(204);
    expectError(await world.owner.api.get(`/api/datasets/${created.body.id}`), 404);
  });

  it('lists the workspace’s datasets for every member, searching title and alias', async () => {
    const all = await world.member.api.get(`/api/workspaces/${W}/datasets?size=100`);
    expect(all.status).toBe(200);
    expect(all.body.page.totalElements).toBeGreaterThan(15);
    const found = await world.member.api.get(`/api/workspaces/${W}/datasets?search=ORDERS`);
    const titles = embedded(found.body, 'datasets').map((d: { title: string }) => d.title);
    expect(titles.length).toBeGreaterThan(1);
    for (const d of embedded(found.body, 'datasets')) expect(`${d.title} ${d.alias}`.toLowerCase()).toContain('orders');
    const none = await world.member.api.get(`/api/workspaces/${W}/datasets?search=${encodeURIComponent('%_')}`);
    expect(none.body.page.totalElements).toBe(0);
  });
});

describe('lists (LIST channels)', () => {
  it("shows a private list to its creator only, with containsDataset for the dataset asked about", async () => {
    const dataset = (await get('owner', 'sales/monthly-revenue')).body;
    const url = `/api/workspaces/${W}/channels?type=LIST&dataset=${dataset.id}`;
    const owner = embedded((await world.owner.api.get(url)).body, 'channels');
    const list = owner.find((c: { name: string }) => c.name === DEMO_LIST.name);
    expect(channelSchema.safeParse(list).success).toBe(true);
    expect(list).toMatchObject({ type: 'LIST', scope: 'PROFILE', containsDataset: true, datasetCount: DEMO_LIST.aliases.length, canDelete: true, creator: { name: DEMO.owner.name } });
    expect(hasLink(list, REL.updateChannel)).toBe(true);
    const member = embedded((await world.member.api.get(url)).body, 'channels');
    expect(member.find((c: { name: string }) => c.name === DEMO_LIST.name)).toBeUndefined();
    expectError(await world.member.api.call('PUT', `${linkOf(list, REL.datasets)}/${dataset.id}`), 404);
  });

  it('creates a list through the create channel link, adds and removes a dataset, renames it', async () => {
    const workspace = await world.member.api.get(`/api/workspaces/${W}`);
    const href = linkOf(workspace.body, REL.createChannel);
    expectError(await world.member.api.call('PUT', href, { name: '' }), 400, { name: /./ });
    const created = await world.member.api.call('PUT', href, { name: 'My picks', description: 'for later', type: 'LIST', scope: 'PROFILE' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'My picks', type: 'LIST', scope: 'PROFILE', datasetCount: 0, canDelete: true });
    const dataset = (await get('member', 'support-tickets')).body;
    const item = `${linkOf(created.body, REL.datasets)}/${dataset.id}`;
    expect((await world.member.api.call('PUT', item)).status).toBe(200);
    const listed = embedded((await world.member.api.get(`/api/workspaces/${W}/channels?type=LIST&dataset=${dataset.id}`)).body, 'channels');
    expect(listed.find((c: { id: string }) => c.id === created.body.id)).toMatchObject({ containsDataset: true, datasetCount: 1 });
    const datasets = await world.member.api.get(linkOf(created.body, REL.datasets));
    expect(embedded(datasets.body, 'datasets').map((d: { id: string }) => d.id)).toEqual([dataset.id]);
    expect((await world.member.api.call('DELETE', item)).status).toBe(204);
    const renamed = await world.member.api.call('PUT', linkOf(created.body, REL.updateChannel), { name: 'Renamed picks' });
    expect(renamed.body).toMatchObject({ name: 'Renamed picks', datasetCount: null });
    // The owner (an admin) does not see it: it is private.
    expectError(await world.owner.api.get(`/api/channels/${created.body.id}`), 404);
  });

  it("refuses a dataset of another workspace in a list (404) and another workspace's caller (404, as for no such id)", async () => {
    const workspace = await world.owner.api.get(`/api/workspaces/${W}`);
    const created = await world.owner.api.call('PUT', linkOf(workspace.body, REL.createChannel), { name: 'Owner picks' });
    const sandbox = await world.server.db.selectFrom('datasets').select('id').where('workspace_id', '=', DEMO.sandboxWorkspaceId).executeTakeFirstOrThrow();
    expectError(await world.owner.api.call('PUT', `${linkOf(created.body, REL.datasets)}/${sandbox.id}`), 404);
    expectError(await world.outsider.api.get(linkOf(created.body, REL.datasets)), 404);
    expectError(await world.outsider.api.call('PUT', linkOf(workspace.body, REL.createChannel), { name: 'Intruder' }), 404);
  });

  it('gives a member no update link on a source channel, and refuses the change (403)', async () => {
    const channels = embedded((await world.member.api.get(`/api/workspaces/${W}/channels?type=SOURCE`)).body, 'channels');
    expect(channels.length).toBeGreaterThan(0);
    for (const channel of channels) {
      expect(hasLink(channel, REL.updateChannel)).toBe(false);
      expect(channel.canDelete).toBe(false);
      expect(channel.creator).toBeNull();
      expectError(await world.member.api.call('PUT', `/api/channels/${channel.id}`, { name: 'taken over' }), 403);
    }
  });

  it('lets an admin rename a source channel, but not make it private, delete it or add datasets to it', async () => {
    const [channel] = embedded((await world.owner.api.get(`/api/workspaces/${W}/channels?type=SOURCE`)).body, 'channels');
    expect(hasLink(channel, REL.updateChannel)).toBe(true);
    expect(channel.canDelete).toBe(false);
    const renamed = await world.owner.api.call('PUT', linkOf(channel, REL.updateChannel), { name: `${channel.name} `, description: 'Renamed by an admin' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: channel.id, type: 'SOURCE', scope: 'WORKSPACE', description: 'Renamed by an admin' });
    expectError(await world.owner.api.call('PUT', linkOf(channel, REL.updateChannel), { name: channel.name, scope: 'PROFILE' }), 400, { scope: 'Only a list changes its scope' });
    const dataset = await world.server.db.selectFrom('datasets').select('id').where('workspace_id', '=', W).executeTakeFirstOrThrow();
    expectError(await world.owner.api.call('PUT', `${linkOf(channel, REL.datasets)}/${dataset.id}`), 409);
    const workspace = await world.owner.api.get(`/api/workspaces/${W}`);
    const createHref = linkOf(workspace.body, REL.createChannel).replace(/[^/]+$/, channel.id);
    expectError(await world.owner.api.call('PUT', createHref, { name: 'Hijack' }), 409);
    await world.owner.api.call('PUT', linkOf(channel, REL.updateChannel), { name: channel.name, description: channel.description });
  });
});
