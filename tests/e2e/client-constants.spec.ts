import { expect, test } from '@playwright/test';
import { DEMO, signIn } from './support';

test('/oauth keeps the returned code for the data-source popup', async ({ page }) => {
  await page.goto('/oauth?code=popup-code-123&state=xyz');
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem('oauth_code'))).toBe('popup-code-123');
  await expect(page.getByRole('status')).toBeVisible();
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
