import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from './fixtures';
import { DEMO as SEED } from '../../server/seed';
import { baseUrl, inviteAsOwner } from './support';

// Issue 38, item 1: links sent by mail work in any tab, browser or device. Each context below is a
// separate browser (its own cookies and storage), as a phone or another mail client would be.

const PASSWORD = 'a-long-password';
const SHOTS = '/tmp/email-links';

/** The landing screen at 1280 and 375 px, for people to look at (not committed). */
async function bothWidths(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: path.join(SHOTS, `${name}-1280.png`) });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.screenshot({ path: path.join(SHOTS, `${name}-375.png`) });
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function mailed(email: string, linkPart: string) {
  const { mailedLink } = await import('../support/auth');
  return mailedLink(baseUrl(), email, linkPart);
}

test('the verification link opened in a second browser ends on a sign-in form saying "Email verified" with the address, and the first browser gets in without the password', async ({ page, browser }) => {
  const email = `vera-${Date.now()}@example.com`;
  // The first browser signs up and is told to check its email.
  await page.goto('/');
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Name').fill('Vera Verified');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();

  // The link, opened in a second browser (the mail app's own): verified, a fresh sign-in saying so.
  const second = await browser.newContext();
  const phone = await second.newPage();
  await phone.goto(await mailed(email, 'verify-email'));
  await expect(phone).toHaveURL(/\/idp\/interaction\//);
  await expect(phone.getByRole('status')).toContainText('Email verified');
  await expect(phone.getByLabel('Email')).toHaveValue(email);
  await expect(phone.getByText('Invalid state')).toHaveCount(0);
  await bothWidths(phone, 'verified-elsewhere-sign-in');
  await phone.getByLabel('Password').fill(PASSWORD);
  await phone.getByRole('button', { name: 'Sign in' }).click();
  await expect(phone).toHaveURL(/\/setup\/w\/new$/);
  await expect(phone.getByRole('heading', { name: 'Name your workspace' })).toBeVisible();
  await bothWidths(phone, 'verified-elsewhere-onboarding');
  await second.close();

  // The first browser's "Back to sign in" begins a fresh sign-in, which this browser (it signed
  // up) finishes without the password: no "Sign-in expired", no "Invalid state".
  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await expect(page).toHaveURL(/\/setup\/w\/new$/);
  await expect(page.getByRole('heading', { name: 'Name your workspace' })).toBeVisible();
  await bothWidths(page, 'verified-first-tab-onboarding');
});

test('the verification link opened in another tab of the browser that signed up lands signed in at onboarding', async ({ page, context }) => {
  const email = `tara-${Date.now()}@example.com`;
  await page.goto('/');
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Name').fill('Tara Tabs');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();

  // A new tab (its own sessionStorage, where the SDK keeps its login transaction), as a mail client opens it.
  const tab = await context.newPage();
  await tab.goto(await mailed(email, 'verify-email'));
  await expect(tab).toHaveURL(/\/setup\/w\/new$/);
  await expect(tab.getByRole('heading', { name: 'Name your workspace' })).toBeVisible();
  await expect(tab.getByText('Invalid state')).toHaveCount(0);
});

test('an invitation link opened by a new person in a fresh browser: a sign-in form naming the workspace with the address, then sign-up, and into the invited workspace', async ({ browser }) => {
  const email = `ivan-${Date.now()}@example.com`;
  await inviteAsOwner(SEED.workspaceId, email);
  const link = await mailed(email, `/l/${SEED.workspaceId}`);
  expect(new URL(link).searchParams.get('email')).toBe(email);

  const fresh = await browser.newContext();
  const page = await fresh.newPage();
  await page.goto(link);
  await expect(page).toHaveURL(/\/idp\/interaction\//);
  await expect(page.getByRole('status')).toContainText("You're invited to Demo Workspace");
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await bothWidths(page, 'invited-sign-in');

  await page.getByRole('link', { name: 'Create your account' }).click();
  await expect(page.getByRole('status')).toContainText("You're invited to Demo Workspace");
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByLabel('Name').fill('Ivan Invitee');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();

  // The verification link in the same browser: signed in, the invitation accepted, in its workspace.
  await page.goto(await mailed(email, 'verify-email'));
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}/`));
  await expect(page.getByRole('button', { name: /Workspace menu: Demo Workspace/ })).toBeVisible();
  await expect(page.getByRole('article').first()).toBeVisible();
  await bothWidths(page, 'invited-workspace');
  await fresh.close();
});

test("a provider's answer this tab cannot use ('?code' with an unknown state) starts a fresh sign-in with a clean address, never 'Invalid state'", async ({ page }) => {
  await page.goto(`/l/${SEED.workspaceId}/feed?code=not-ours&state=not-ours`);
  await expect(page).toHaveURL(/\/idp\/interaction\//);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Email').fill('member@example.com');
  await page.getByLabel('Password').fill('demo-member');
  await page.getByRole('button', { name: 'Sign in' }).click();
  // back where it was asked for, without the stale answer: the workspace's home, signed in
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}/feed$`));
  await expect(page.getByRole('button', { name: /Workspace menu: Demo Workspace/ })).toBeVisible();
  await expect(page.getByText('Invalid state')).toHaveCount(0);
});
