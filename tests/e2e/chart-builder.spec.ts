import { expect, test, type Locator, type Page } from './fixtures';
import { REL } from '../../src/domain/relations';
import { DEMO as SEED } from '../../server/seed';
import { apiCall as call, baseUrl, DEMO, linkOf, screenshot, signIn } from './support';

// The chart builder (issue 20): an admin publishes a bar chart over the demo orders by picking a
// chart type, columns, a label and a colour — never typing JSON — and finds it drawn on the
// dataset page with the right labels and numbers. Experts' JSON edits show in the builder, and
// JSON it cannot read is left alone. Everything runs against the real server and store.

const LIST = `/lab/${SEED.workspaceId}/datasets`;
const QUERY = 'select status, count(*)::int as orders from orders group by status order by status';

async function ownerToken(): Promise<string> {
  const { signIn: signInByHttp } = await import('../support/auth');
  return (await signInByHttp(baseUrl(), DEMO.owner)).accessToken;
}

/** The orders by status as the store answers them (through the same preview the editor uses). */
async function ordersByStatus(): Promise<{ status: string; orders: number }[]> {
  const token = await ownerToken();
  const workspace = await call(token, 'GET', `/api/workspaces/${SEED.workspaceId}`);
  const preview = linkOf(workspace.body, REL.previewDataset);
  let answer: { status: number; body: unknown } = { status: 0, body: null };
  // the demo pipelines fill the store on the server's first start
  await expect
    .poll(async () => (answer = await call(token, 'POST', preview, { query: QUERY })).status, { timeout: 120_000, intervals: [1_000, 2_000, 5_000] })
    .toBe(200);
  return (answer.body as { rows: { status: string; orders: number }[] }).rows;
}

