import { expect, test } from './fixtures';
import { DEMO as SEED } from '../../server/seed';
import { clientCredentialsToken } from '../support/auth';
import { baseUrl, DEMO, screenshot, signIn } from './support';

test('editing the profile shows both validation messages, then saves', async ({ page }) => {
  await signIn(page, DEMO.member, '/p/profile');
  await expect(page).toHaveURL(/\/p\/profile$/);
  await expect(page.getByRole('heading', { name: 'Profile View' })).toBeVisible();
  const name = page.getByRole('textbox', { name: 'Name' });
  const email = page.getByRole('textbox', { name: 'Email' });

  await name.fill('');
  await email.fill('not-an-address');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Enter your name')).toBeVisible();
  await expect(page.getByText('Enter valid email address')).toBeVisible();
  await screenshot(page, 'profile-validation-1280');

  await name.fill('Maxine Member');
  await email.fill(DEMO.member.email);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Profile updated successfully!').first()).toBeVisible();
  // The shell's profile follows: the toolbar shows the new name.
  await expect(page.getByRole('button', { name: 'Profile menu: Maxine Member' })).toBeVisible();
  // Saved for real: still there after a reload.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Maxine Member');

  await page.getByRole('textbox', { name: 'Name' }).fill(DEMO.member.name);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Profile updated successfully!').first()).toBeVisible();
});

test('an API key is created, its secret calls the API, then it is renamed and deleted', async ({ page }) => {
  await signIn(page, DEMO.owner, '/api-key');
  await expect(page.getByRole('heading', { name: 'API Keys', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'New API token' }).click();
  const dialog = page.getByRole('dialog');
  const create = dialog.getByRole('button', { name: 'Create' });
  await expect(create).toBeDisabled();
  await dialog.getByLabel('Name').fill('CI pipeline');
  await create.click();

  // Once issued the dialog is an alert dialog: only Done closes it.
  const issued = page.getByRole('alertdialog');
  await expect(issued.getByText('Your client secret will not be shown again')).toBeVisible();
  const clientId = await issued.getByRole('textbox', { name: 'Client ID' }).inputValue();
  const secret = await issued.getByRole('textbox', { name: 'Client secret' }).inputValue();
  expect(secret.length).toBeGreaterThan(20);
  await screenshot(page, 'apikey-issued-1280');

  // The key really works: client credentials at the identity provider, then the API.
  const { accessToken } = await clientCredentialsToken(baseUrl(), clientId, secret);
  const root = await fetch(`${baseUrl()}/api/`, { headers: { authorization: `Bearer ${accessToken}` } });
  expect(root.status).toBe(200);

  await issued.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText(secret)).toHaveCount(0);

  // Rename in place: saved on Enter.
  const row = page.getByRole('row').filter({ hasText: clientId });
  const nameInput = row.getByRole('textbox', { name: 'Key name' });
  await nameInput.fill('Nightly export');
  await nameInput.press('Enter');
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: clientId }).getByRole('textbox', { name: 'Key name' })).toHaveValue('Nightly export');

  // Two-step delete; afterwards the key's token no longer opens the API.
  await page.getByRole('button', { name: 'Delete Nightly export' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('row').filter({ hasText: clientId })).toHaveCount(0);
  const after = await fetch(`${baseUrl()}/api/`, { headers: { authorization: `Bearer ${accessToken}` } });
  expect(after.status).toBe(401);
});

test('the assistant opens a matching dataset, or says it found nothing', async ({ page }) => {
  await signIn(page, DEMO.member);
  await page.getByRole('button', { name: 'Ask a question' }).click();
  const question = page.getByRole('textbox', { name: 'Your question' });
  await question.fill('zzzz qqqq xxxx');
  await question.press('Enter');
  await expect(page.getByText('We found no information related to your request.')).toBeVisible();
  await screenshot(page, 'assistant-no-answer-1280');

  await question.fill('What was our monthly revenue?');
  await question.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}/dataset/sales/monthly-revenue$`));
  await expect(page.getByRole('heading', { name: 'Monthly Revenue' })).toBeVisible();
});

test('change password sends the reset request and shows the answer; the mail lands in the outbox', async ({ page }) => {
  await signIn(page, DEMO.member, '/change-password');
  await expect(page.getByText("We've just sent you an email to reset your password.")).toBeVisible();
});

test('the debug page shows a token and pings the API', async ({ page }) => {
  await signIn(page, DEMO.owner, '/debug');
  await page.getByRole('button', { name: 'Ping' }).click();
  await expect(page.getByText('Analytics Sandbox')).toBeVisible();
});

test.describe('small screens (375 px)', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the shell collapses into a drawer and pages fit', async ({ page }) => {
    await signIn(page, DEMO.member);
    await expect(page).toHaveURL(/\/feed$/);
    // the picture and the overflow check are of the feed, not of its loading placeholders
    await expect(page.getByRole('list', { name: 'Datasets' }).getByRole('article').first()).toBeVisible();
    await screenshot(page, 'member-feed-375');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    await page.waitForTimeout(500); // let the drawer finish sliding in before the picture
    await screenshot(page, 'drawer-375');
    await page.getByRole('link', { name: 'Explore' }).click();
    await expect(page).toHaveURL(/\/explore$/);
    await page.goto('/api-key');
    await expect(page.getByRole('heading', { name: 'API Keys', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'New API token' })).toBeEnabled();
    await screenshot(page, 'apikeys-375');
  });
});
