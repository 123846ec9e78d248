import { expect, test } from './fixtures';
import { ownerToken, publishDataset, REVENUE_METADATA, REVENUE_ROWS, setAppProperties, uniqueAlias, WORKSPACE_ID } from './datasetSupport';
import { apiCall, DEMO, screenshot, signIn } from './support';

// The dashboard builder (issue 20): an admin adds a dataset from the searchable picker and a text
// block, reorders them, sees one failed save said in words, saves, and reads the rendered grid.
// The e2e suite shares the demo workspace, so DASHBOARD_CONTENT is put back at the end.

test('dashboard builder: add a dataset by search and a text block, reorder, save, see the grid', async ({ page }) => {
  const token = await ownerToken();
  const before = await apiCall(token, 'GET', `/api/workspaces/${WORKSPACE_ID}`);
  const original = (before.body as unknown as { appProperties?: Record<string, string> }).appProperties?.['DASHBOARD_CONTENT'] ?? '';
  const alias = uniqueAlias('builder');
  const title = `Builder Revenue ${String(Date.now() % 100000)}`;
  await publishDataset({ alias, title, visualisation: JSON.stringify({ 'chartjs-chart': { chartType: 'bar' } }), metadata: REVENUE_METADATA, rawData: JSON.stringify(REVENUE_ROWS) });
  await setAppProperties({ DASHBOARD_CONTENT: '# Quarterly review' });

  try {
    await signIn(page, DEMO.owner, `/l/${WORKSPACE_ID}/dashboard`);
    await expect(page.getByLabel('Dashboard').getByRole('heading', { name: 'Quarterly review' })).toBeVisible();
    await page.getByRole('button', { name: 'Edit' }).click();
    const blocks = page.getByRole('list', { name: 'Blocks' });
    await expect(blocks.getByRole('listitem')).toHaveCount(1);

    // Add dataset: search, keep "Chart", pick the dataset
    await page.getByRole('button', { name: 'Add dataset' }).click();
    const picker = page.getByRole('dialog', { name: 'Add dataset' });
    await picker.getByRole('searchbox').fill(title);
    await picker.getByRole('button', { name: new RegExp(title) }).click();
    await expect(picker).toBeHidden();
    await expect(blocks.getByRole('listitem').nth(1)).toHaveAccessibleName(`Block 2, Chart: ${title}`);
    // the same dataset again, as a table this time
    await page.getByRole('button', { name: 'Add dataset' }).click();
    await picker.getByRole('radio', { name: 'Table' }).check();
    await picker.getByRole('searchbox').fill(title);
    await picker.getByRole('button', { name: new RegExp(title) }).click();
    await expect(blocks.getByRole('listitem').nth(2)).toHaveAccessibleName(`Block 3, Table: ${title}`);

    await page.getByRole('button', { name: 'Add text' }).click();
    await page.getByLabel('Text of block 4').fill('## Builder notes\n\nWritten in the builder.');
    await page.getByRole('button', { name: 'Move block 4 up' }).click();
    await page.getByRole('button', { name: 'Move block 3 up' }).click();
    await expect(blocks.getByRole('listitem').nth(1)).toHaveAccessibleName('Block 2, Text');
    await expect(blocks.getByRole('listitem').nth(2)).toHaveAccessibleName(`Block 3, Chart: ${title}`);

    // the source follows the blocks, and the preview renders them
    await expect(page.getByLabel('Dashboard content')).toHaveValue(`# Quarterly review\n\n{/* block */}\n\n## Builder notes\n\nWritten in the builder.\n\n<DatasetChart alias="${alias}" />\n\n<DatasetData alias="${alias}" />`);
    const preview = page.getByLabel('Preview');
    await expect(preview.getByRole('heading', { name: 'Builder notes' })).toBeVisible();
    await expect(preview.getByRole('heading', { name: title })).toHaveCount(2);
    await expect(preview.locator('canvas')).toBeVisible();
    await page.getByRole('button', { name: 'Syntax help' }).click();
    await expect(page.getByText('<DatasetChart alias="monthly-sales" />')).toBeVisible();
    await screenshot(page, 'dashboard-builder-edit-1280');

    // a refused save is said in words and keeps the draft
    await page.route('**/api/workspaces/*', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ status: 400, error: 'Bad Request', message: 'The dashboard could not be saved', path: '/api/workspaces', errors: [] }) })
        : route.continue(),
    );
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'could not be saved' })).toBeVisible();
    await page.unroute('**/api/workspaces/*');

    await page.getByRole('button', { name: 'Save' }).click();
    // the toast's title (its text is also read out by a live region)
    await expect(page.locator('.fui-ToastTitle').filter({ hasText: 'Dashboard saved' })).toBeVisible();
    const dashboard = page.getByLabel('Dashboard', { exact: true });
    await expect(dashboard.getByRole('heading', { name: 'Builder notes' })).toBeVisible();
    await expect(dashboard.getByRole('heading', { level: 3, name: title })).toHaveCount(2);
    await expect(dashboard.locator('canvas')).toBeVisible();
    await screenshot(page, 'dashboard-builder-1280');
    await page.setViewportSize({ width: 375, height: 812 });
    await expect(dashboard.locator('canvas')).toBeVisible();
    await screenshot(page, 'dashboard-builder-375');
    await page.getByRole('button', { name: 'Edit' }).click();
    await screenshot(page, 'dashboard-builder-edit-375');

    // workspace settings edit the same property in a multi-line field
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/w/${WORKSPACE_ID}`);
    const property = page.getByRole('group', { name: 'App properties' }).locator('textarea');
    await expect(property).toHaveCount(1);
    await expect(property).toHaveValue(/<DatasetData alias=/);
  } finally {
    await setAppProperties({ DASHBOARD_CONTENT: original });
  }
});
