import { expect, test } from './fixtures';
import { COMPONENT_TABS_TEXT, NO_DEFAULT_ACTIONS } from '../../src/domain/pipelineForm';
import { REL } from '../../src/domain/relations';
import { DEMO as SEED } from '../../server/seed';
import { ownerToken } from './datasetSupport';
import { addComponent, apiCall, DEMO, linkOf, screenshot, searchPipelines, signIn } from './support';

const NEW = `/lab/${SEED.workspaceId}/pipelines/new`;
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}`;

test('the owner creates a pipeline from the demo extractor to the default store', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, DEMO.owner, NEW);
  await expect(page.getByRole('heading', { name: 'New data import' })).toBeVisible();
  await expect(page.getByLabel('Help').getByText('Data Import', { exact: true })).toBeVisible();
  await addComponent(page, 'demo', 'Demo data');
  // The name follows the first plugin until typed.
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Demo data');
  await addComponent(page, 'store', 'Workspace data store');
  const name = unique('Demo to store');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('group', { name: 'Demo data' }).getByRole('spinbutton', { name: 'Seed' }).fill('7');
  await expect(page.getByText('tap-demo → target-store')).toBeVisible();
  await screenshot(page, 'lab-pipeline-form-1280');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/lab/${SEED.workspaceId}/pipelines/[^/]+$`));
  await expect(page).not.toHaveURL(/\/new$/);
  const savedToast = page.locator('.fui-ToastTitle', { hasText: 'Pipeline saved' });
  await expect(savedToast).toBeVisible();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Demo data' }).getByRole('spinbutton', { name: 'Seed' })).toHaveValue('7');
  // the saved pipeline's page is a fresh form: it saves again, and says so again
  await expect(savedToast).toBeHidden();
  await page.getByRole('group', { name: 'Demo data' }).getByRole('spinbutton', { name: 'Seed' }).fill('8');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(savedToast).toBeVisible();
  await expect(page.getByRole('group', { name: 'Demo data' }).getByRole('spinbutton', { name: 'Seed' })).toHaveValue('8');
});

test("a newcomer's form (issue 38): Default says what it will run, Add component what its tabs hold, a new list item starts empty, no banner unasked; 1280 and 375 px", async ({ page }) => {
  await signIn(page, DEMO.owner, NEW);
  await expect(page.getByText(NO_DEFAULT_ACTIONS)).toBeVisible();
  await expect(page.getByText('echo "hello world"')).toHaveCount(0);
  await page.getByRole('button', { name: 'Add component' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add component' });
  await expect(dialog.getByText(COMPONENT_TABS_TEXT.new)).toBeVisible();
  await dialog.getByRole('tab', { name: 'Existing' }).click();
  await expect(dialog.getByText(COMPONENT_TABS_TEXT.existing)).toBeVisible();
  await screenshot(page, 'lab-pipeline-form-add-existing-1280');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // the demo workspace has pipelines of its own: the default name is never one of theirs, so the draft saves quietly
  await addComponent(page, 'files', 'CSV and JSON files');
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(/^CSV and JSON files( \d+)?$/);
  await expect(page.getByText(/Validation failed/)).toHaveCount(0);
  const files = page.getByRole('group', { name: 'CSV and JSON files', exact: true });
  await files.getByRole('button', { name: 'Add value' }).click();
  await expect(files.getByRole('textbox', { name: 'Files 1' })).toHaveValue('');
  // with a component, Default lists its actions instead
  await expect(page.getByText(NO_DEFAULT_ACTIONS)).toHaveCount(0);
  await page.setViewportSize({ width: 375, height: 812 });
  await files.getByRole('textbox', { name: 'Files 1' }).fill('demo-files');
  await screenshot(page, 'lab-pipeline-form-files-375');
  await expect(files.getByRole('textbox', { name: 'Files 1' })).toHaveValue('demo-files');
});

test('server validation shows a red banner and the field errors inline', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, DEMO.owner, NEW);
  // PostgreSQL needs a user and a database; the demo seed configures no PostgreSQL source.
  // 'tap-postgres', not 'postgres': the loader target-postgres is labelled PostgreSQL too.
  await addComponent(page, 'tap-postgres', 'PostgreSQL');
  await addComponent(page, 'store', 'Workspace data store');
  await page.getByRole('textbox', { name: 'Name' }).fill('x'.repeat(300));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('alert').first()).toContainText('Validation failed');
  await expect(page.getByText('must be at most 255 characters')).toBeVisible();
  await expect(page.getByText("Setting 'User' is required")).toBeVisible();
  await page.getByRole('alert').first().scrollIntoViewIfNeeded();
  await screenshot(page, 'lab-pipeline-form-errors-1280');
  // An empty name disables Save.
  await page.getByRole('textbox', { name: 'Name' }).fill('');
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
});

