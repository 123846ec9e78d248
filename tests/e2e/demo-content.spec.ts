import { expect, test, type Locator } from './fixtures';
import { DEMO_DASHBOARD, DEMO as SEED } from '../../server/seed';
import { setAppProperties } from './datasetSupport';
import { DEMO, screenshot, signIn } from './support';

// The seeded demo workspace shows the product at its best (issue 20): pictures the app serves
// itself, a diagram whose labels sit clear of its arrows, and a dashboard with charts.

const datasetPage = (alias: string) => `/l/${SEED.workspaceId}/dataset/${alias}`;

/** Every picture in `area` has loaded (an address the browser could not fetch has no width). */
async function expectPicturesLoaded(area: Locator, count: number) {
  await expect(area.locator('img').first()).toBeVisible();
  await expect.poll(() => area.locator('img').evaluateAll((images) => images.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length)).toBeGreaterThanOrEqual(count);
}

test('the campaign gallery and the brand card show their pictures, served by the app itself (1280 and 375)', async ({ page }) => {
  await signIn(page, DEMO.member, datasetPage('marketing/campaign-gallery'));
  const gallery = page.getByLabel('Visualisation');
  await expectPicturesLoaded(gallery, 1);
  for (const src of await gallery.locator('img').evaluateAll((images) => images.map((i) => (i as HTMLImageElement).getAttribute('src') ?? ''))) expect(src).toMatch(/^\/demo\/[a-z-]+\.svg$/);
  await screenshot(page, 'demo-campaign-gallery-1280');
  await page.goto(datasetPage('marketing/brand-card'));
  await expectPicturesLoaded(page.getByLabel('Visualisation'), 1);
  await expect(page.getByText('No data to display')).toHaveCount(0);
  await page.setViewportSize({ width: 375, height: 812 });
  await screenshot(page, 'demo-brand-card-375');
});

test('Revenue Targets vs Actuals names its channel and links only its own #tags (issue 38; 1280 and 375)', async ({ page }) => {
  await signIn(page, DEMO.member, datasetPage('sales/targets-vs-actuals'));
  // the channel by its name beside what it is about, not a grey initial alone
  const source = page.getByLabel('Source');
  await expect(source.locator('strong')).toHaveText('Sales');
  await expect(source).toContainText('Revenue, customers and the deals in flight.');
  // its tags are links; the file's name in the description is not a tag
  await expect(page.getByRole('link', { name: '#sales' }).first()).toBeVisible();
  const description = page.getByTestId('dataset-description');
  await expect(description).toContainText('sales_targets');
  await expect(description.getByRole('link')).toHaveCount(0);
  await expect(page.getByLabel('Visualisation').locator('canvas')).toBeVisible();
  await screenshot(page, 'demo-targets-vs-actuals-1280');
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(source.locator('strong')).toHaveText('Sales');
  await screenshot(page, 'demo-targets-vs-actuals-375');
});

test('the data-flow diagram and the seeded dashboard render (1280)', async ({ page }) => {
  // the dashboard tests write their own content over the seeded one: put the seed's back
  await setAppProperties({ DASHBOARD_CONTENT: DEMO_DASHBOARD });
  await signIn(page, DEMO.member, datasetPage('operations/data-flow'));
  const diagram = page.getByRole('img', { name: 'Diagram' }).locator('svg').first();
  // mermaid is the heaviest renderer to load and lay out: on a busy machine it takes its time
  await expect(diagram).toBeVisible({ timeout: 30_000 });
  await expect(diagram).toContainText('customers, orders, web_sessions');
  await screenshot(page, 'demo-data-flow-1280');
  await page.goto(`/l/${SEED.workspaceId}/dashboard`);
  const dashboard = page.getByLabel('Dashboard');
  for (const section of ['Sales', 'Operations', 'Marketing']) await expect(dashboard.getByRole('heading', { name: section })).toBeVisible();
  await expect(dashboard.locator('canvas').first()).toBeVisible();
  await screenshot(page, 'demo-dashboard-1280');
});
