import fs from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

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

/** Saves a screenshot for people to look at (tests/e2e/screenshots/NAME.png). */
export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // The page scrolls inside the shell's main area, so the viewport is the whole picture.
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/**
 * A brand-new account made through the provider's own sign-up page and verified through the link
 * mailed to the outbox; ends signed out, on the login view. Keeps tests that change a user's
 * workspaces away from the demo users.
 */
export async function signUpAndVerify(page: Page, name: string): Promise<{ email: string; password: string }> {
  const { mailedLink } = await import('../support/auth');
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}@example.com`;
  const password = 'a-long-password';
  await page.goto('/');
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  // The provider signs nobody in at sign-up: the same answer whether or not the address has an account.
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  // Verified from outside this browser (a mail client elsewhere): opened here, the link would sign
  // the newcomer straight in (issue 38, tests/e2e/email-links.spec.ts), and callers sign in themselves.
  const verified = await fetch(await mailedLink(baseUrl(), email, 'verify-email'), { redirect: 'manual' });
  expect(verified.status).toBe(303);
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  return { email, password };
}

/** POST an invitation as the demo owner (a real server-side event for the invitee). */
export async function inviteAsOwner(workspaceId: string, email: string) {
  const { signIn: signInByHttp } = await import('../support/auth');
  const owner = await signInByHttp(baseUrl(), DEMO.owner);
  const response = await fetch(`${baseUrl()}/api/workspaces/${workspaceId}/invitations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  expect(response.status).toBe(201);
}

/**
 * Dismisses the workspace's setup tasks (as the owner, through the API). Other specs leave drafts
 * that open 'finish configuring' tasks, and an admin with open tasks lands on them (spec 000 §4).
 */
export async function dismissSetupTasks(workspaceId: string) {
  const { signIn: signInByHttp } = await import('../support/auth');
  const { SETUP_TASK_TYPES } = await import('../../src/domain/setupTasks');
  const owner = await signInByHttp(baseUrl(), DEMO.owner);
  const listed = await apiCall(owner.accessToken, 'GET', `workspaces/${workspaceId}/jobs?type=${SETUP_TASK_TYPES.join(',')}&size=100`);
  expect(listed.status).toBe(200);
  const jobs = ((listed.body as unknown as { _embedded?: { jobs?: Resource[] } })._embedded?.jobs ?? []);
  for (const job of jobs) expect((await apiCall(owner.accessToken, 'DELETE', `jobs/${job.id}`)).status).toBe(204);
}

/** A HAL resource as the API tests read it: an id, maybe a name, and links. */
export type Resource = { id: string; name: string; _links: Record<string, { href: string }> };

/** Calls the API as `token` (an href, or a path under /api/), for setting up what a test needs. */
export async function apiCall(token: string, method: string, href: string, body?: unknown): Promise<{ status: number; body: Resource }> {
  const response = await fetch(new URL(href, `${baseUrl()}/api/`).toString(), {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/hal+json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as Resource };
}

export function linkOf(resource: Resource, rel: string): string {
  const link = resource._links[rel];
  if (!link) throw new Error(`no '${rel}' link on ${JSON.stringify(resource)}`);
  return link.href;
}

/** The pipeline editor's Add component: opens the picker, searches, ticks the plugin and adds it (each addition auto-saves a draft). */
export async function addComponent(page: Page, search: string, label: string) {
  await page.getByRole('button', { name: 'Add component' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add component' });
  await dialog.getByRole('tab', { name: 'New' }).click();
  await dialog.getByRole('searchbox', { name: 'Search components' }).fill(search);
  await dialog.getByRole('checkbox', { name: new RegExp(label) }).check();
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('group', { name: label, exact: true })).toBeVisible();
  await expect(page.getByText('Saving draft')).toHaveCount(0);
}

/**
 * Searches the Lab's pipeline list for `name` and waits until the search has answered (no other
 * pipeline's row left), so the row does not move under a click when the answer arrives: a click
 * on a row of the unfiltered list just before it re-rendered was lost on a loaded machine.
 */
export async function searchPipelines(page: Page, name: string): Promise<Locator> {
  await page.getByPlaceholder('Search pipelines...').fill(name);
  await expect(page.locator('[data-pipeline]').filter({ hasNotText: name })).toHaveCount(0);
  return page.locator(`[data-pipeline="${name}"]`);
}

/**
 * Waits until the demo pipelines' first runs have loaded orders and customers (the server's first
 * start fills the store), for the specs that read what they loaded. Answers the owner's token and
 * the workspace, for what a spec sets up next.
 */
export async function demoTablesLoaded(workspaceId: string): Promise<{ token: string; workspace: Resource }> {
  const { signIn: signInByHttp } = await import('../support/auth');
  const { REL } = await import('../../src/domain/relations');
  const { storeTablesSchema } = await import('../../src/domain/resources');
  const token = (await signInByHttp(baseUrl(), DEMO.owner)).accessToken;
  const workspace = (await apiCall(token, 'GET', `/api/workspaces/${workspaceId}`)).body;
  await expect
    .poll(async () => storeTablesSchema.parse((await apiCall(token, 'GET', linkOf(workspace, REL.tables))).body).tables.filter((t) => t.lastLoad !== null).map((t) => t.name), { timeout: 120_000, intervals: [1_000, 2_000, 5_000] })
    .toEqual(expect.arrayContaining(['orders', 'customers']));
  return { token, workspace };
}
