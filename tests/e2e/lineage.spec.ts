import { expect, test } from './fixtures';
import { DEMO as SEED } from '../../server/seed';
import { demoTablesLoaded, DEMO, screenshot, searchPipelines, signIn } from './support';

// Lineage on the dataset page (issue 41): a member opens a demo dataset, follows a column back to
// the store table column it is computed from, the pipeline run that loaded that table, and the
// stream and source it was extracted from; by keyboard, at 1280 and 375 px.

test.beforeAll(async () => {
  test.setTimeout(300_000);
  await demoTablesLoaded(SEED.workspaceId);
});

test("a member follows a dataset's column back to its pipeline run and source (1280 and 375)", async ({ page }) => {
  await signIn(page, DEMO.member, `/l/${SEED.workspaceId}/dataset/top-customers`);
  const lineage = page.getByRole('region', { name: 'Lineage' });
  await expect(lineage).toBeVisible();
  // a wide screen starts on the graph (lineage-graph.spec.ts): this test reads the list
  await lineage.getByRole('tab', { name: 'List' }).click();
  const columns = lineage.getByRole('list', { name: 'Columns' });
  const revenue = columns.getByRole('button', { name: /^revenue/ });
  await expect(revenue).toContainText('Aggregated from orders.amount');
  await expect(columns.getByRole('button', { name: /^customer/ })).toContainText('Copied from customers.name');

  // by keyboard: focus the column and open it
  await revenue.focus();
  await page.keyboard.press('Enter');
  await expect(revenue).toHaveAttribute('aria-expanded', 'true');
  const sources = lineage.getByRole('list', { name: 'Sources of revenue' });
  const amount = sources.getByRole('listitem').filter({ hasText: 'orders.amount' });
  await expect(amount).toContainText('Aggregated');
  await expect(amount).toContainText('Fresh');
  await expect(amount).toContainText(/Loaded by the pipeline .+, run Complete/);
  await expect(amount).toContainText('Stream orders from the source tap-demo');
  await lineage.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await screenshot(page, 'lineage-1280');

  await page.setViewportSize({ width: 375, height: 812 });
  await lineage.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await expect(amount).toBeVisible();
  // nothing wider than the phone's screen
  const overflow = await lineage.evaluate((element) => element.scrollWidth - element.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await screenshot(page, 'lineage-375');
});

test("an admin sees a pipeline's impact: the tables its runs feed and the datasets reading them (1280 and 375)", async ({ page }) => {
  await signIn(page, DEMO.owner, `/lab/${SEED.workspaceId}/pipelines`);
  await expect(page.getByRole('heading', { name: 'Data Imports' })).toBeVisible();
  const row = await searchPipelines(page, 'Demo sales data');
  await row.getByRole('button', { name: 'Expand' }).click();
  await row.getByRole('tab', { name: 'Impact' }).click();
  const impact = row.getByRole('region', { name: 'Impact' });
  const tables = impact.getByRole('list', { name: 'Tables fed' });
  for (const table of ['orders', 'customers']) await expect(tables.getByRole('listitem').filter({ hasText: table }).first()).toContainText('Fresh');
  const datasets = impact.getByRole('list', { name: 'Datasets fed' });
  const top = datasets.getByRole('listitem').filter({ hasText: 'Top Customers by Revenue' });
  await expect(top).toContainText('reads customers, orders');
  await impact.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await screenshot(page, 'lineage-impact-1280');
  await page.setViewportSize({ width: 375, height: 812 });
  await impact.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await expect(top).toBeVisible();
  await screenshot(page, 'lineage-impact-375');
  // the dataset leads on to its own lineage
  await top.getByRole('link', { name: 'Top Customers by Revenue' }).click();
  await expect(page.getByRole('region', { name: 'Lineage' })).toBeVisible();
});
