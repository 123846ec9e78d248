import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { datasetSchema, datasetsCollectionSchema } from '../../src/domain/resources';
import { DEMO } from '../../server/seed';
import { DEMO_DATASETS } from '../../server/seed/demoContent';
import { DEMO_SHOWCASE } from '../../server/seed/showcase';

/** Every dataset of the demo workspace: the catalogue and one per visualisation kind. */
const DEMO_ALL = [...DEMO_DATASETS, ...DEMO_SHOWCASE];
import { embedded, expectError, hasLink, linkOf } from './helpers/http';
import { login, startWorld, type World } from './helpers/world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
});
afterAll(async () => {
  await world?.close();
});

const ws = `/api/workspaces/${DEMO.workspaceId}`;
const sandbox = `/api/workspaces/${DEMO.sandboxWorkspaceId}`;

const titles = (body: { _embedded: { datasets: { title: string }[] } }) => body._embedded.datasets.map((d) => d.title);

async function search(q: string, extra = ''): Promise<{ status: number; body: { _embedded: { datasets: { title: string }[] }; page: { totalElements: number } } }> {
  return world.member.api.get(`${ws}/search?q=${encodeURIComponent(q)}${extra}`);
}

describe('GET /api/workspaces/{id}/feed', () => {
  it('pages the datasets, newest published first, with tags, source and links', async () => {
    const workspace = await world.member.api.get(ws);
    const answer = await world.member.api.get(`${linkOf(workspace.body, REL.feed)}?page=0&size=10`);
    expect(answer.status).toBe(200);
    expect(datasetsCollectionSchema.safeParse(answer.body).success).toBe(true);
    const expected = [...DEMO_ALL].sort((a, b) => a.age - b.age).map((d) => d.title);
    expect(titles(answer.body)).toEqual(expected.slice(0, 10));
    expect(answer.body.page).toEqual({ size: 10, totalElements: DEMO_ALL.length, totalPages: Math.ceil(DEMO_ALL.length / 10), number: 0 });

    const revenue = embedded(answer.body, 'datasets').find((d: { alias: string }) => d.alias === 'sales/monthly-revenue');
    expect(datasetSchema.safeParse(revenue).success).toBe(true);
    expect((revenue.tags as { name: string }[]).map((t) => t.name).sort()).toEqual(['kpi', 'revenue', 'sales']);
    expect(revenue._embedded.source).toMatchObject({ name: 'Sales', description: expect.any(String) });
    expect(JSON.parse(revenue.visualisation)).toEqual({ 'chartjs-chart': { chartType: 'bar' } });
    // its data comes from its query over the store (the rows stay for the datasets without one)
    expect(revenue.query).toMatch(/FROM orders/);
    expect(revenue.rawData).toBeNull();
    expect(linkOf(revenue, REL.self)).toBe(`${world.baseUrl}/api/datasets/${revenue.id}`);
    expect(hasLink(revenue, REL.data)).toBe(true);

    const second = await world.member.api.get(`${ws}/feed?page=1&size=3`);
    expect(titles(second.body)).toEqual(expected.slice(3, 6));
    expect(hasLink(second.body, 'next') && hasLink(second.body, 'prev')).toBe(true);
  });

  it('answers 404 outside the workspace (as for none), 404 for none, 400 for bad paging, 401 without a token', async () => {
    expectError(await world.member.api.get(`${sandbox}/feed`), 404);
    expectError(await world.outsider.api.get(`${ws}/feed`), 404);
    expectError(await world.member.api.get(`/api/workspaces/${crypto.randomUUID()}/feed`), 404);
    expectError(await world.member.api.get(`${ws}/feed?size=-4`), 400, { size: /.+/ });
    expectError(await world.anonymous.get(`${ws}/feed`), 401);
  });
});

describe('GET /api/workspaces/{id}/search', () => {
  it('finds by title, description, questions and tags, forgiving typos within the allowed edits', async () => {
    expect(titles((await search('revenue')).body)).toEqual(expect.arrayContaining(['Monthly Revenue', 'Top Customers by Revenue']));
    expect(titles((await search('revenu')).body)[0]).toMatch(/Revenue/);
    expect(titles((await search('revneue')).body)).toContain('Monthly Revenue');
    expect(titles((await search('newsleter subscribers')).body)).toEqual(['Newsletter Subscribers']);
    expect(titles((await search('urgent tickets')).body)).toEqual(['Support Tickets by Priority']);
    expect(titles((await search('ship')).body)).toContain('Order Fulfilment Time');
  });

  it('strips quotes and ignores case and stop words', async () => {
    expect(titles((await search('"Monthly Revenue"')).body)[0]).toBe('Monthly Revenue');
    expect(titles((await search('the revenue of the month')).body)[0]).toBe('Monthly Revenue');
  });

  it('filters by tag: and in: (channel)', async () => {
    expect(titles((await search('tag:kpi')).body)).toEqual(['Monthly Revenue']);
    const marketing = DEMO_ALL.filter((d) => d.channel === 'Marketing').map((d) => d.title);
    expect(titles((await world.member.api.get(`${ws}/search?q=in:marketing&size=20`)).body).sort()).toEqual(marketing.sort());
    expect(titles((await search('in:marketing growth')).body)).toEqual(['Newsletter Subscribers']);
    expect(titles((await search('tag:revenue in:sales customers')).body)).toEqual(['Top Customers by Revenue']);
    expect((await search('tag:no-such-tag')).body.page.totalElements).toBe(0);
  });

  it('finds nothing for nonsense, everything for an empty query, and pages the results', async () => {
    const nothing = await search('zzzz qqqq');
    expect(nothing.status).toBe(200);
    expect(nothing.body._embedded.datasets).toEqual([]);
    expect(nothing.body.page.totalElements).toBe(0);
    expect((await search('')).body.page.totalElements).toBe(DEMO_ALL.length);
    const paged = await search('revenue', '&size=1&page=1');
    expect(paged.body._embedded.datasets).toHaveLength(1);
    expect(paged.body.page.totalElements).toBeGreaterThanOrEqual(2);
  });

  it('never returns datasets of another workspace', async () => {
    expect((await world.owner.api.get(`${ws}/search?q=checkout`)).body.page.totalElements).toBe(0);
    expect(titles((await world.owner.api.get(`${sandbox}/search?q=checkout`)).body)).toEqual(['A/B Test Results']);
  });

  it('answers 404 outside the workspace (as for none), 400 for an overlong query, 401 without a token', async () => {
    expectError(await world.member.api.get(`${sandbox}/search?q=test`), 404);
    expectError(await world.member.api.get(`${ws}/search?q=${'a'.repeat(12_001)}`), 400, { q: /12000/ });
    expectError(await world.anonymous.get(`${ws}/search?q=revenue`), 401);
  });
});

