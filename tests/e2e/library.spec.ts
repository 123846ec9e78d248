import { expect, test } from './fixtures';
import { WORKSPACE_ID } from './datasetSupport';
import { DEMO, screenshot, signIn } from './support';

// Starred, News, Channels and the Library (spec 002 §2) against the real server and the seeded
// demo workspace, signed in through the real identity provider.

const at = (part: string) => `/l/${WORKSPACE_ID}/${part}`;

test('starred: star a dataset, find it on Starred; screenshots at 1280 and 375', async ({ page }) => {
  await signIn(page, DEMO.member, at('starred'));
  await expect(page.getByRole('heading', { level: 1, name: 'Starred' })).toBeVisible();
  await page.goto(at('dataset/top-customers'));
  await page.getByRole('button', { name: 'Star', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Unstar', exact: true })).toBeVisible();
  await page.goto(at('starred'));
  await expect(page.getByRole('list', { name: 'Datasets' }).getByRole('link').first()).toBeVisible();
  await screenshot(page, 'starred-1280');
  await page.setViewportSize({ width: 375, height: 812 });
  await screenshot(page, 'starred-375');
});

test('news: items with their dataset, channel chips filter and clear', async ({ page }) => {
  await signIn(page, DEMO.owner, at('news'));
  await expect(page.getByRole('heading', { level: 1, name: 'News' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'News' }).getByRole('article').first()).toBeVisible();
  const chip = page.getByRole('group', { name: 'News channels' }).getByRole('button', { name: 'Sales' });
  await chip.click();
  await expect(page).toHaveURL(/news\?q=in%3Asales/);
  await expect(chip).toHaveAttribute('aria-pressed', 'true');
  await screenshot(page, 'news-1280');
  await chip.click();
  await expect(page).toHaveURL(new RegExp(`${at('news')}$`));
  await page.setViewportSize({ width: 375, height: 812 });
  await screenshot(page, 'news-375');
});

test('channels: select a channel (in:{name}), the others dim, select again to clear', async ({ page }) => {
  await signIn(page, DEMO.member, at('channels'));
  await expect(page.getByRole('heading', { level: 1, name: 'Channels' })).toBeVisible();
  const sales = page.getByRole('list', { name: 'Channels' }).getByRole('button', { name: /Sales/ });
  await sales.click();
  await expect(page).toHaveURL(/channels\?search=in%3Asales/);
  await expect(sales).toHaveAttribute('aria-pressed', 'true');
  // the summary: how many matched and how long the answer took
  const summary = page.getByRole('status').filter({ hasText: /\d+ results? in (less than one second|\d+ seconds?)/ });
  await expect(summary).toBeVisible();
  await screenshot(page, 'channels-1280');
  await sales.click();
  await expect(page).toHaveURL(new RegExp(`${at('channels')}$`));
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(summary).toBeVisible();
  await expect(page.getByRole('list', { name: 'Datasets' }).getByRole('link').first()).toBeVisible();
  await screenshot(page, 'channels-375');
});

test('library: create a list (name required), open it, make it public, delete it', async ({ page }) => {
  await signIn(page, DEMO.member, at('library'));
  await expect(page).toHaveURL(new RegExp(`${at('library/lists')}$`));
  await page.getByRole('button', { name: 'New list' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Name is required')).toBeVisible();
  const name = `E2E list ${String(Date.now())}`;
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('button', { name: 'Save' }).click();
  const row = page.getByRole('listitem').filter({ hasText: name });
  await expect(row.getByText('Private')).toBeVisible();
  await screenshot(page, 'library-1280');
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Make public' }).click();
  await expect(row.getByText('Public')).toBeVisible();
  await row.getByRole('button', { name: new RegExp(`^${name}`) }).click();
  await expect(page.getByRole('navigation', { name: 'Library' })).toContainText(name);
  await expect(page.getByText('No datasets.')).toBeVisible();
  await page.setViewportSize({ width: 375, height: 812 });
  await screenshot(page, 'library-channel-375');
  await page.getByRole('button', { name: 'All' }).click();
  await page.getByRole('listitem').filter({ hasText: name }).getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await expect(page.getByRole('dialog')).toContainText('Remove this list from the workspace...');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: name })).toHaveCount(0);
});
