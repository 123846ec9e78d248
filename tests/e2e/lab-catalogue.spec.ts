import { expect, test, type Page } from './fixtures';
import { DEMO as SEED } from '../../server/seed';
import { DEMO, screenshot, signIn } from './support';

// The plugin catalogue and the other Lab pages (spec 001 §2) against the real server: install a
// Meltano plugin from Available, upload a discovery.yml on Custom, and read the project and help.

const catalogue = (tab: number, type?: string) => `/lab/${SEED.workspaceId}/dataplugins?tab=${String(tab)}${type ? `&type=${type}` : ''}`;

/** The toast's title (its text is also read out by a live region). */
const toast = (page: Page, text: string) => page.locator('.fui-ToastTitle').filter({ hasText: text });

async function open(page: Page, target: string) {
  await signIn(page, DEMO.owner, target);
  await expect(page.getByRole('heading', { name: 'Plugins' })).toBeVisible();
}

test('install a plugin from Available, then add a component from it on Installed', async ({ page }) => {
  await open(page, catalogue(1));
  await expect(page.getByRole('tab', { name: 'Available', selected: true })).toBeVisible();
  const github = page.locator('[data-plugin="extractors/tap-github--meltanolabs"]');
  await expect(github).toBeVisible();
  await expect(github.getByText('Runs with Meltano')).toBeVisible();
  await expect(github.getByRole('link', { name: 'Documentation' })).toHaveAttribute('href', 'https://hub.meltano.com/extractors/tap-github--meltanolabs');
  await screenshot(page, 'lab-catalogue-available-1280');

  // Searching narrows the page; installing moves the plugin to Installed.
  await page.getByPlaceholder('Search plugins...').fill('salesforce');
  const salesforce = page.locator('[data-plugin="extractors/tap-salesforce--meltanolabs"]');
  await expect(salesforce).toBeVisible();
  await expect(github).toBeHidden();
  await salesforce.getByRole('button', { name: 'Install' }).click();
  await expect(toast(page, 'Salesforce installed')).toBeVisible();
  await expect(salesforce).toBeHidden();

  await page.getByRole('tab', { name: 'Installed' }).click();
  await expect(page).toHaveURL(/tab=0/);
  const installed = page.locator('[data-plugin="extractors/tap-salesforce--meltanolabs"]');
  await expect(installed).toBeVisible();
  await expect(page.locator('[data-plugin="extractors/tap-demo--builtin"]').getByText('Runs here')).toBeVisible();
  await screenshot(page, 'lab-catalogue-installed-1280');

  // Remove asks first; cancelling keeps it.
  await installed.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Remove this plugin from the workspace...')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(installed).toBeVisible();

  await installed.getByRole('button', { name: 'Add component' }).click();
  await expect(page).toHaveURL(new RegExp(`/lab/${SEED.workspaceId}/pipelines/new\\?dataplugin=extractors%2Ftap-salesforce--meltanolabs$`));
});

test('the type filter keeps to loaders, and the Installed tab removes an unused plugin', async ({ page }) => {
  await open(page, catalogue(1, 'LOADER'));
  await expect(page.locator('[data-plugin="loaders/target-snowflake--meltanolabs"]')).toBeVisible();
  await expect(page.locator('[data-plugin="extractors/tap-csv--meltanolabs"]')).toHaveCount(0);
  await page.locator('[data-plugin="loaders/target-snowflake--meltanolabs"]').getByRole('button', { name: 'Install' }).click();
  await expect(toast(page, 'Snowflake installed')).toBeVisible();
  await page.getByRole('tab', { name: 'Installed' }).click();
  const snowflake = page.locator('[data-plugin="loaders/target-snowflake--meltanolabs"]');
  await snowflake.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page, 'Snowflake deleted')).toBeVisible();
  await expect(snowflake).toBeHidden();
});