/** Picks an option of a Fluent dropdown by mouse. */
async function pick(scope: Locator, page: Page, combobox: string, option: string) {
  await scope.getByRole('combobox', { name: combobox }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Toggles a column of a multiselect dropdown (Fluent lists them as checkable menu items) and closes it. */
async function toggleColumn(scope: Locator, page: Page, combobox: string, column: string) {
  await scope.getByRole('combobox', { name: combobox }).click();
  await page.getByRole('menuitemcheckbox', { name: new RegExp(`^${column}`) }).click();
  await page.keyboard.press('Escape');
}

const jsonOf = async (editor: Locator, label: RegExp): Promise<unknown> => JSON.parse(await editor.getByRole('textbox', { name: label }).inputValue()) as unknown;

const toast = (page: Page, text: string) => page.locator('.fui-ToastTitle', { hasText: text });

let expected: { status: string; orders: number }[] = [];

test.beforeAll(async () => {
  test.setTimeout(300_000);
  expected = await ordersByStatus();
  expect(expected.length).toBeGreaterThan(1);
});

test('an admin builds a bar chart without typing JSON, publishes it, and the dataset page draws it', async ({ page }) => {
  test.setTimeout(300_000);
  const stamp = String(Date.now());
  const title = `Orders by status, built ${stamp}`;
  const alias = `e2e/built-orders-${stamp}`;
  await signIn(page, DEMO.owner, LIST);
  await page.getByRole('button', { name: 'New dataset' }).click();
  const editor = page.getByRole('dialog');
  await editor.getByRole('textbox', { name: /^Title/ }).fill(title);
  await editor.getByRole('textbox', { name: /^Alias/ }).fill(alias);
  await editor.getByRole('textbox', { name: /^Query/ }).fill(QUERY);
  await expect(editor.getByRole('table', { name: 'Query preview' })).toBeVisible();

  const builder = editor.getByRole('region', { name: 'Chart builder' });
  await expect(builder.getByText('Pick a chart type.')).toBeVisible();
  await pick(builder, page, 'Chart type', 'Bar');
  // the first choice is suggested from the preview: text names the bars, numbers are drawn
  await expect(builder.getByRole('combobox', { name: 'Label columns' })).toHaveText('status');
  await expect(builder.getByRole('combobox', { name: 'Value columns' })).toHaveText('orders');
  // and picked again by hand: no label column, then status back
  await toggleColumn(builder, page, 'Label columns', 'status');
  await expect(builder.getByRole('combobox', { name: 'Label columns' })).toHaveText('Pick columns');
  await toggleColumn(builder, page, 'Label columns', 'status');
  await builder.getByRole('textbox', { name: 'Label for orders' }).fill('Orders placed');
  await pick(builder, page, 'Colour of Orders placed', 'Green');
  await expect(builder.getByRole('combobox', { name: 'Colour of Orders placed' })).toHaveText('Green');
  await expect(builder.getByRole('list', { name: 'What the chart still needs' })).toHaveCount(0);

  // the JSON fields hold what the renderers read, written by the builder
  expect(await jsonOf(editor, /^Visualisation/)).toEqual({ 'chartjs-chart': { chartType: 'bar' } });
  const metadata = (await jsonOf(editor, /^Metadata/)) as { related_table: unknown; palette: number[][] };
  expect(metadata.related_table).toEqual({ columns: [{ name: 'status', label: 'Status' }], aggregates: [{ name: 'orders', label: 'Orders placed' }] });
  expect(metadata.palette[0]).toEqual([16, 124, 16]);
  const chart = editor.getByRole('region', { name: 'Chart preview' });
  await expect(chart.locator('canvas')).toBeVisible();
  await expect(chart.getByText('Chart has no metadata')).toHaveCount(0);
  await builder.scrollIntoViewIfNeeded();
  await screenshot(page, 'chart-builder-editor-1280');
  // at the builder's last pick the chart it draws is still wholly in view beside it (issue 38)
  await builder.getByRole('combobox', { name: 'Colour of Orders placed' }).scrollIntoViewIfNeeded();
  await editor.getByRole('textbox', { name: /^Visualisation/ }).evaluate((field) => field.scrollIntoView({ block: 'end' }));
  await expect(chart).toBeInViewport({ ratio: 1 });
  await screenshot(page, 'chart-builder-editor-scrolled-1280');

  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, `${title} saved`)).toBeVisible();

  await page.goto(`/l/${SEED.workspaceId}/dataset/${alias}`);
  await expect(page.getByText(title).first()).toBeVisible();
  const canvas = page.locator('canvas').first();
  await expect(canvas).toBeVisible();
  // drawn, not blank: the bars are the chosen green (rgb 16, 124, 16; chart.js may round a little)
  await expect.poll(() => canvas.evaluate((element: HTMLCanvasElement) => {
    const context = element.getContext('2d');
    if (!context) return 0;
    const { data } = context.getImageData(0, 0, element.width, element.height);
    let green = 0;
    for (let i = 0; i < data.length; i += 4) {
      const near = (value: number | undefined, target: number) => value !== undefined && Math.abs(value - target) <= 4;
      if (near(data[i], 16) && near(data[i + 1], 124) && near(data[i + 2], 16) && (data[i + 3] ?? 0) > 150) green += 1;
    }
    return green;
  })).toBeGreaterThan(500);
  await screenshot(page, 'chart-builder-dataset-1280');

  // the table view names the columns with the builder's labels and shows the store's numbers
  await page.getByRole('button', { name: 'Table', exact: true }).click();
  const table = page.getByRole('table');
  await expect(table.getByRole('columnheader')).toHaveText(['Status', 'Orders placed']);
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(Math.min(expected.length, 10) + 1);
  for (const [index, row] of expected.slice(0, 10).entries()) {
    await expect(rows.nth(index + 1).getByRole('cell')).toHaveText([row.status, String(row.orders)]);
  }
  await screenshot(page, 'chart-builder-dataset-table-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByRole('button', { name: 'Chart' }).click();
  await expect(canvas).toBeVisible();
  await canvas.scrollIntoViewIfNeeded();
  await screenshot(page, 'chart-builder-dataset-375');

  const token = await ownerToken();
  const published = await call(token, 'GET', `/api/workspaces/${SEED.workspaceId}/datasets/${alias}`);
  await call(token, 'DELETE', linkOf(published.body, REL.deleteDataset));
});

test('at 375 px by keyboard: the builder and the JSON stay in sync, and JSON it cannot read is left alone', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, DEMO.owner, `${LIST}?edit=new`);
  const editor = page.getByRole('dialog');
  await editor.getByRole('textbox', { name: /^Query/ }).fill(QUERY);
  await expect(editor.getByRole('table', { name: 'Query preview' })).toBeVisible();
  const builder = editor.getByRole('region', { name: 'Chart builder' });

  // keyboard only: focus the chart type, open it, choose Pie
  const type = builder.getByRole('combobox', { name: 'Chart type' });
  await type.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox')).toBeVisible();
  await page.keyboard.type('Pie');
  await page.keyboard.press('Enter');
  await expect(type).toHaveText('Pie');
  // a pie colours its slices: one colour per status in the preview
  await expect(builder.getByRole('combobox', { name: /^Colour of / })).toHaveCount(Math.min(expected.length, 12));
  await expect(editor.getByRole('region', { name: 'Chart preview' }).locator('canvas')).toBeVisible();
  await builder.scrollIntoViewIfNeeded();
  await screenshot(page, 'chart-builder-editor-375');
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

  // an expert's edit of the JSON shows in the builder
  const visualisation = editor.getByRole('textbox', { name: /^Visualisation/ });
  await visualisation.fill('{"chartjs-chart": {"chartType": "horizontalBar", "options": {"plugins": {"legend": {"display": false}}}}}');
  await expect(type).toHaveText('Horizontal bar');
  // and the builder's next pick keeps the expert's options
  await type.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(type).toHaveText('Line');
  expect(JSON.parse(await visualisation.inputValue())).toEqual({ 'chartjs-chart': { chartType: 'line', options: { plugins: { legend: { display: false } } } } });

  // JSON the builder cannot read: it says so, and its picks are gone rather than overwriting
  const google = '{"google-chart": {"chartType": "BarChart"}}';
  await visualisation.fill(google);
  await expect(builder.getByText('The builder cannot read this JSON.')).toBeVisible();
  await expect(builder.getByText(/a google-chart is edited as JSON/)).toBeVisible();
  await expect(builder.getByRole('combobox')).toHaveCount(0);
  await expect(visualisation).toHaveValue(google);
  await builder.scrollIntoViewIfNeeded();
  await screenshot(page, 'chart-builder-unreadable-375');
});
