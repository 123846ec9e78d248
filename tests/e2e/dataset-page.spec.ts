import fs from 'node:fs';
import { expect, test, type Page } from './fixtures';
import { datasetPath, publishDataset, REVENUE_METADATA, REVENUE_ROWS, uniqueAlias, WORKSPACE_ID } from './datasetSupport';
import { DEMO, screenshot, signIn } from './support';

// The dataset page (spec 002 §2 "Dataset page" and "Dataset action bar") against the real server:
// each test publishes its own dataset through the API and acts on it in the browser.

async function openDataset(page: Page, title: string, body: Record<string, unknown> = {}) {
  const alias = uniqueAlias('page');
  await publishDataset({
    alias,
    title,
    description: 'Invoiced **revenue** per month. See #finance.',
    visualisation: JSON.stringify({ 'chartjs-chart': { chartType: 'bar' } }),
    metadata: REVENUE_METADATA,
    rawData: JSON.stringify(REVENUE_ROWS),
    tags: ['finance'],
    ...body,
  });
  await signIn(page, DEMO.owner, datasetPath(alias));
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  return alias;
}

test('the card: title, #tags to explore, markdown description, the chart; screenshots at 1280 and 375', async ({ page }) => {
  await openDataset(page, 'E2E Card Revenue');
  await expect(page.getByRole('toolbar', { name: 'Dataset actions' })).toBeVisible();
  await expect(page.getByLabel('Visualisation').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('dataset-description').locator('strong')).toHaveText('revenue');
  const tagLink = page.getByTestId('dataset-description').getByRole('link', { name: '#finance' });
  await expect(tagLink).toHaveAttribute('href', `/l/${WORKSPACE_ID}/explore?search=%22tag%3Afinance%22`);
  await expect(page.getByRole('tab', { name: 'Related' })).toBeVisible();
  await screenshot(page, 'dataset-page-1280');
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(page.getByLabel('Visualisation').locator('canvas')).toBeVisible();
  await screenshot(page, 'dataset-page-375');
  await page.getByRole('link', { name: '#finance' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/l/${WORKSPACE_ID}/explore\\?search=`));
});

test('an unknown alias says so, without an error popup', async ({ page }) => {
  await signIn(page, DEMO.owner, datasetPath('no/such/dataset'));
  await expect(page.getByText('Dataset not found. no/such/dataset')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('like and unlike: the star toggles and the count follows', async ({ page }) => {
  await openDataset(page, 'E2E Like');
  await page.getByRole('button', { name: 'Star' }).click();
  const unstar = page.getByRole('button', { name: 'Unstar' });
  await expect(unstar).toHaveText('1');
  await expect(unstar).toHaveAttribute('aria-pressed', 'true');
  await unstar.click();
  await expect(page.getByRole('button', { name: 'Star' })).toHaveText('0');
});

test("watch: 'Watch for...' Alerts, then Unwatch", async ({ page }) => {
  await openDataset(page, 'E2E Watch');
  await page.getByRole('button', { name: 'Watch', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Watch for...' });
  await expect(dialog.getByRole('radio', { name: 'All Activity' })).toBeVisible();
  // Alerts is chosen first, as Errors is on a pipeline: the same dialog, each spec's words
  await expect(dialog.getByRole('radio', { name: 'Alerts' })).toBeChecked();
  await expect(dialog).toHaveCSS('opacity', '1');
  await screenshot(page, 'dataset-watch-for-1280');
  await dialog.getByRole('button', { name: 'Watch' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Unwatch' }).click();
  await expect(page.getByRole('button', { name: 'Watch', exact: true })).toBeVisible();
});

test("share: Copy Link puts the page's address on the clipboard and says 'Copied' for 3 s", async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const alias = await openDataset(page, 'E2E Share');
  await page.getByRole('button', { name: 'Share' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share' });
  await expect(dialog.getByRole('link', { name: 'Email' })).toHaveAttribute('href', /^mailto:\?subject=E2E%20Share/);
  await dialog.getByRole('button', { name: 'Copy Link' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(new URL(datasetPath(alias), page.url()).href);
  await expect(dialog.getByRole('button', { name: 'Copy Link' })).toBeVisible();
});

test('export: a query dataset downloads every row as CSV named by its alias', async ({ page }) => {
  const alias = await openDataset(page, 'E2E Export', {
    rawData: null,
    query: "select n, 'row ' || n as label from generate_series(1, 25) as n",
    visualisation: JSON.stringify({ 'html-table': {} }),
    metadata: null,
  });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${alias.replaceAll('/', '-')}.csv`);
  const text = fs.readFileSync(await file.path(), 'utf8').trim().split(/\r?\n/);
  expect(text[0]).toBe('n,label');
  expect(text).toHaveLength(26);
  expect(text[25]).toBe('25,row 25');
});

test('a description with script, onerror and javascript: payloads stays inert', async ({ page }) => {
  await openDataset(page, 'E2E Hostile');
  await page.getByRole('button', { name: 'Edit description' }).click();
  const editor = page.getByRole('textbox', { name: 'Description (markdown)' });
  await expect(editor).toHaveCSS('height', /^(39\d|40\d)px$/);
  const payload = ['<script>window.__xss = 1</script>', '<img src="x" onerror="window.__xss = 2">', '[click me](javascript:window.__xss=3)', 'Safe **bold**'].join('\n\n');
  await editor.fill(payload);
  await page.getByRole('form', { name: 'Edit description' }).getByRole('button', { name: 'Save' }).click();
  const description = page.getByTestId('dataset-description');
  await expect(description.locator('strong')).toHaveText('bold');
  await expect(description.locator('script, img[onerror], [onerror], a[href^="javascript"]')).toHaveCount(0);
  await description.getByText('click me').click();
  // Saved on the server: a reload shows the same sanitised text.
  await page.reload();
  await expect(page.getByTestId('dataset-description').locator('strong')).toHaveText('bold');
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
});

test('Save adds the dataset to a new list and the toggle removes it', async ({ page }) => {
  await openDataset(page, 'E2E Save');
  const listName = `E2E list ${String(Date.now())}`;
  await page.getByRole('button', { name: 'Save' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add to list' });
  await dialog.getByLabel('New list').fill(listName);
  await dialog.getByRole('button', { name: 'Create and add' }).click();
  const box = dialog.getByRole('checkbox', { name: listName });
  await expect(box).toBeChecked();
  await box.click();
  await expect(box).not.toBeChecked();
  await box.click();
  await expect(box).toBeChecked();
  await dialog.getByRole('button', { name: 'Done' }).click();
  // Read back from the server.
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('dialog', { name: 'Add to list' }).getByRole('searchbox').fill(listName);
  await expect(page.getByRole('dialog', { name: 'Add to list' }).getByRole('checkbox', { name: listName })).toBeChecked();
});

test("delete: confirm, 'Dataset deleted successfully.', then back to the workspace's feed after 2 s", async ({ page }) => {
  await openDataset(page, 'E2E Delete');
  await page.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('alertdialog', { name: 'Delete dataset' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Dataset deleted successfully.')).toBeVisible();
  await expect(page).not.toHaveURL(/\/dataset\//);
  await expect(page).toHaveURL(new RegExp(`/l/${WORKSPACE_ID}/feed$`));
});
