import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetsCollectionSchema } from '../../src/domain/resources';
import { DEMO } from '../../server/seed';
import { DEMO_LIST } from '../../server/seed/showcase';
import { expectError } from './helpers/http';
import { login, startWorld, type World } from './helpers/world';

// Search as people trust it (issue 11): a table of queries with the dataset that must come first,
// over datasets published for the purpose into a workspace of their own.

let world: World;
const W = `/api/workspaces/${DEMO.sandboxWorkspaceId}`;

const CATALOGUE = [
  { title: 'Sales', description: 'All sales, by day.', tags: ['finance'] },
  { title: 'Sale Items', description: 'Items on sale this week.' },
  { title: 'Salse Forecast', description: 'A forecast spelt by a hurried analyst.' },
  { title: 'Revenue', alias: 'finance/revenue', description: 'Recognised revenue.', tags: ['kpi'] },
  { title: 'Revenue by Region', description: 'Where the revenue comes from.' },
  { title: 'Quarterly Results', description: 'Revenue, costs and margin for each quarter.' },
  { title: 'Churn', description: 'Customers who left.', tags: ['customer health'] },
  { title: 'Customer Lifetime Value', description: 'What a customer is worth over time; churn lowers it.' },
  { title: 'Newsletter Subscribers', description: 'Who reads the newsletter.' },
  { title: 'Orders', alias: 'ops/orders', description: 'Every order placed.' },
  { title: 'Warehouse Stock', description: 'Pallets per warehouse.', tags: ['operations'] },
  { title: '100% match_rate \\ review', description: 'A title with symbols in it.' },
];

type Page = { status: number; body: { _embedded?: { datasets: { title: string; matches?: { field: string; term: string; word: string; kind: string; edits: number; snippet: string; ranges: { start: number; end: number }[] }[] }[] }; page: { totalElements: number } } };
const search = (q: string, who: 'owner' | 'member' = 'owner'): Promise<Page> => world[who].api.get(`${W}/search?q=${encodeURIComponent(q)}&size=20`);
const titles = (page: Page) => (page.body._embedded?.datasets ?? []).map((d) => d.title);

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
  for (const dataset of CATALOGUE) {
    const created = await world.owner.api.call('POST', `${W}/datasets`, dataset);
    expect(created.status).toBe(201);
  }
});
afterAll(async () => {
  await world?.close();
});

describe('GET /workspaces/{id}/search: what comes first', () => {
  it.each([
    ['sales', 'Sales'], // exact title beats the fuzzy 'Salse' and the prefix 'Sale Items'
    ['sale', 'Sale Items'], // title beginning beats the fuzzy 'Sales' word
    ['salse', 'Salse Forecast'],
    ['revenue', 'Revenue'], // exact title beats a title beginning and description words
    ['Revenue by region', 'Revenue by Region'],
    ['revenue by', 'Revenue by Region'],
    ['finance/revenue', 'Revenue'], // the alias, exactly
    ['ops orders', 'Orders'],
    ['revneue', 'Revenue'], // a swap of two letters is one edit
    ['sbuscirbers', 'Newsletter Subscribers'], // two swaps: two edits as Elasticsearch counts them
    ['newslettr subscriber', 'Newsletter Subscribers'],
    ['costs margin', 'Quarterly Results'],
    ['churn', 'Churn'], // the title before the description that mentions it
    ['custmer lifetime', 'Customer Lifetime Value'],
    ['warehose', 'Warehouse Stock'],
    ['tag:customer-health', 'Churn'],
    ['tag:Customer-Health', 'Churn'],
    ['tag:kpi revenue', 'Revenue'],
    ['"Warehouse Stock"', 'Warehouse Stock'],
    ['warehouse+stock', 'Warehouse Stock'],
  ])('%j → %j', async (q, first) => {
    const answer = await search(q);
    expect(answer.status).toBe(200);
    expect(datasetsCollectionSchema.safeParse(answer.body).success).toBe(true);
    expect(titles(answer)[0]).toBe(first);
  });

  it('finds nothing for words no dataset holds, and three edits are too many', async () => {
    expect((await search('zzzzqqq')).body.page.totalElements).toBe(0);
    expect((await search('rvneeu')).body.page.totalElements).toBe(0);
    expect((await search('tag:no-such-tag')).body.page.totalElements).toBe(0);
    expect((await search('churn tag:finance')).body.page.totalElements).toBe(0);
  });

  it('says why each result matched: field, term, word, how, and where in a snippet', async () => {
    const [revenue] = (await search('revneue')).body._embedded?.datasets ?? [];
    expect(revenue?.matches?.[0]).toEqual({ field: 'title', term: 'revneue', word: 'revenue', kind: 'fuzzy', edits: 1, snippet: 'Revenue', ranges: [{ start: 0, end: 7 }] });
    const results = (await search('margin')).body._embedded?.datasets ?? [];
    const quarterly = results.find((d) => d.title === 'Quarterly Results');
    expect(quarterly?.matches).toEqual([
      { field: 'description', term: 'margin', word: 'margin', kind: 'exact', edits: 0, snippet: 'Revenue, costs and margin for each quarter.', ranges: [{ start: 19, end: 25 }] },
    ]);
    const tagged = (await search('operations')).body._embedded?.datasets ?? [];
    expect(tagged[0]?.matches?.[0]).toMatchObject({ field: 'tags', word: 'operations', snippet: 'operations' });
  });

  it('keeps the index current: an edited title is found by its new words only', async () => {
    const created = await world.owner.api.call('POST', `${W}/datasets`, { title: 'Zebra crossings' });
    expect(titles(await search('zebra'))).toEqual(['Zebra crossings']);
    const patched = await world.owner.api.call('PATCH', `/api/datasets/${created.body.id}`, { title: 'Pelican crossings', tags: ['roads'] });
    expect(patched.status).toBe(200);
    expect((await search('zebra')).body.page.totalElements).toBe(0);
    expect(titles(await search('pelican tag:roads'))).toEqual(['Pelican crossings']);
    // two words go through the index of each dataset's words, rewritten by the same trigger
    expect(titles(await search('pelican crossings'))).toEqual(['Pelican crossings']);
    expect((await search('zebra crossings')).body.page.totalElements).toBe(0);
    expect((await world.owner.api.call('DELETE', `/api/datasets/${created.body.id}`)).status).toBe(204);
    expect((await search('pelican')).body.page.totalElements).toBe(0);
  });
});