test('a schedule shows its next runs, refuses a bad cron, and the pipeline saves as draft (375 px)', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, DEMO.owner, NEW);
  await addComponent(page, 'demo', 'Demo data');
  await addComponent(page, 'store', 'Workspace data store');
  await page.getByRole('textbox', { name: 'Name' }).fill(unique('Scheduled demo'));
  const schedule = page.getByRole('group', { name: 'Schedule' });
  await schedule.getByRole('radio', { name: 'Daily' }).check();
  const runs = page.getByLabel('Next runs').getByRole('listitem');
  await expect(runs).toHaveCount(3);
  await expect(runs.first()).toContainText(/\d{4}-\d{2}-\d{2} 00:00/);
  await schedule.getByRole('radio', { name: 'Custom' }).check();
  const cron = page.getByRole('textbox', { name: 'Cron expression' });
  await cron.fill('61 * * * *');
  await expect(page.getByText(/Invalid cron expression/)).toBeVisible();
  await expect(page.getByLabel('Next runs')).toHaveCount(0);
  await cron.fill('*/30 * * * *');
  await expect(runs).toHaveCount(3);
  await expect(runs.first()).toContainText(/:(00|30)$/);
  // On small screens help is a panel of its own with a Close button.
  await page.getByRole('button', { name: 'Help' }).click();
  await expect(page.getByLabel('Help').getByText('Data Import', { exact: true })).toBeVisible();
  await screenshot(page, 'lab-pipeline-form-help-375');
  await page.getByLabel('Help').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByLabel('Help')).toHaveCount(0);
  await cron.scrollIntoViewIfNeeded();
  await screenshot(page, 'lab-pipeline-form-schedule-375');
  await page.getByRole('button', { name: 'Save as draft' }).click();
  await expect(page).toHaveURL(new RegExp(`/lab/${SEED.workspaceId}/pipelines/[^/]+$`));
  await expect(page).not.toHaveURL(/\/new$/);
  await expect(page.getByRole('textbox', { name: 'Cron expression' })).toHaveValue('0 */30 * * * *');
});

/** The rows of a seeded dataset, read through its 'data' link as any API client would. */
async function datasetRows(alias: string): Promise<unknown> {
  const token = await ownerToken();
  const dataset = await apiCall(token, 'GET', `/api/workspaces/${SEED.workspaceId}/datasets/${alias}`);
  expect(dataset.status).toBe(200);
  return (await apiCall(token, 'GET', linkOf(dataset.body, REL.data))).body;
}

test("a second demo import gets tables of its own: the form asks before sharing the demo's, the run leaves every demo number as it was (1280 and 375)", async ({ page }) => {
  // the seeded run has loaded the demo tables by now; these are what the demo datasets show
  const aliases = ['operations/orders-total', 'sales/orders-by-country', 'marketing/sessions-by-device'];
  const before = await Promise.all(aliases.map(datasetRows));
  expect(JSON.stringify(before[0])).toMatch(/"orders":[1-9]/);

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, DEMO.owner, NEW);
  await addComponent(page, 'demo', 'Demo data');
  await addComponent(page, 'store', 'Workspace data store');
  const name = unique('UX demo import');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  const prefix = page.getByRole('group', { name: 'Workspace data store' }).getByRole('textbox', { name: 'Table prefix' });
  await expect(prefix).toHaveAttribute('placeholder', 'named from the pipeline when it is saved');
  // the empty prefix is where the seeded demo pipeline loads: the form asks before sharing it
  await prefix.fill('x');
  await prefix.fill('');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const question = page.getByRole('dialog', { name: 'Share these tables?' });
  await expect(question).toContainText("Pipeline 'Demo sales data' already loads the same data into unprefixed tables");
  await expect(question).toHaveCSS('opacity', '1'); // opened, not fading in
  await screenshot(page, 'lab-share-tables-1280');
  await question.getByRole('button', { name: 'Change prefix' }).click();
  await expect(question).toBeHidden();
  await expect(page).toHaveURL(/\/new$/);
  // its own prefix (unique, so a retried test never meets the first attempt's pipeline)
  const own = `ux_${Date.now().toString(36)}_`;
  await prefix.fill(own);
  // Save & run: saved, started, and the list says so; its log names the tables it writes
  await page.getByRole('button', { name: 'Save & run' }).click();
  await expect(page).toHaveURL(new RegExp(`/lab/${SEED.workspaceId}/pipelines$`));
  await expect(page.locator('.fui-ToastTitle', { hasText: `${name} saved: its run has started.` })).toBeVisible();
  const row = await searchPipelines(page, name);
  await expect(row).toHaveCount(1);
  await screenshot(page, 'lab-save-and-run-1280');
  await expect(row.locator('[data-status="COMPLETE"]').first()).toBeVisible({ timeout: 45_000 });
  await row.getByRole('button', { name: /^Log of job/ }).first().click();
  const log = page.getByRole('dialog', { name: 'Job log' });
  await expect(log.getByText(`stream orders → table ${own}orders`)).toBeVisible();
  await log.getByRole('button', { name: 'Close' }).click();

  expect(await Promise.all(aliases.map(datasetRows))).toEqual(before);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`/l/${SEED.workspaceId}/dataset/operations/orders-total`);
  await expect(page.getByRole('heading', { level: 1, name: 'Orders to Date' })).toBeVisible();
  await screenshot(page, 'lab-second-demo-import-orders-375');
});
