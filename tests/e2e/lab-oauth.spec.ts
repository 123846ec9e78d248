import { expect, test, type Page } from './fixtures';
import { DEMO as SEED } from '../../server/seed';
import { addComponent, DEMO, screenshot, signIn } from './support';

// OAuth connect and every setting kind on the pipeline form (spec 001 §2, §4, §5, §7). The built-in
// catalogue has no OAuth source yet, so the test gives the demo extractor's plugin definition the
// settings of one (an OAUTH setting, its authorization url and scope) and one setting of every
// kind, in the pipeline the browser reads. Everything else is real: the component, the popup, the
// local provider (started by global-setup), the server's code exchange and Disconnect.

const NEW = `/lab/${SEED.workspaceId}/pipelines/new`;
const authorizationUrl = () => {
  const url = process.env.E2E_OAUTH_AUTHORIZATION_URL;
  if (!url) throw new Error('E2E_OAUTH_AUTHORIZATION_URL is not set: run through playwright.config.ts');
  return url;
};

const EVERY_KIND = () => [
  { name: 'api_key', label: 'API key', kind: 'PASSWORD' },
  { name: 'contact', label: 'Contact', kind: 'EMAIL' },
  { name: 'limit', label: 'Limit', kind: 'INTEGER' },
  { name: 'since', label: 'Since', kind: 'DATE_ISO8601' },
  { name: 'region', label: 'Region', kind: 'OPTIONS', options: [{ label: 'Europe', value: 'eu' }, { label: 'United States', value: 'us' }] },
  { name: 'headers', label: 'Headers', kind: 'OBJECT' },
  { name: 'accounts', label: 'Accounts', kind: 'ARRAY' },
  { name: 'verbose', label: 'Verbose', kind: 'BOOLEAN' },
  { name: 'key_file', label: 'Key file', kind: 'FILE', encoding: 'BASE64' },
  { name: 'internal', label: 'Internal', kind: 'HIDDEN', value: 'x' },
  { name: 'vault_secret', label: 'Vault secret', kind: 'STRING', encoding: 'AZURE_KEY_VAULT_SECRET' },
  { name: 'oauth_credentials', label: 'Google account', kind: 'OAUTH' },
  { name: 'spreadsheet_id', label: 'Spreadsheet', kind: 'STRING' },
  { name: 'oauth_credentials.authorization_url', label: 'Authorization url', kind: 'HIDDEN', value: authorizationUrl() },
  { name: 'oauth_credentials.scope', label: 'Scope', kind: 'HIDDEN', value: 'files.read' },
];

/** The demo extractor's plugin, as the browser reads it, gains the settings above. */
async function withOAuthPlugin(page: Page) {
  await page.route(/\/api\/pipelines\/[0-9a-f-]{36}$/, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { _embedded?: { dataComponents?: { name: string; _embedded?: { dataplugin?: { settings?: unknown[] } } }[] } };
    const demo = body._embedded?.dataComponents?.find((c) => c.name === 'tap-demo');
    if (demo?._embedded?.dataplugin) demo._embedded.dataplugin.settings = [...(demo._embedded.dataplugin.settings ?? []), ...EVERY_KIND()];
    await route.fulfill({ response, json: body });
  });
}

