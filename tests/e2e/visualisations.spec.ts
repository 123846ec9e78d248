import { expect, test, type Locator } from './fixtures';
import { datasetPath, publishDataset, REVENUE_METADATA, REVENUE_ROWS, uniqueAlias } from './datasetSupport';
import { DEMO, screenshot, signIn } from './support';

// Every visualisation kind of spec 002 §3 renders on the dataset page, at 1280 and 375 px.


type Kind = {
  readonly name: string;
  readonly visualisation: unknown;
  readonly rawData: string;
  readonly metadata?: string | null;
  /** what shows the kind rendered, inside the page's Visualisation region */
  readonly rendered: (region: Locator) => Locator;
};

const pictureRows = JSON.stringify([
  { 'revenue.name': 'North', 'revenue.url': '/favicon.svg' },
  { 'revenue.name': 'South', 'revenue.url': '/favicon.svg' },
]);

const KINDS: readonly Kind[] = [
  ...(['bar', 'line', 'area', 'scatter', 'pie', 'doughnut', 'treemap', 'horizontalBar'] as const).map((chartType) => ({
    name: `chartjs-${chartType}`,
    visualisation: { 'chartjs-chart': { chartType } },
    rawData: JSON.stringify(REVENUE_ROWS),
    rendered: (region: Locator) => region.locator('canvas'),
  })),
  // one row, several aggregates: a slice per aggregate (Matatika's basic doughnut example, in our own numbers)
  {
    name: 'chartjs-doughnut-aggregates',
    visualisation: { 'chartjs-chart': { chartType: 'doughnut' } },
    metadata: JSON.stringify({ name: 'shop', related_table: { columns: [], aggregates: [{ name: 'visitors', label: 'Visitors' }, { name: 'sales', label: 'Sales' }] } }),
    rawData: JSON.stringify([{ 'shop.visitors': 1150, 'shop.sales': 1040 }]),
    rendered: (region: Locator) => region.locator('canvas'),
  },
  { name: 'google-chart', visualisation: { 'google-chart': { chartType: 'ColumnChart' } }, rawData: JSON.stringify(REVENUE_ROWS), rendered: (r) => r.locator('canvas') },
  { name: 'html-table', visualisation: { 'html-table': {} }, rawData: JSON.stringify(REVENUE_ROWS), rendered: (r) => r.getByRole('table') },
  { name: 'handsontable-table', visualisation: { 'handsontable-table': {} }, rawData: JSON.stringify(REVENUE_ROWS), rendered: (r) => r.getByText('140250').or(r.getByText('140,250')).first() },
  { name: 'html-metric', visualisation: { 'html-metric': {} }, rawData: JSON.stringify([{ 'revenue.revenue': 152300 }]), rendered: (r) => r.getByText(/152,?300/).first() },
  { name: 'mermaid', visualisation: { mermaid: {} }, rawData: 'graph TD; Extract-->Load; Load-->Report', metadata: null, rendered: (r) => r.locator('svg') },
  { name: 'carousel', visualisation: { carousel: {} }, rawData: pictureRows, rendered: (r) => r.locator('img').first() },
  { name: 'image', visualisation: { image: {} }, rawData: pictureRows, rendered: (r) => r.locator('img').first() },
];

for (const kind of KINDS) {
  test(`${kind.name} renders at 1280 and 375 px`, async ({ page }) => {
    const alias = uniqueAlias(kind.name);
    await publishDataset({
      alias,
      title: `E2E ${kind.name}`,
      description: `The ${kind.name} visualisation.`,
      visualisation: JSON.stringify(kind.visualisation),
      metadata: kind.metadata === undefined ? REVENUE_METADATA : kind.metadata,
      rawData: kind.rawData,
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signIn(page, DEMO.owner, datasetPath(alias));
    const region = page.getByLabel('Visualisation');
    await expect(kind.rendered(region)).toBeVisible();
    await expect(region.getByRole('alert')).toHaveCount(0);
    await screenshot(page, `visualisation-${kind.name}-1280`);
    await page.setViewportSize({ width: 375, height: 812 });
    await expect(kind.rendered(region), pageErrors.join('\n')).toBeVisible();
    await screenshot(page, `visualisation-${kind.name}-375`);
    expect(pageErrors).toEqual([]);
  });
}