describe('GET /api/workspaces/{id}/datasets/{idOrAlias}', () => {
  it('finds a dataset by an alias containing a slash, and by id', async () => {
    const byAlias = await world.member.api.get(`${ws}/datasets/sales/monthly-revenue`);
    expect(byAlias.status).toBe(200);
    expect(byAlias.body).toMatchObject({ alias: 'sales/monthly-revenue', title: 'Monthly Revenue', descriptionContentType: 'text/markdown', viewCount: 0, likeCount: 0 });
    const byId = await world.member.api.get(`${ws}/datasets/${byAlias.body.id}`);
    expect(byId.body.alias).toBe('sales/monthly-revenue');
  });

  it("answers 404 for unknown ones and for another workspace's, 403 outside the workspace, 401 without a token", async () => {
    expectError(await world.member.api.get(`${ws}/datasets/sales/no-such-thing`), 404);
    expectError(await world.owner.api.get(`${ws}/datasets/ab-test-results`), 404);
    expectError(await world.member.api.get(`${sandbox}/datasets/ab-test-results`), 404);
    expectError(await world.anonymous.get(`${ws}/datasets/sales/monthly-revenue`), 401);
  });
});

describe('GET /api/datasets/{id}', () => {
  it("reads a dataset of the caller's workspace, and refuses one of another (403)", async () => {
    const revenue = await world.member.api.get(`${ws}/datasets/sales/monthly-revenue`);
    const answer = await world.member.api.get(linkOf(revenue.body, REL.self));
    expect(answer.status).toBe(200);
    expect(answer.body.id).toBe(revenue.body.id);

    const sandboxDataset = await world.owner.api.get(`${sandbox}/datasets/ab-test-results`);
    expectError(await world.member.api.get(`/api/datasets/${sandboxDataset.body.id}`), 404);
    expectError(await world.member.api.get(`/api/datasets/${crypto.randomUUID()}`), 404);
    expectError(await world.member.api.get('/api/datasets/not-an-id'), 404);
    expectError(await world.anonymous.get(`/api/datasets/${revenue.body.id}`), 401);
  });

  it("offers 'data' for a query or rows, not for a diagram's text (refused if asked anyway)", async () => {
    const diagram = await world.member.api.get(`${ws}/datasets/operations/data-flow`);
    expect(diagram.body.rawData).toMatch(/^flowchart/);
    expect(hasLink(diagram.body, REL.data)).toBe(false);
    expectError(await world.member.api.get(`/api/datasets/${diagram.body.id}/data`), 403);
    const rows = await world.member.api.get(`${ws}/datasets/support-tickets`);
    expect(hasLink(rows.body, REL.data)).toBe(true);
  });
});

describe('GET /api/workspaces/{id}/tags', () => {
  it('lists the tags of the workspace with their usage', async () => {
    const workspace = await world.member.api.get(ws);
    const answer = await world.member.api.get(linkOf(workspace.body, 'tags'));
    expect(answer.status).toBe(200);
    const tags = answer.body._embedded.tags as { id: string; name: string; usage: number }[];
    const usage = new Map<string, number>();
    for (const d of DEMO_ALL) for (const tag of d.tags) usage.set(tag, (usage.get(tag) ?? 0) + 1);
    const top = Math.max(...usage.values());
    expect(tags[0]?.usage).toBe(top);
    expect(usage.get(tags[0]?.name ?? '')).toBe(top);
    expect(tags.map((t) => t.name)).not.toContain('checkout');
    expect(new Set(tags.map((t) => t.id)).size).toBe(tags.length);
  });

  it('answers 404 outside the workspace (as for none), 404 for none, 401 without a token', async () => {
    expectError(await world.member.api.get(`${sandbox}/tags`), 404);
    expectError(await world.member.api.get(`/api/workspaces/${crypto.randomUUID()}/tags`), 404);
    expectError(await world.anonymous.get(`${ws}/tags`), 401);
  });
});
