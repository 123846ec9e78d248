import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../server/seed';
import { DEMO_LIST } from '../../server/seed/showcase';
import { REL } from '../../src/domain/relations';
import { channelSchema, datasetSchema, notificationSchema } from '../../src/domain/resources';
import { embedded, expectError, hasLink, linkOf } from './helpers/http';
import { login, startWorld, type Person, type World } from './helpers/world';

// Starred, News and the library's lists (spec 002 §2, §7): each link both ways (offered → allowed,
// absent → 403), bad input (400), another workspace's caller (403), and a private list of one member
// invisible to another in every listing and search.

/* eslint-disable @typescript-eslint/no-unsafe-return -- response bodies are read loosely and asserted field by field */

let world: World;
const W = DEMO.workspaceId;

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
}, 120_000);
afterAll(() => world?.close());

const workspace = async (who: Person) => (await who.api.get(`/api/workspaces/${W}`)).body;
const dataset = async (who: Person, alias: string) => (await who.api.get(`/api/workspaces/${W}/datasets/${alias}`)).body;
const names = (items: { name: string }[]) => items.map((c) => c.name);

describe('Starred (GET liked)', () => {
  it('lists the caller’s own stars of this workspace, the latest first, and nobody else’s', async () => {
    const liked = linkOf(await workspace(world.member), REL.liked);
    expect(embedded((await world.member.api.get(liked)).body, 'datasets')).toEqual([]);
    const first = await dataset(world.member, 'top-customers');
    const second = await dataset(world.member, 'support-tickets');
    await world.member.api.call('PUT', linkOf(first, REL.likeDataset));
    await world.member.api.call('PUT', linkOf(second, REL.likeDataset));
    const answer = await world.member.api.get(liked);
    expect(answer.status).toBe(200);
    const items = embedded(answer.body, 'datasets');
    expect(items.map((d: { id: string }) => d.id)).toEqual([second.id, first.id]);
    expect(datasetSchema.safeParse(items[0]).success).toBe(true);
    expect(answer.body.page.totalElements).toBe(2);
    const owners = embedded((await world.owner.api.get(linkOf(await workspace(world.owner), REL.liked))).body, 'datasets');
    expect(owners.map((d: { id: string }) => d.id)).not.toContain(first.id);
    // unstarred: gone
    await world.member.api.call('DELETE', linkOf(first, REL.likeDataset));
    expect(embedded((await world.member.api.get(liked)).body, 'datasets').map((d: { id: string }) => d.id)).toEqual([second.id]);
  });

  it('refuses another workspace’s caller (403) and bad paging (400)', async () => {
    expectError(await world.outsider.api.get(`/api/workspaces/${W}/liked`), 404);
    expectError(await world.member.api.get(`/api/workspaces/${W}/liked?size=-1`), 400, { size: /./ });
  });
});