describe('GET /workspaces/{id}/search: hostile queries answer normally', () => {
  const HOSTILE = ['%', '_', '\\', '"', "'", '%_\\', "' OR 1=1 --", 'tag:%', 'in:_', 'tag:\\', '😀', 'ﬀ İ ß', 'a'.repeat(10_240), 'sales '.repeat(1_707)];
  it.each(HOSTILE.map((q, index) => [index, q] as const))('hostile query %i', async (_, q) => {
    const answer = await search(q);
    expect(answer.status).toBe(200);
    expect(datasetsCollectionSchema.safeParse(answer.body).success).toBe(true);
  });

  it('a literal % or _ matches no dataset by wildcard', async () => {
    expect((await search('tag:%')).body.page.totalElements).toBe(0);
    expect((await search('in:_')).body.page.totalElements).toBe(0);
  });

  it('refuses more than 12,000 characters and bad paging with field errors', async () => {
    expectError(await world.owner.api.get(`${W}/search?q=${'a'.repeat(12_001)}`), 400, { q: /12000/ });
    expectError(await world.owner.api.get(`${W}/search?q=a&size=-1`), 400, { size: /.+/ });
  });
});

describe('GET /workspaces/{id}/search: who may search what', () => {
  it("answers 403 to another workspace's caller, 404 for no workspace", async () => {
    expectError(await world.member.api.get(`${W}/search?q=sales`), 404);
    expectError(await world.outsider.api.get(`/api/workspaces/${DEMO.workspaceId}/search?q=sales`), 404);
    expectError(await world.owner.api.get(`/api/workspaces/${crypto.randomUUID()}/search?q=sales`), 404);
  });

  it("in: a private list finds its datasets for its creator only", async () => {
    const demo = `/api/workspaces/${DEMO.workspaceId}/search?size=50&q=${encodeURIComponent(`in:${DEMO_LIST.name.replace(/\s+/g, '-')}`)}`;
    const owner = await world.owner.api.get(demo);
    expect(owner.body.page.totalElements).toBe(DEMO_LIST.aliases.length);
    const member = await world.member.api.get(demo);
    expect(member.status).toBe(200);
    expect(member.body.page.totalElements).toBe(0);
  });

  it('pages: a page past the end still counts all matches', async () => {
    const past = await world.owner.api.get(`${W}/search?q=revenue&size=2&page=9`);
    expect(past.status).toBe(200);
    expect(past.body.page.totalElements).toBe(3);
    expect(past.body._embedded?.datasets ?? []).toEqual([]);
  });
});
