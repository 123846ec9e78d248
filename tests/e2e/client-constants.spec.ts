import { expect, test } from './fixtures';
import { DEMO, signIn } from './support';

test('/oauth shows the returned code to its opener and refuses a request it did not prepare', async ({ page }) => {
  // The opener polls this window's address for ?code (lab-oauth.spec.ts walks the whole connect).
  await page.goto('/oauth?code=popup-code-123&state=xyz');
  await expect(page.getByText('Authorised.')).toBeVisible();
  await page.goto('/oauth?state=never-prepared');
  await expect(page.getByText(/This authorisation request has expired/)).toBeVisible();
});

test.describe('on an iPhone, outside standalone mode', () => {
  test.use({
    viewport: { width: 390, height: 844 },
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  });

  test('the install hint shows until it is dismissed, and stays dismissed', async ({ page }) => {
    await signIn(page, DEMO.member);
    await expect(page.getByText('Install this app')).toBeVisible();
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByText('Install this app')).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('button', { name: /Profile menu/ })).toBeVisible();
    await expect(page.getByText('Install this app')).toHaveCount(0);
  });
});