describe('News', () => {
  it('holds the caller’s notifications about datasets of the workspace, each with its dataset, and no others', async () => {
    const news = linkOf(await workspace(world.owner), REL.news);
    const answer = await world.owner.api.get(news);
    expect(answer.status).toBe(200);
    const items = embedded(answer.body, 'notifications');
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expect(notificationSchema.safeParse(item).success).toBe(true);
      expect(datasetSchema.safeParse(item._embedded.dataset).success).toBe(true);
      expect(item._embedded.dataset.workspaceId).toBe(W);
    }
    // the seeded JOB_ENDED has no dataset: it stays in the inbox and out of the news
    expect(items.map((n: { type: string }) => n.type)).not.toContain('JOB_ENDED');
    expect(items.map((n: { type: string }) => n.type)).toContain('DATASET_LIKE');
  });

  it('tells an ALL watcher of a star (DATASET_LIKE) once, and not the person who starred', async () => {
    const watched = await dataset(world.owner, 'sales/targets-vs-actuals');
    expect((await world.owner.api.call('POST', linkOf(watched, REL.addSubscription), { type: 'ALL' })).status).toBe(201);
    const newsOf = async (who: Person) =>
      embedded((await who.api.get(`/api/workspaces/${W}/news?size=50`)).body, 'notifications').filter(
        (n: { type: string; _embedded: { dataset: { id: string } } }) => n.type === 'DATASET_LIKE' && n._embedded.dataset.id === watched.id,
      );
    const before = (await newsOf(world.owner)).length;
    const like = linkOf(await dataset(world.member, watched.alias), REL.likeDataset);
    await world.member.api.call('PUT', like);
    await world.member.api.call('PUT', like);
    const after = await newsOf(world.owner);
    expect(after.length).toBe(before + 1);
    expect(after[0]).toMatchObject({ message: `${DEMO.member.name} starred ${watched.title}`, actor: { name: DEMO.member.name }, resolved: false });
    expect(await newsOf(world.member)).toEqual([]);
    // the owner starring it tells nobody: the only watcher is the owner
    await world.owner.api.call('PUT', linkOf(watched, REL.likeDataset));
    expect((await newsOf(world.owner)).length).toBe(before + 1);
    await world.owner.api.call('DELETE', linkOf(await dataset(world.owner, watched.alias), REL.deleteSubscription));
  });

  it('filters by in:{channel} and lists the channels of the caller’s news', async () => {
    const w = await workspace(world.owner);
    const channels = embedded((await world.owner.api.get(linkOf(w, REL.newsChannels))).body, 'channels');
    for (const c of channels) expect(channelSchema.safeParse(c).success).toBe(true);
    // the seeded like is about Monthly Revenue: its Sales channel and the owner's private list
    expect(names(channels)).toEqual(expect.arrayContaining(['Sales', DEMO_LIST.name]));
    const sales = embedded((await world.owner.api.get(`/api/workspaces/${W}/news?q=in:sales`)).body, 'notifications');
    expect(sales.length).toBeGreaterThan(0);
    const list = embedded((await world.owner.api.get(`/api/workspaces/${W}/news?q=${encodeURIComponent(`in:${DEMO_LIST.name.toLowerCase().replace(/ /g, '-')}`)}`)).body, 'notifications');
    expect(list.map((n: { _embedded: { dataset: { alias: string } } }) => n._embedded.dataset.alias)).toContain('sales/monthly-revenue');
    const none = await world.owner.api.get(`/api/workspaces/${W}/news?q=in:no-such-channel`);
    expect(none.body.page.totalElements).toBe(0);
  });

  it('refuses another workspace’s caller (403) and an overlong query (400)', async () => {
    for (const part of ['news', 'news/channels']) expectError(await world.outsider.api.get(`/api/workspaces/${W}/${part}`), 404);
    expectError(await world.member.api.get(`/api/workspaces/${W}/news?q=${'x'.repeat(1_001)}`), 400, { q: 'must be at most 1000 characters' });
  });
});

