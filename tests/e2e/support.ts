import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

export const baseUrl = () => {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set: run through playwright.config.ts (global setup)');
  return url;
};

export const DEMO = {
  owner: { email: 'owner@example.com', password: 'demo-owner', name: 'Olivia Owner' },
  member: { email: 'member@example.com', password: 'demo-member', name: 'Max Member' },
  unverified: { email: 'unverified@example.com', password: 'demo-unverified', name: 'Una Verified' },
} as const;

/** Opens `target`, presses Sign in on our login view, and signs in on the identity provider's own page. */
export async function signIn(page: Page, who: { email: string; password: string }, target = '/') {
  await page.goto(new URL(target, baseUrl()).toString());
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/idp\//);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/idp/') && !url.searchParams.has('code'));
}

const SCREENSHOTS = path.join('tests', 'e2e', 'screenshots');

/** Saves a full-page screenshot for people to look at (tests/e2e/screenshots/NAME.png). */
export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