test('upload a discovery.yml on Custom: errors line by line, then its plugins', async ({ page }) => {
  await open(page, catalogue(2));
  const next = page.getByRole('button', { name: 'Next' });
  await expect(next).toBeDisabled();
  const text = page.getByLabel('discovery.yml', { exact: true });
  await expect(text).toHaveAttribute('rows', '16');

  await text.fill('extractors:\n  - name: tap-bad\n    settings:\n      - name: a\n        kind: robot\nloaders: nope\n');
  await next.click();
  const errors = page.getByRole('list', { name: 'Errors' });
  await expect(errors.getByText(/^extractors\[0\]\.settings\[0\]\.kind - must be one of/)).toBeVisible();
  await expect(errors.getByText('discovery.loaders - must be a list of plugins')).toBeVisible();
  await screenshot(page, 'lab-catalogue-upload-errors-1280');

  await text.fill('version: 22\n');
  await next.click();
  await expect(page.getByText('No Meltano plugins found')).toBeVisible();

  // From a file, as an admin would.
  await page.getByLabel('discovery.yml file').setInputFiles({
    name: 'discovery.yml',
    mimeType: 'text/yaml',
    buffer: Buffer.from('extractors:\n  - name: tap-acme\n    label: Acme CRM\n    variant: acme\n    description: Accounts and deals from Acme.\n    settings:\n      - name: api_key\n        kind: password\nmappers:\n  - name: map-acme\n    variant: acme\n'),
  });
  await expect(text).toHaveValue(/tap-acme/);
  await next.click();
  await expect(page.getByText('2 plugins published to this workspace')).toBeVisible();
  const acme = page.locator('[data-plugin="extractors/tap-acme--acme"]');
  await expect(acme.getByText('Custom')).toBeVisible();
  await screenshot(page, 'lab-catalogue-upload-published-1280');

  // A custom plugin is added to a Meltano project by hand: the alert says how.
  await acme.getByRole('button', { name: 'Add component' }).click();
  await expect(acme.getByText('meltano add extractor tap-acme --variant acme')).toBeVisible();

  await page.getByRole('tab', { name: 'Installed' }).click();
  await expect(page.locator('[data-plugin="mappers/map-acme--acme"]')).toBeVisible();
});

test('the project page lists components by type with the active environment; help leads to every Lab page', async ({ page }) => {
  await signIn(page, DEMO.owner, `/lab/${SEED.workspaceId}/project`);
  await expect(page.getByRole('heading', { name: 'Project' })).toBeVisible();
  await expect(page.getByLabel('Active environment')).toHaveValue(/\S/);
  await expect(page.getByLabel('Active environment')).toHaveAttribute('readonly', '');
  for (const tab of ['Extractors', 'Mappers', 'Loaders', 'Transformers', 'Utilities']) await expect(page.getByRole('tab', { name: tab })).toBeVisible();
  await expect(page.getByRole('group', { name: 'tap-demo' }).or(page.getByLabel('tap-demo')).first()).toBeVisible();
  await screenshot(page, 'lab-project-1280');
  await page.getByRole('tab', { name: 'Loaders' }).click();
  await expect(page.getByLabel('target-store').first()).toBeVisible();

  await page.goto(`/lab/${SEED.workspaceId}/help`);
  await expect(page.getByRole('heading', { name: 'Help' })).toBeVisible();
  await screenshot(page, 'lab-help-1280');
  await page.getByRole('link', { name: 'Plugins' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/lab/${SEED.workspaceId}/dataplugins`));

  await page.goto(`/lab/${SEED.workspaceId}/datasources`);
  await expect(page.getByRole('heading', { name: 'Data Sources' })).toBeVisible();
  await expect(page.getByLabel('tap-demo').first()).toBeVisible();
  await screenshot(page, 'lab-datasources-1280');
  await page.goto(`/lab/${SEED.workspaceId}/channels`);
  await expect(page.getByRole('heading', { name: 'Channels' })).toBeVisible();
  await screenshot(page, 'lab-channels-1280');
});

test('on a phone the catalogue, the upload and the project fit the screen', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await open(page, catalogue(1));
  await expect(page.locator('[data-plugin="extractors/tap-github--meltanolabs"]')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshot(page, 'lab-catalogue-available-375');
  await page.getByRole('tab', { name: 'Custom' }).click();
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await screenshot(page, 'lab-catalogue-upload-375');
  await page.goto(`/lab/${SEED.workspaceId}/project`);
  await expect(page.getByLabel('tap-demo').first()).toBeVisible();
  await screenshot(page, 'lab-project-375');
  await page.goto(`/lab/${SEED.workspaceId}/datasources`);
  await expect(page.getByLabel('tap-demo').first()).toBeVisible();
  await screenshot(page, 'lab-datasources-375');
});