describe('a private list', () => {
  it('is invisible to another member in every listing and search, until its creator makes it public', async () => {
    const ownerWs = await workspace(world.owner);
    const tickets = await dataset(world.owner, 'support-tickets');
    const created = await world.owner.api.call('PUT', linkOf(ownerWs, REL.createChannel), { name: 'Secret picks', description: 'mine', type: 'LIST', scope: 'PROFILE' });
    expect(created.status).toBe(201);
    const list = created.body;
    expect(hasLink(list, REL.addWorkspaceScope)).toBe(true);
    expect(hasLink(list, REL.withdrawWorkspaceScope)).toBe(false);
    expect((await world.owner.api.call('PUT', `${linkOf(list, REL.datasets)}/${tickets.id}`)).status).toBe(200);
    // The member has news about Support Tickets (seeded): the list holds it, yet must not show.
    const member = world.member.api;
    const hidden = async () => {
      for (const query of ['', '?type=LIST', '?type=list', `?dataset=${tickets.id}`, '?containsDataset=true', '?size=200']) {
        expect(names(embedded((await member.get(`/api/workspaces/${W}/channels${query}`)).body, 'channels'))).not.toContain('Secret picks');
      }
      expect(names(embedded((await member.get(`/api/workspaces/${W}/news/channels`)).body, 'channels'))).not.toContain('Secret picks');
      expect((await member.get(`/api/workspaces/${W}/news?q=in:secret-picks`)).body.page.totalElements).toBe(0);
      expect((await member.get(`/api/workspaces/${W}/search?q=in:secret-picks`)).body?.page?.totalElements ?? 0).toBe(0);
      expect((await member.get(`/api/workspaces/${W}/search?q=${encodeURIComponent('secret picks')}`)).body?.page?.totalElements ?? 0).toBe(0);
      expectError(await member.get(`/api/channels/${list.id}`), 404);
      expectError(await member.get(`/api/channels/${list.id}/datasets`), 404);
      expectError(await member.call('DELETE', `/api/channels/${list.id}`), 404);
      expectError(await member.call('PUT', `/api/channels/${list.id}/scope/workspace`), 404);
      expectError(await member.call('PUT', `/api/channels/${list.id}/datasets/${tickets.id}`), 404);
    };
    await hidden();

    // public: the member sees it, its datasets and their news by it, with no way to change it
    const shared = await world.owner.api.call('PUT', linkOf(list, REL.addWorkspaceScope));
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({ scope: 'WORKSPACE' });
    expect(hasLink(shared.body, REL.withdrawWorkspaceScope)).toBe(true);
    const seen = embedded((await member.get(`/api/workspaces/${W}/channels?type=LIST`)).body, 'channels').find((c: { id: string }) => c.id === list.id);
    expect(seen).toMatchObject({ canDelete: false, scope: 'WORKSPACE', creator: null });
    for (const rel of [REL.updateChannel, REL.deleteChannel, REL.addWorkspaceScope, REL.withdrawWorkspaceScope]) expect(hasLink(seen, rel), rel).toBe(false);
    expect(embedded((await member.get(linkOf(seen, REL.datasets))).body, 'datasets').map((d: { id: string }) => d.id)).toEqual([tickets.id]);
    expect(names(embedded((await member.get(`/api/workspaces/${W}/news/channels`)).body, 'channels'))).toContain('Secret picks');
    expect((await member.get(`/api/workspaces/${W}/news?q=in:secret-picks`)).body.page.totalElements).toBeGreaterThan(0);
    expectError(await member.call('PUT', `/api/channels/${list.id}/scope/profile`), 403);
    expectError(await member.call('DELETE', `/api/channels/${list.id}`), 403);

    // private again: hidden again everywhere
    const withdrawn = await world.owner.api.call('PUT', linkOf(shared.body, REL.withdrawWorkspaceScope));
    expect(withdrawn.body).toMatchObject({ scope: 'PROFILE' });
    await hidden();
    expectError(await world.owner.api.call('PUT', `/api/channels/${list.id}/scope/profile`), 403);

    // deleted by its creator: 204, then gone; the dataset stays
    expect((await world.owner.api.call('DELETE', linkOf(withdrawn.body, REL.deleteChannel))).status).toBe(204);
    expectError(await world.owner.api.get(`/api/channels/${list.id}`), 404);
    expect((await world.owner.api.get(`/api/datasets/${tickets.id}`)).status).toBe(200);
  });

  it('changes scope only by its creator: an admin may delete a member’s public list but not toggle it', async () => {
    const created = await world.member.api.call('PUT', linkOf(await workspace(world.member), REL.createChannel), { name: 'Team picks', type: 'LIST', scope: 'WORKSPACE' });
    expect(created.body).toMatchObject({ scope: 'WORKSPACE', canDelete: true });
    const asOwner = embedded((await world.owner.api.get(`/api/workspaces/${W}/channels?type=LIST`)).body, 'channels').find((c: { id: string }) => c.id === created.body.id);
    expect(asOwner).toMatchObject({ canDelete: true, creator: { name: DEMO.member.name } });
    expect(hasLink(asOwner, REL.withdrawWorkspaceScope)).toBe(false);
    expectError(await world.owner.api.call('PUT', `/api/channels/${created.body.id}/scope/profile`), 403);
    expectError(await world.owner.api.call('PUT', linkOf(asOwner, REL.updateChannel), { name: 'Team picks', scope: 'PROFILE' }), 400, { scope: 'Only the creator of a list changes its scope' });
    expectError(await world.outsider.api.call('DELETE', `/api/channels/${created.body.id}`), 404);
    expect((await world.owner.api.call('DELETE', linkOf(asOwner, REL.deleteChannel))).status).toBe(204);
  });

  it('offers no delete or scope link on a source channel, and refuses them (403)', async () => {
    const [source] = embedded((await world.owner.api.get(`/api/workspaces/${W}/channels?type=SOURCE`)).body, 'channels');
    for (const rel of [REL.deleteChannel, REL.addWorkspaceScope, REL.withdrawWorkspaceScope]) expect(hasLink(source, rel), rel).toBe(false);
    expectError(await world.owner.api.call('DELETE', `/api/channels/${source.id}`), 403);
    expectError(await world.owner.api.call('PUT', `/api/channels/${source.id}/scope/profile`), 403);
  });
});
