import { expect, test, type Page } from './fixtures';
import { REL } from '../../src/domain/relations';
import { MATATIKA_EXAMPLES, type MatatikaExample } from '../../src/domain/visualisation/matatikaExamples.fixture';
import { datasetPath, ownerToken, publishDataset, uniqueAlias } from './datasetSupport';
import { apiCall, DEMO, linkOf, screenshot, signIn, type Resource } from './support';

// Issue 19: every DatasetML example of Matatika's docs (the reference page's query example, the
// basic and the advanced ones, and our bubble), in our own data of the same shape, published into
// the demo workspace, drawn on its dataset page and read back through the page's table view, with
// screenshots at 1280 and 375 px. One sign-in; every example in one test; all removed afterwards.

const published: (Resource & { alias: string })[] = [];

test.afterAll(async () => {
  const token = await ownerToken();
  for (const dataset of published) expect((await apiCall(token, 'DELETE', linkOf(dataset, REL.deleteDataset))).status).toBe(204);
});

/** How many pixels of the chart's canvas are painted (0: chart.js drew nothing). */
const paintedPixels = (page: Page) =>
  page.getByLabel('Visualisation').locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
    const context = canvas.getContext('2d');
    if (!context || canvas.width === 0 || canvas.height === 0) return 0;
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) painted += 1;
    return painted;
  });

async function checkExample(page: Page, example: MatatikaExample, alias: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(datasetPath(alias));
  await expect(page.getByRole('heading', { name: example.title })).toBeVisible();
  const region = page.getByLabel('Visualisation');
  await expect(region.locator('canvas'), example.key).toBeVisible();
  await expect(region.getByRole('alert'), example.key).toHaveCount(0);
  await expect.poll(() => paintedPixels(page), { message: `${example.key} draws its chart` }).toBeGreaterThan(2_000);
  await screenshot(page, `matatika-${example.key}-1280`);

  // the table view: the rows under the metadata's labels, so the series and the labels (a pie's
  // slice labels are its aggregates' labels) are there as the chart model names them
  await page.getByRole('button', { name: 'Table', exact: true }).click();
  const table = region.getByRole('table');
  await expect(table.getByRole('columnheader')).toHaveText([...example.expected.tableHeaders]);
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(example.rows.length);
  const categories = example.expected.chartType === 'doughnut' || example.expected.chartType === 'pie' ? [] : example.expected.labels;
  for (const [index, label] of categories.entries()) await expect(rows.nth(index), example.key).toContainText(label);
  for (const series of example.expected.series) {
    for (const [index, value] of series.values.entries()) {
      // one-row pies: the series is the row, each slice a column
      const row = example.rows.length === 1 ? rows.first() : rows.nth(index);
      if (value !== null) await expect(row, `${example.key} ${series.label}`).toContainText(String(value));
    }
  }
  await page.getByRole('button', { name: 'Chart', exact: true }).click();
  await expect(region.locator('canvas')).toBeVisible();

  await page.setViewportSize({ width: 375, height: 812 });
  await expect(region.locator('canvas')).toBeVisible();
  await expect.poll(() => paintedPixels(page), { message: `${example.key} draws at 375 px` }).toBeGreaterThan(1_000);
  await screenshot(page, `matatika-${example.key}-375`);
}

test("Matatika's DatasetML examples are drawn as Matatika draws them, at 1280 and 375 px", async ({ page }) => {
  test.setTimeout(300_000);
  for (const example of MATATIKA_EXAMPLES) {
    published.push(await publishDataset({
      alias: uniqueAlias(`matatika-${example.key}`),
      title: example.title,
      description: `#Example\n\nFollows Matatika's ${example.follows}.`,
      visualisation: example.visualisation,
      metadata: example.metadata,
      ...(example.query === undefined ? { rawData: JSON.stringify(example.rows) } : { query: example.query }),
    }));
  }
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await signIn(page, DEMO.owner, datasetPath(published[0]?.alias ?? ''));
  for (const [index, example] of MATATIKA_EXAMPLES.entries()) await checkExample(page, example, published[index]?.alias ?? '');
  expect(pageErrors).toEqual([]);
});
