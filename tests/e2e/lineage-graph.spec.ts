import { createRequire } from 'node:module';
import { expect, test, type Locator, type Page } from './fixtures';
import { REL } from '../../src/domain/relations';
import { dataStoresCollectionSchema } from '../../src/domain/resources';
import { DEMO as SEED } from '../../server/seed';
import { datasetLineageGraph, mermaidText } from '../../src/domain/lineageGraph';
import { DATASET_LINEAGE, lineageTable } from '../../src/domain/lineageGraph.fixture';
import { apiCall as call, demoTablesLoaded, DEMO, linkOf, screenshot, signIn } from './support';

// The lineage graph (issue 41, item 2): a member opens Top Customers by Revenue and sees its
// graph from the source through the Demo sales data pipeline and the orders and customers tables to
// the dataset, and draws a column's sources; the owner opens a table in the store browser and sees
// what loaded it and what reads it, on to the demo's dashboard. At 1280 and 375 px: a phone starts on
// the list, and the graph is never wider than the screen.

let storePath = '';

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const { token, workspace } = await demoTablesLoaded(SEED.workspaceId);
  const stores = await call(token, 'GET', linkOf(workspace, REL.datastores));
  const embedded = (dataStoresCollectionSchema.parse(stores.body)._embedded?.datastores ?? []).find((s) => s.managed === true);
  storePath = `/lab/${SEED.workspaceId}/datastores/${embedded!.id}`;
});