/** A saved pipeline of the demo extractor, opened on its edit page with the OAuth plugin definition. */
async function openSavedPipeline(page: Page, name: string) {
  await signIn(page, DEMO.owner, NEW);
  await addComponent(page, 'demo', 'Demo data');
  await addComponent(page, 'store', 'Workspace data store');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/lab/${SEED.workspaceId}/pipelines/[0-9a-f-]{36}$`));
  await withOAuthPlugin(page);
  await page.reload();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  return page.getByRole('group', { name: 'Demo data' });
}

test('connects a source through the OAuth provider and disconnects it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const demo = await openSavedPipeline(page, `OAuth ${Date.now().toString(36)}`);
  const connect = demo.getByRole('button', { name: 'Connect' });
  await expect(connect).toBeEnabled();
  const popupOpened = page.waitForEvent('popup');
  await connect.click();
  const popup = await popupOpened;
  // the popup opens on the app's own /oauth route at 700×800 and comes back there with the code
  await expect.poll(() => popup.viewportSize()).toEqual({ width: 700, height: 800 });
  await expect(demo.getByText(/Connected \(oauth2-google\) · token expires/)).toBeVisible();
  await expect(demo.getByText(/last refreshed/)).toBeVisible();
  await expect.poll(() => popup.isClosed()).toBe(true);
  // the spreadsheet picker reads the provider's drive with a token from the refresh exchange
  await demo.getByRole('button', { name: 'Choose from drive…' }).click();
  await demo.getByRole('combobox', { name: 'Spreadsheet choices' }).click();
  await page.getByRole('option', { name: 'Revenue 2026' }).click();
  await expect(demo.getByRole('textbox', { name: 'Spreadsheet', exact: true })).toHaveValue('sheet-1');
  await demo.getByRole('button', { name: 'Disconnect' }).scrollIntoViewIfNeeded();
  await screenshot(page, 'lab-oauth-connected-1280');

  // the credentials are the server's: a reload still shows them connected
  await page.reload();
  await expect(demo.getByText(/Connected \(oauth2-google\)/)).toBeVisible();
  await demo.getByRole('button', { name: 'Refresh token' }).click();
  await expect(demo.getByText(/Connected \(oauth2-google\)/)).toBeVisible();
  await demo.getByRole('button', { name: 'Disconnect' }).click();
  await expect(demo.getByRole('button', { name: 'Connect' })).toBeVisible();
  await page.reload();
  await expect(demo.getByRole('button', { name: 'Connect' })).toBeVisible();
});

test('a blocked popup says so', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const demo = await openSavedPipeline(page, `Blocked ${Date.now().toString(36)}`);
  await page.evaluate(() => {
    window.open = () => null;
  });
  await demo.getByRole('button', { name: 'Connect' }).click();
  await expect(demo.getByText('Popup blocked. Disable popup blocker to authorise data source.')).toBeVisible();
});

for (const width of [1280, 375]) {
  test(`every kind of setting has its input (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const demo = await openSavedPipeline(page, `Kinds ${width} ${Date.now().toString(36)}`);
    await expect(demo.getByLabel('API key')).toHaveAttribute('type', 'password');
    await demo.getByLabel('API key').fill('s3cret');
    await expect(demo.getByLabel('Contact')).toHaveAttribute('type', 'email');
    await demo.getByLabel('Contact').fill('ops@example.com');
    await expect(demo.getByRole('spinbutton', { name: 'Limit' })).toHaveAttribute('type', 'number');
    await demo.getByRole('spinbutton', { name: 'Limit' }).fill('25');
    await expect(demo.getByLabel('Since')).toHaveAttribute('type', 'datetime-local');
    await demo.getByLabel('Since').fill('2026-01-02T03:04');
    await demo.getByRole('combobox', { name: 'Region' }).click();
    await page.getByRole('option', { name: 'United States' }).click();
    await expect(demo.getByRole('combobox', { name: 'Region' })).toContainText('United States');
    await demo.getByRole('textbox', { name: 'Headers' }).fill('{"x-team": "data"}');
    await demo.getByRole('button', { name: 'Add value' }).click();
    await demo.getByRole('textbox', { name: 'Accounts 1' }).fill('acct-1');
    await expect(demo.getByText('Adding a value will override all inherited values')).toBeVisible();
    await demo.getByRole('switch', { name: 'Verbose' }).check();
    await demo.locator('input[type="file"][name="key_file"]').setInputFiles({ name: 'key.json', mimeType: 'application/json', buffer: Buffer.from('{"type":"service_account"}') });
    await expect(demo.getByText('This setting is referencing a secret from the configured Azure key vault')).toBeVisible();
    await expect(demo.getByLabel('Internal')).toHaveCount(0);
    await expect(demo.getByRole('button', { name: 'Connect' })).toBeVisible();
    // clearing an array item removes it
    await demo.getByRole('textbox', { name: 'Accounts 1' }).fill('');
    await expect(demo.getByRole('textbox', { name: 'Accounts 1' })).toHaveCount(0);
    await demo.getByRole('switch', { name: 'Verbose' }).scrollIntoViewIfNeeded();
    await screenshot(page, `lab-setting-kinds-${width}`);
    await demo.getByRole('button', { name: 'Choose from drive…' }).scrollIntoViewIfNeeded();
    await screenshot(page, `lab-setting-oauth-${width}`);
  });
}
