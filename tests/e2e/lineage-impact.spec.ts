import { expect, test } from './fixtures';
import { DEMO as SEED } from '../../server/seed';
import { demoTablesLoaded, DEMO, screenshot, searchPipelines, signIn } from './support';

// Impact before change (issue 41, item 3): the demo owner goes to delete the pipeline that feeds
// the demo's datasets; the question lists the tables its runs feed, the datasets reading them and
// the dashboard showing those, and asks 'Delete anyway'. Cancel keeps the pipeline. 1280 and 375 px.

test.beforeAll(async () => {
  test.setTimeout(300_000);
  await demoTablesLoaded(SEED.workspaceId);
});

test('deleting a pipeline that feeds datasets lists them first; Cancel keeps it (1280 and 375)', async ({ page }) => {
  await signIn(page, DEMO.owner, `/lab/${SEED.workspaceId}/pipelines`);
  await expect(page.getByRole('heading', { name: 'Data Imports' })).toBeVisible();
  const row = await searchPipelines(page, 'Demo sales data');
  await row.getByRole('button', { name: 'More' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();

  const dialog = page.getByRole('dialog', { name: 'Delete pipeline' });
  await expect(dialog).toContainText("Delete 'Demo sales data' and its job history?");
  const impact = dialog.getByRole('group', { name: 'Its runs feed these. Deleting it stops their refreshes:', exact: true });
  const tables = impact.getByRole('list', { name: 'Tables affected' });
  for (const table of ['orders', 'customers']) await expect(tables.getByRole('listitem').filter({ hasText: new RegExp(`^${table}$`) })).toHaveCount(1);
  const datasets = impact.getByRole('list', { name: 'Datasets affected' });
  await expect(datasets.getByRole('link', { name: 'Top Customers by Revenue', exact: true })).toBeVisible();
  await expect(impact.getByRole('list', { name: 'Dashboards affected' }).getByRole('listitem')).toHaveCount(1);
  const anyway = dialog.getByRole('button', { name: 'Delete anyway', exact: true });
  await expect(anyway).toBeEnabled();
  await screenshot(page, 'lineage-impact-delete-1280');

  await page.setViewportSize({ width: 375, height: 812 });
  await expect(anyway).toBeVisible();
  const overflow = await dialog.evaluate((element) => element.scrollWidth - element.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await screenshot(page, 'lineage-impact-delete-375');

  // Cancel keeps everything: the dialog closes and the pipeline is still listed, after a reload too
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row).toHaveCount(1);
  await page.reload();
  await expect(await searchPipelines(page, 'Demo sales data')).toHaveCount(1);
});

test('renaming a pipeline that feeds datasets asks before saving; Keep editing saves nothing (1280 and 375)', async ({ page }) => {
  await signIn(page, DEMO.owner, `/lab/${SEED.workspaceId}/pipelines`);
  await expect(page.getByRole('heading', { name: 'Data Imports' })).toBeVisible();
  const row = await searchPipelines(page, 'Demo sales data');
  await row.getByRole('button', { name: 'More' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const name = page.getByRole('textbox', { name: 'Name' });
  await expect(name).toHaveValue('Demo sales data');
  const editor = page.url();
  await name.fill('Demo sales data renamed');
  await page.getByRole('button', { name: 'Save', exact: true }).click();

  const dialog = page.getByRole('dialog', { name: 'Save this change?' });
  const impact = dialog.getByRole('group', { name: 'This save renames the pipeline. Its runs feed these:', exact: true });
  await expect(impact.getByRole('list', { name: 'Datasets affected' }).getByRole('link', { name: 'Top Customers by Revenue', exact: true })).toBeVisible();
  await expect(impact.getByRole('list', { name: 'Dashboards affected' }).getByRole('listitem')).toHaveCount(1);
  await expect(dialog.getByRole('button', { name: 'Save anyway', exact: true })).toBeVisible();
  await screenshot(page, 'lineage-impact-rename-1280');
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(dialog.getByRole('button', { name: 'Save anyway', exact: true })).toBeVisible();
  await screenshot(page, 'lineage-impact-rename-375');

  // Keep editing: the typed name stays in the form, and the server still has the old one
  await dialog.getByRole('button', { name: 'Keep editing', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(name).toHaveValue('Demo sales data renamed');
  expect(page.url()).toBe(editor);
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Demo sales data');
});
