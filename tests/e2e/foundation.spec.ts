import { expect, test } from './fixtures';
import { DEMO, screenshot, signIn } from './support';

test('the demo owner signs in through the embedded provider and lands in the Lab', async ({ page }) => {
  await signIn(page, DEMO.owner);
  // The owner administers Demo Workspace and its setup tasks are complete: landing goes to the Lab.
  await expect(page).toHaveURL(/\/lab\/[0-9a-f-]{36}\/pipelines$/);
  await expect(page.getByRole('heading', { name: 'Data Imports' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Workspace menu: Demo Workspace/ })).toBeVisible();
  // Spec 000 §9: a session cookie while signed in: strict same-site, secure, path '/', as long as the token.
  await expect.poll(async () => (await page.context().cookies()).find((c) => c.name === 'session_token')).toMatchObject({
    sameSite: 'Strict',
    secure: true,
    path: '/',
  });
  const cookie = (await page.context().cookies()).find((c) => c.name === 'session_token')!;
  expect(cookie.expires - Date.now() / 1000).toBeGreaterThan(3000);
  await screenshot(page, 'owner-lab-1280');
});

test('a user whose email is not verified is told so and ends on /notverified', async ({ page }) => {
  await signIn(page, DEMO.unverified);
  await expect(page).toHaveURL(/\/notverified$/);
  await expect(page.getByText('Please verify your email before logging in.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Please check your email and verify your account' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return to Login' })).toBeVisible();
  await screenshot(page, 'notverified-1280');
});

test('logout shows Logging out, then You are logged out.', async ({ page }) => {
  await signIn(page, DEMO.member);
  await expect(page).toHaveURL(/\/l\/[0-9a-f-]{36}\/feed$/);
  await page.getByRole('button', { name: /Profile menu/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByRole('heading', { name: 'Logging out' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'You are logged out.' })).toBeVisible();
  await screenshot(page, 'logged-out-1280');
  expect((await page.context().cookies()).find((c) => c.name === 'session_token')).toBeUndefined();
  // Signed out for real: the app asks to sign in again.
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test("a signed-in member's next page resumes from the session cookie without the identity SDK, and logout still works", async ({ page }) => {
  await signIn(page, DEMO.member);
  await expect(page).toHaveURL(/\/l\/[0-9a-f-]{36}\/feed$/);
  await expect.poll(async () => (await page.context().cookies()).some((c) => c.name === 'session_token')).toBe(true);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.reload();
  await expect(page.getByRole('list', { name: 'Datasets' }).getByRole('article').first()).toBeVisible();
  await expect(page.getByRole('button', { name: /Profile menu/ })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((path) => path.includes('Auth0Session'))).toEqual([]);
  // Logout loads the SDK, which ends the provider's session too: signed out for real.
  await page.getByRole('button', { name: /Profile menu/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByRole('heading', { name: 'You are logged out.' })).toBeVisible();
  expect(scripts.some((path) => path.includes('Auth0Session'))).toBe(true);
  expect(await page.evaluate(() => window.localStorage.getItem('session_user'))).toBeNull();
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('once the session has ended, a page signed out without the identity SDK forgets the user remembered for it', async ({ page, context }) => {
  await signIn(page, DEMO.member);
  await expect(page).toHaveURL(/\/l\/[0-9a-f-]{36}\/feed$/);
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem('session_user'))).toContain(DEMO.member.email);
  // the cookie's lifetime over, and the provider's session and the SDK's own cache with it
  await context.clearCookies();
  await page.evaluate(() => {
    for (const key of Object.keys(window.localStorage)) if (key !== 'session_user') window.localStorage.removeItem(key);
  });
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('session_user'))).toBeNull();
});

test.describe('first impressions at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the login view and the provider sign-in page fit a phone', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await screenshot(page, 'login-view-375');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByLabel('Password')).toBeVisible();
    await page.getByLabel('Email').fill(DEMO.member.email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Wrong email or password.')).toBeVisible();
    await screenshot(page, 'provider-sign-in-375');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