/** Nothing inside wider than the element itself (a phone's screen). */
async function expectNoOverflow(element: Locator) {
  expect(await element.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(1);
  const svg = element.locator('svg').first();
  if ((await svg.count()) > 0) expect((await svg.boundingBox())!.width).toBeLessThanOrEqual((await element.boundingBox())!.width + 1);
}

const graphOf = (region: Locator) => region.getByRole('img', { name: /^Lineage graph of / });

async function scrollTo(page: Page, region: Locator) {
  await region.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(100);
}

test("a member sees a dataset's lineage graph and draws a column's sources (1280 and 375)", async ({ page }) => {
  await signIn(page, DEMO.member, `/l/${SEED.workspaceId}/dataset/top-customers`);
  const lineage = page.getByRole('region', { name: 'Lineage' });
  await expect(lineage.getByRole('tab', { name: 'Graph' })).toHaveAttribute('aria-selected', 'true');
  const graph = graphOf(lineage);
  await expect(graph).toHaveAccessibleName(/^Lineage graph of Top Customers by Revenue: \d+ nodes, none marked/);
  // (the demo's dashboard does not show this dataset: the store browser's orders leads to it)
  for (const text of ['tap-demo', 'Demo sales data', 'Last run: Complete', 'orders', 'customers', 'Top Customers by Revenue', 'Fresh']) await expect(graph).toContainText(text);
  await expect(graph).not.toContainText('orders.amount');

  // a column's sources, drawn on demand: revenue ⇐ orders.amount, aggregated
  const revenue = lineage.getByRole('group', { name: 'Columns drawn in the graph' }).getByRole('button', { name: 'revenue', exact: true });
  await revenue.click();
  await expect(revenue).toHaveAttribute('aria-pressed', 'true');
  await expect(graph).toContainText('orders.amount');
  await expect(graph).toContainText('Aggregated');
  await scrollTo(page, lineage);
  await screenshot(page, 'lineage-graph-1280');

  // the list shows the same column opened
  await lineage.getByRole('tab', { name: 'List' }).click();
  await expect(lineage.getByRole('button', { name: /^revenue/ })).toHaveAttribute('aria-expanded', 'true');
  await lineage.getByRole('tab', { name: 'Graph' }).click();

  await page.setViewportSize({ width: 375, height: 812 });
  await scrollTo(page, lineage);
  await expect(graph).toContainText('orders.amount');
  await expectNoOverflow(lineage);
  await screenshot(page, 'lineage-graph-375');

  // a page opened on a phone starts on the list, and offers the graph
  await page.reload();
  const again = page.getByRole('region', { name: 'Lineage' });
  await expect(again.getByRole('tab', { name: 'List' })).toHaveAttribute('aria-selected', 'true');
  await expect(again.getByRole('list', { name: 'Columns' })).toBeVisible();
  await expectNoOverflow(again);
});

test('the owner opens a table in the store browser and sees its lineage (1280 and 375)', async ({ page }) => {
  await signIn(page, DEMO.owner, storePath);
  const orders = page.getByRole('list', { name: 'Store tables' }).getByRole('listitem').filter({ has: page.getByRole('button', { name: 'orders', exact: true }) });
  await orders.getByRole('button', { name: 'orders', exact: true }).click();
  const lineage = orders.getByRole('region', { name: 'Lineage of orders' });
  const graph = graphOf(lineage);
  await expect(graph).toHaveAccessibleName(/^Lineage graph of orders: /);
  for (const text of ['tap-demo', 'Demo sales data', 'Last run: Complete', 'Stream: orders', 'Top Customers by Revenue', 'Dashboard']) await expect(graph).toContainText(text);
  await scrollTo(page, lineage);
  await screenshot(page, 'lineage-store-table-1280');

  await lineage.getByRole('tab', { name: 'List' }).click();
  const list = lineage.getByRole('list', { name: 'Lineage of orders' });
  await expect(list.getByRole('listitem').filter({ hasText: /^PipelineDemo sales data/ })).toContainText('Last run: Complete');
  await expect(list.getByRole('listitem').filter({ hasText: /^Dashboard/ })).toContainText('← ');
  await expect(list.getByRole('listitem').filter({ hasText: /^Tableorders/ })).toContainText('Fresh');
  await expect(list.getByRole('listitem').filter({ hasText: 'Top Customers by Revenue' })).toContainText('← orders');
  // the pick stays for the next table opened
  const customers = page.getByRole('list', { name: 'Store tables' }).getByRole('listitem').filter({ has: page.getByRole('button', { name: 'customers', exact: true }) });
  await customers.getByRole('button', { name: 'customers', exact: true }).click();
  await expect(customers.getByRole('region', { name: 'Lineage of customers' }).getByRole('tab', { name: 'List' })).toHaveAttribute('aria-selected', 'true');
  await customers.getByRole('button', { name: 'customers', exact: true }).click();
  await orders.getByRole('button', { name: 'orders', exact: true }).click();

  await page.setViewportSize({ width: 375, height: 812 });
  await scrollTo(page, lineage);
  await expect(list).toBeVisible();
  await expectNoOverflow(lineage);
  await screenshot(page, 'lineage-store-table-375');
  await lineage.getByRole('tab', { name: 'Graph' }).click();
  await expect(graph).toContainText('Demo sales data');
  await expectNoOverflow(lineage);
  await scrollTo(page, lineage);
  await screenshot(page, 'lineage-store-table-graph-375');
});

test("hostile names are drawn as text by Chromium's mermaid, one node each, marked in words", async ({ page }) => {
  // the graph's text as the views make it, drawn by the same mermaid and settings as LineageDiagram
  const evil = 'or"] --> x%%<img src=x onerror="window.pwned=1">\nclick t0 call alert()';
  const lineage = {
    ...DATASET_LINEAGE,
    title: 'T <b>bold</b> & #quot;',
    tables: [lineageTable(evil, { status: 'failed' as const }), lineageTable('orders')],
    columns: [{ name: 'c"]', kind: 'direct' as const, status: 'failed' as const, sources: [{ table: evil, column: '`x`', kind: 'direct' as const }], unresolved: [] }],
  };
  const graph = datasetLineageGraph(lineage, new Set([0]));
  await page.setContent('<div id="graph"></div>');
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js') });
  const drawn = await page.evaluate(async (text) => {
    const mermaid = (window as unknown as { mermaid: { initialize(c: object): void; render(id: string, text: string): Promise<{ svg: string }> } }).mermaid;
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
    const element = document.getElementById('graph')!;
    element.innerHTML = (await mermaid.render('lineage', text)).svg;
    await new Promise((resolve) => setTimeout(resolve, 200));
    return {
      texts: [...element.querySelectorAll('g.node')].map((n) => (n.textContent ?? '').replace(/\s+/g, ' ').trim()),
      marked: element.querySelectorAll('g.node.marked').length,
      injected: element.querySelectorAll('img, script, a, [onerror]').length,
      pwned: (window as unknown as { pwned?: number }).pwned ?? null,
    };
  }, mermaidText(graph));
  expect(drawn.injected).toBe(0);
  expect(drawn.pwned).toBeNull();
  expect(drawn.texts).toHaveLength(graph.nodes.length);
  expect(drawn.marked).toBe(graph.nodes.filter((n) => n.marked).length);
  // the table's node and its column's, the name as it is (its line break drawn as none)
  expect(drawn.texts.filter((t) => t.includes('or"] --> x%%<img src=x onerror="window.pwned=1">') && t.includes('click t0 call alert()'))).toHaveLength(2);
  expect(drawn.texts.some((t) => t.includes('T <b>bold</b> & #quot;') && t.includes('Marked: upstream failed or stale'))).toBe(true);
  await screenshot(page, 'lineage-graph-hostile-1280');
});
