import { expect, test, type Page } from '@playwright/test';
import { DEMO as SEED } from '../../server/seed';
import { DEMO, screenshot, signIn } from './support';

const NEW = `/lab/${SEED.workspaceId}/pipelines/new`;
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}`;

/** Opens the picker, searches, ticks the plugin and adds it (each addition auto-saves a draft). */
async function addComponent(page: Page, search: string, label: string) {
  await page.getByRole('button', { name: 'Add component' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add component' });
  await dialog.getByRole('tab', { name: 'New' }).click();
  await dialog.getByRole('searchbox', { name: 'Search components' }).fill(search);
  await dialog.getByRole('checkbox', { name: new RegExp(label) }).check();
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('group', { name: label })).toBeVisible();
  await expect(page.getByText('Saving draft')).toHaveCount(0);
}

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
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Demo data' }).getByRole('spinbutton', { name: 'Seed' })).toHaveValue('7');
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
