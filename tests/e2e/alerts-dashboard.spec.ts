import { expect, test, type Page } from './fixtures';
import { datasetPath, publishDataset, REVENUE_METADATA, REVENUE_ROWS, setAppProperties, uniqueAlias, WORKSPACE_ID } from './datasetSupport';
import { DEMO, screenshot, signIn } from './support';

// Alerts tab rules, the dashboard (DASHBOARD_CONTENT rendered without running anything of it, an
// admin's live preview) and the help page, against the real server, signed in through the provider.

const XSS = `<script>window.__xss = 'script'</script><img src="x" onerror="window.__xss = 'img'" /><a href="javascript:window.__xss='link'">click</a>`;

async function expectInert(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
  await expect(page.locator('main script, main img[onerror], main a[href^="javascript"]')).toHaveCount(0);
}

test('alerts tab: no alerts yet; an admin adds a threshold rule and sees it listed', async ({ page }) => {
  const alias = uniqueAlias('alerts');
  await publishDataset({ alias, title: 'E2E Alert Rules', query: 'SELECT 1 AS total' });
  await signIn(page, DEMO.owner, datasetPath(alias));
  await page.getByRole('tab', { name: 'Alerts' }).click();
  await expect(page.getByText('No alerts.')).toBeVisible();
  await page.getByRole('button', { name: 'Edit rules' }).click();
  await page.getByRole('button', { name: 'Add rule' }).click();
  await page.getByLabel('Rule 1 column').fill('total');
  await page.getByLabel('Rule 1 threshold').fill('abc');
  await page.getByRole('button', { name: 'Save rules' }).click();
  await expect(page.getByRole('alert')).toContainText('Threshold must be a number');
  await page.getByLabel('Rule 1 threshold').fill('100');
  await page.getByRole('button', { name: 'Save rules' }).click();
  await expect(page.getByRole('region', { name: 'Alert rules' }).getByText('total > 100')).toBeVisible();
  await screenshot(page, 'alerts-tab-1280');
  await page.setViewportSize({ width: 375, height: 812 });
  await page.getByRole('tab', { name: 'Alerts' }).scrollIntoViewIfNeeded();
  await screenshot(page, 'alerts-tab-375');
});

test('dashboard: components render, a function prop and XSS stay inert; an admin edits with a live preview', async ({ page }) => {
  const alias = uniqueAlias('dash');
  await publishDataset({ alias, title: 'E2E Dashboard Revenue', visualisation: JSON.stringify({ 'chartjs-chart': { chartType: 'bar' } }), metadata: REVENUE_METADATA, rawData: JSON.stringify(REVENUE_ROWS) });
  await setAppProperties({
    DASHBOARD_PAGE_TITLE: 'Team dashboard',
    DASHBOARD_CONTENT: `## Revenue at a glance\n\n<div style={{ display: 'flex', gap: 16, position: 'fixed' }}>\n<DatasetLink alias="${alias}">Open revenue</DatasetLink>\n<DownloadDataset alias="${alias}" tooltip="Revenue as CSV" />\n</div>\n\n<DatasetChart alias="${alias}" />\n\n<DatasetData alias="${alias}" render={(rows) => rows.map((r) => r.x)} />\n\n${XSS}`,
  });
  await signIn(page, DEMO.owner, `/l/${WORKSPACE_ID}/dashboard`);
  await expect(page.getByRole('heading', { level: 1, name: 'Team dashboard' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Revenue at a glance' })).toBeVisible();
  await expect(page.getByLabel('Dashboard').locator('canvas')).toBeVisible();
  await expect(page.getByText('DatasetData: the render prop is a function. Functions in the dashboard content are never run; remove it or use a literal value.')).toBeVisible();
  await expect(page.getByText('<script> is not allowed in the dashboard content.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open revenue' })).toHaveAttribute('href', datasetPath(alias));
  await expectInert(page);
  await screenshot(page, 'dashboard-1280');
  await page.setViewportSize({ width: 375, height: 812 });
  await screenshot(page, 'dashboard-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByLabel('Dashboard content');
  await editor.fill(`# Draft heading\n\n<Back />\n\n<img src="x" onerror="window.__xss = 'preview'" />`);
  await expect(page.getByLabel('Preview').getByRole('heading', { name: 'Draft heading' })).toBeVisible();
  await expectInert(page);
  await screenshot(page, 'dashboard-edit-1280');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByLabel('Dashboard').getByRole('heading', { name: 'Draft heading' })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Dashboard').getByRole('heading', { name: 'Draft heading' })).toBeVisible();
  await expectInert(page);
});

test('help: the help dataset’s description as sanitised markdown; fixed help when it is not found', async ({ page }) => {
  const alias = uniqueAlias('help');
  await publishDataset({ alias, title: 'E2E Help', description: `# How we work\n\nAsk in **#data**.\n\n${XSS}\n\n[bad](javascript:window.__xss='md')` });
  await setAppProperties({ HELP_DATASET_ALIAS: alias, HELP_PAGE_TITLE: 'Team help' });
  await signIn(page, DEMO.member, `/l/${WORKSPACE_ID}/help`);
  await expect(page.getByRole('heading', { level: 1, name: 'Team help' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'How we work' })).toBeVisible();
  await expectInert(page);
  await screenshot(page, 'help-1280');
  await page.setViewportSize({ width: 375, height: 812 });
  await screenshot(page, 'help-375');
  await setAppProperties({ HELP_DATASET_ALIAS: 'no/such/help', HELP_PAGE_TITLE: '' });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Help' })).toBeVisible();
  await expect(page.getByText('Search from the toolbar', { exact: false })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});
