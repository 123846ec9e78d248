import { expect, test } from './fixtures';
import { REL } from '../../src/domain/relations';
import { DEMO as SEED } from '../../server/seed';
import { apiCall as call, baseUrl, DEMO, linkOf, screenshot, searchPipelines, signIn } from './support';

// Issue 39, file sources people can use: the demo owner, signed in through the real identity
// provider, uploads a CSV from the Lab, a tap-files pipeline reading uploads/ loads it in its
// sandbox, and the run's 'View tables' opens the loaded table in the store browser.

async function ownerToken(): Promise<string> {
  const { signIn: signInByHttp } = await import('../support/auth');
  return (await signInByHttp(baseUrl(), DEMO.owner)).accessToken;
}

test('an admin uploads a CSV, a tap-files pipeline loads it, and its table opens in the store browser (1280 and 375)', async ({ page }) => {
  test.setTimeout(240_000);
  const stem = `fruit_${String(Date.now())}`;
  const csv = 'id,fruit,qty\n1,apple,3\n2,pear,5\n3,plum,7\n';

  // Data Imports' Add menu leads to the workspace's files
  await signIn(page, DEMO.owner, `/lab/${SEED.workspaceId}/pipelines`);
  await page.getByRole('button', { name: 'Add' }).last().click();
  await page.getByRole('menuitem', { name: 'Upload files' }).click();
  await expect(page).toHaveURL(new RegExp(`/lab/${SEED.workspaceId}/datasources$`));
  const files = page.getByRole('region', { name: 'Files' });
  await expect(files.getByRole('button', { name: 'Upload files' })).toBeEnabled();

  // a file tap-files cannot read is refused by name before anything is sent
  await files.getByLabel('Files to upload').setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF') });
  await expect(files.getByText('notes.pdf: the name must be a CSV, JSON or NDJSON file (.csv, .json, .ndjson, .jsonl)')).toBeVisible();

  await files.getByLabel('Files to upload').setInputFiles({ name: `${stem}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(files.getByText(`Uploaded uploads/${stem}.csv.`, { exact: false })).toBeVisible();
  const row = files.locator(`[data-file="uploads/${stem}.csv"]`);
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell', { name: `${csv.length} B` })).toBeVisible();
  await row.scrollIntoViewIfNeeded();
  await screenshot(page, 'workspace-files-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await row.scrollIntoViewIfNeeded();
  await screenshot(page, 'workspace-files-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  // deleting asks first: Cancel keeps the file, Delete removes it from the list
  await files.getByLabel('Files to upload').setInputFiles({ name: `${stem}_spare.csv`, mimeType: 'text/csv', buffer: Buffer.from('a\n1\n') });
  const spare = files.locator(`[data-file="uploads/${stem}_spare.csv"]`);
  await spare.getByRole('button', { name: `Delete uploads/${stem}_spare.csv` }).click();
  const confirm = page.getByRole('dialog', { name: `Delete uploads/${stem}_spare.csv` });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(spare).toBeVisible();
  await spare.getByRole('button', { name: `Delete uploads/${stem}_spare.csv` }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(spare).toHaveCount(0);
  await expect(row).toBeVisible();

  // a pipeline reading just that upload, into its own tables
  const token = await ownerToken();
  const workspace = await call(token, 'GET', `/api/workspaces/${SEED.workspaceId}`);
  const draft = await call(token, 'POST', linkOf(workspace.body, REL.newPipeline));
  const name = `E2E uploaded ${stem}`;
  const created = await call(token, 'PUT', linkOf(draft.body, REL.createPipeline), {
    name,
    dataComponents: ['extractors/tap-files', 'loaders/target-store'],
    properties: { 'tap-files.paths': [`uploads/${stem}.csv`], 'target-store.table_prefix': 'uploaded_' },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);

  await page.goto(`/lab/${SEED.workspaceId}/pipelines`);
  const pipeline = await searchPipelines(page, name);
  await pipeline.getByRole('button', { name: 'Start job' }).click();
  await expect(pipeline.locator('[data-status="COMPLETE"]').first()).toBeVisible({ timeout: 90_000 });
  await pipeline.getByRole('link', { name: 'View tables' }).first().click();

  const table = `uploaded_${stem}`;
  await expect(page.getByRole('table', { name: `First rows of ${table}` })).toBeVisible();
  const rows = page.getByRole('table', { name: `First rows of ${table}` });
  for (const fruit of ['apple', 'pear', 'plum']) await expect(rows.getByRole('cell', { name: fruit, exact: true })).toBeVisible();
  await screenshot(page, 'workspace-files-loaded-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await rows.scrollIntoViewIfNeeded();
  await screenshot(page, 'workspace-files-loaded-375');
});
