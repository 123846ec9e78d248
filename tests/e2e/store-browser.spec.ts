import { expect, test, type Page } from './fixtures';
import { REL } from '../../src/domain/relations';
import { dataStoresCollectionSchema, storeTablesSchema } from '../../src/domain/resources';
import { DEMO as SEED } from '../../server/seed';
import { apiCall as call, baseUrl, DEMO, linkOf, screenshot, signIn } from './support';

// The store browser (issue 20): on the embedded store's page an admin sees the tables the demo
// pipelines loaded, with their columns, rows and the run that loaded them, and 20 rows of one;
// beside a dataset's SQL the same tables insert names, and the SQL completes them as it is typed.

async function ownerToken(): Promise<string> {
  const { signIn: signInByHttp } = await import('../support/auth');
  return (await signInByHttp(baseUrl(), DEMO.owner)).accessToken;
}

let storePath = '';

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const token = await ownerToken();
  const workspace = await call(token, 'GET', `/api/workspaces/${SEED.workspaceId}`);
  // the demo pipelines fill the store on the server's first start
  await expect
    .poll(async () => storeTablesSchema.parse((await call(token, 'GET', linkOf(workspace.body, REL.tables))).body).tables.map((t) => t.name), { timeout: 120_000, intervals: [1_000, 2_000, 5_000] })
    .toEqual(expect.arrayContaining(['orders', 'customers', 'web_sessions']));
  const stores = await call(token, 'GET', linkOf(workspace.body, REL.datastores));
  const embedded = (dataStoresCollectionSchema.parse(stores.body)._embedded?.datastores ?? []).find((s) => s.managed === true);
  storePath = `/lab/${SEED.workspaceId}/datastores/${embedded!.id}`;
});

const tableItem = (page: Page, name: string) => page.getByRole('list', { name: 'Store tables' }).getByRole('listitem').filter({ has: page.getByRole('button', { name, exact: true }) });

test("the embedded store's page lists its tables, and opens one on its columns and first rows (1280 and 375)", async ({ page }) => {
  await signIn(page, DEMO.owner, storePath);
  const tables = page.getByRole('group', { name: 'Tables' });
  const orders = tableItem(page, 'orders');
  await expect(orders).toBeVisible();
  await expect(orders).toContainText(/\d[\d,]* rows/);
  // the run that last loaded it, linked to its pipeline
  await expect(orders.getByRole('link').filter({ hasNotText: 'Chart' })).toHaveAttribute('href', new RegExp(`/lab/${SEED.workspaceId}/pipelines/`));
  // and its first chart (issue 38)
  await expect(orders.getByRole('link', { name: 'Build a chart of orders' })).toHaveAttribute('href', `/lab/${SEED.workspaceId}/datasets?edit=new&table=orders`);

  await orders.getByRole('button', { name: 'orders', exact: true }).click();
  await expect(orders.getByRole('button', { name: 'orders', exact: true })).toHaveAttribute('aria-expanded', 'true');
  const columns = orders.getByRole('list', { name: 'Columns of orders' });
  await expect(columns).toContainText('status');
  await expect(columns).toContainText('text');
  const sample = orders.getByRole('table', { name: 'First rows of orders' });
  await expect(sample).toBeVisible();
  await expect(sample.getByRole('row')).toHaveCount(21);
  await screenshot(page, 'store-browser-1280');

  await tables.getByRole('textbox', { name: 'Filter tables and columns' }).fill('landing');
  // web_sessions has landing_page (and so may a table another pipeline loaded); orders has not
  await expect(tableItem(page, 'web_sessions')).toBeVisible();
  await expect(tableItem(page, 'orders')).toHaveCount(0);
  await page.setViewportSize({ width: 375, height: 812 });
  await tables.getByRole('textbox', { name: 'Filter tables and columns' }).fill('');
  await tables.scrollIntoViewIfNeeded();
  await screenshot(page, 'store-browser-375');
});

test('beside the SQL: names complete as they are typed, and a table inserts from the list (1280 and 375)', async ({ page }) => {
  await signIn(page, DEMO.owner, `/lab/${SEED.workspaceId}/datasets?edit=new`);
  const editor = page.getByRole('dialog');
  const query = editor.getByRole('textbox', { name: /^Query/ });
  await expect(editor.getByRole('region', { name: 'Tables in the store' }).getByRole('list', { name: 'Store tables' })).toBeVisible();

  await query.click();
  await page.keyboard.type('SELECT * FROM ord');
  const suggestions = editor.getByRole('listbox', { name: 'Tables and columns' });
  await expect(suggestions.getByRole('option').first()).toHaveText(/^orders/);
  // the list opens in the drawer's view, not under its footer (issue 38)
  await expect(suggestions).toBeInViewport({ ratio: 1 });
  await screenshot(page, 'store-browser-autocomplete-1280');
  await page.keyboard.press('Enter');
  await expect(query).toHaveValue('SELECT * FROM orders');
  await expect(suggestions).toHaveCount(0);

  await page.keyboard.type(' WHERE stat');
  await expect(suggestions.getByRole('option', { name: /^status/ })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(query).toHaveValue('SELECT * FROM orders WHERE status');
  // Esc closes the suggestions, not the editor
  await page.keyboard.type(' = cu');
  await page.keyboard.press('Escape');
  await expect(editor).toBeVisible();

  await query.fill('SELECT count(*) FROM');
  await query.press('End');
  const customers = editor.getByRole('region', { name: 'Tables in the store' }).getByRole('listitem').filter({ has: page.getByRole('button', { name: 'customers', exact: true }) });
  await customers.getByRole('button', { name: 'Insert customers into the query' }).click();
  await expect(query).toHaveValue('SELECT count(*) FROM customers');
  await page.setViewportSize({ width: 375, height: 812 });
  await editor.getByRole('region', { name: 'Tables in the store' }).scrollIntoViewIfNeeded();
  await screenshot(page, 'store-browser-editor-375');
  // on a phone too the suggestions open where they can be read
  await query.press('End');
  await page.keyboard.type(' JOIN ord');
  await expect(suggestions).toBeInViewport({ ratio: 1 });
  await screenshot(page, 'store-browser-autocomplete-375');
});
