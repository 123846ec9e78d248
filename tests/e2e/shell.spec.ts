import { expect, test, type Page } from './fixtures';
import { DEMO as SEED } from '../../server/seed';
import { DEMO, dismissSetupTasks, inviteAsOwner, screenshot, signIn, signUpAndVerify } from './support';

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });

async function unreadCount(page: Page): Promise<number> {
  const label = (await bell(page).getAttribute('aria-label')) ?? '';
  const match = /(\d+) unread/.exec(label);
  return match ? Number(match[1]) : 0;
}

test('a member lands on the home page of their workspace (HOME_PAGE, default feed)', async ({ page }) => {
  await signIn(page, DEMO.member);
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}/feed$`));
  await expect(page.getByRole('button', { name: /Workspace menu: Demo Workspace/ })).toBeVisible();
  // Members see no Lab switch and no Tasks entry: those need the 'update delete workspace' link.
  await expect(page.getByRole('link', { name: 'Switch to Lab' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Tasks' })).toHaveCount(0);
  // Inviting follows the workspace's 'create invitation' link, which members are not offered.
  await expect(page.getByRole('button', { name: 'Invite people' })).toHaveCount(0);
  await page.getByRole('button', { name: /Workspace menu: Demo Workspace/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Demo Workspace' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Invitations' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  // A workspace that is not theirs sends them back to their landing route; the Lab too.
  await page.goto(`/l/${SEED.sandboxWorkspaceId}/feed`);
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}/feed$`));
  await page.goto(`/lab/${SEED.workspaceId}/pipelines`);
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}/feed$`));
  await page.goto(`/w/${SEED.workspaceId}`);
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}/feed$`));
  // the picture is of the feed, not of its loading placeholders
  await expect(page.getByRole('list', { name: 'Datasets' }).getByRole('article').first()).toBeVisible();
  await screenshot(page, 'member-feed-1280');
  // Only owners create workspaces: anyone else is told they have no account.
  await page.goto('/w/new');
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole('heading', { name: 'You do not have an account.' })).toBeVisible();
});

test('the toolbar search goes to explore with the quoted text', async ({ page }) => {
  await signIn(page, DEMO.member);
  const search = page.getByRole('searchbox', { name: 'Search all datasets' });
  await search.fill('monthly revenue');
  await search.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}/explore\\?search=%22monthly%20revenue%22$`));
  // Quotes are stripped before the request; the matching dataset is listed and opens.
  await expect(page.getByRole('link', { name: 'Monthly Revenue' })).toBeVisible();
  await page.getByRole('link', { name: 'Monthly Revenue' }).click();
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}/dataset/sales/monthly-revenue$`));
  await expect(page.getByRole('heading', { name: 'Monthly Revenue' })).toBeVisible();
  // the search stays with explore: the dataset page's box is empty again
  await expect(search).toHaveValue('');
});

test("'/' and Ctrl+K jump to the search box; a typed '/' in a field stays text", async ({ page }) => {
  await signIn(page, DEMO.member);
  const search = page.getByRole('searchbox', { name: 'Search all datasets' });
  await expect(search).toBeVisible();
  await page.locator('main').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('/');
  await expect(search).toBeFocused();
  await expect(search).toHaveValue('');
  await page.keyboard.type('revenue');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/explore\?search=%22revenue%22$/);
  await expect(search).toHaveValue('revenue');

  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Home' }).click();
  await expect(search).toHaveValue('');
  await page.keyboard.press('Control+k');
  await expect(search).toBeFocused();
  // inside a field '/' is a character like any other
  await page.keyboard.type('a/b');
  await expect(search).toHaveValue('a/b');
});

test('a typo still finds its dataset, and a search with no match says so', async ({ page }) => {
  await signIn(page, DEMO.member, `/l/${SEED.workspaceId}/explore?search=%22revenu%22`);
  await expect(page.getByRole('link', { name: 'Monthly Revenue' })).toBeVisible();
  await page.goto(`/l/${SEED.workspaceId}/explore?search=%22zzqx%20wvvq%22`);
  await expect(page.getByText('There were no datasets matching your query.')).toBeVisible();
  await expect(page.getByText('Please refine your search.')).toBeVisible();
  // The feed's own search form stays on the feed, with the quoted text.
  await page.goto(`/l/${SEED.workspaceId}/feed`);
  const feedSearch = page.getByRole('searchbox', { name: 'Search datasets' });
  await feedSearch.fill('customers');
  await feedSearch.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}/feed\\?search=%22customers%22$`));
  await expect(page.getByRole('link', { name: 'Top Customers by Revenue' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Monthly Revenue' })).toHaveCount(0);
});

test('a user with no workspace lands on /setup/w/new and can reach only the allowed routes', async ({ page }) => {
  const newcomer = await signUpAndVerify(page, 'Nina Newcomer');
  await signIn(page, newcomer);
  await expect(page).toHaveURL(/\/setup\/w\/new$/);
  for (const allowed of ['/api-key', '/p/profile', '/change-password', '/debug']) {
    await page.goto(allowed);
    await expect(page).toHaveURL(new RegExp(`${allowed}$`));
  }
  for (const refused of [`/l/${SEED.workspaceId}/feed`, '/lab', '/w/new', `/l/${SEED.workspaceId}/explore`]) {
    await page.goto(refused);
    await expect(page).toHaveURL(/\/setup\/w\/new$/);
  }
});

test('switching workspace sets the default workspace and reloads to /', async ({ page }) => {
  await dismissSetupTasks(SEED.workspaceId);
  await signIn(page, DEMO.owner);
  await expect(page).toHaveURL(new RegExp(`/lab/${SEED.workspaceId}/pipelines$`));
  // The owner's workspace offers 'create invitation': the Invite icon and the menu item show.
  await expect(page.getByRole('button', { name: 'Invite people' })).toBeVisible();
  await page.getByRole('button', { name: /Workspace menu: Demo Workspace/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Invitations' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Switch Workspace' }).click();
  await page.getByRole('menuitem', { name: 'Analytics Sandbox' }).click();
  await expect(page).toHaveURL(new RegExp(`/lab/${SEED.sandboxWorkspaceId}/pipelines$`));
  await expect(page.getByRole('button', { name: /Workspace menu: Analytics Sandbox/ })).toBeVisible();
  // Switch back so the other tests find the owner where the seed left them.
  await page.getByRole('button', { name: /Workspace menu: Analytics Sandbox/ }).click();
  await page.getByRole('menuitem', { name: 'Switch Workspace' }).click();
  await page.getByRole('menuitem', { name: 'Demo Workspace' }).click();
  await expect(page).toHaveURL(new RegExp(`/lab/${SEED.workspaceId}/pipelines$`));
});

test("the bell in the Lab opens the app's notifications with the way back to where the Lab was", async ({ page }) => {
  await dismissSetupTasks(SEED.workspaceId);
  await signIn(page, DEMO.owner);
  await page.goto(`/lab/${SEED.workspaceId}/datastores`);
  await bell(page).click();
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}/notifications$`));
  await page.getByRole('link', { name: 'Back to the Lab' }).click();
  await expect(page).toHaveURL(new RegExp(`/lab/${SEED.workspaceId}/datastores$`));
  // opened in the app, the page has no such link
  await page.goto(`/l/${SEED.workspaceId}/notifications`);
  await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to the Lab' })).toHaveCount(0);
});

test('an invitation is accepted at sign-in and the unread count rises after a server-side event', async ({ page }) => {
  const invitee = await signUpAndVerify(page, 'Ivy Invitee');
  await inviteAsOwner(SEED.workspaceId, invitee.email);
  await page.clock.install();
  await signIn(page, invitee);
  // The accepted invitation's workspace becomes the target: its home page.
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}/feed$`));
  // Invited before they had a profile: nothing to notify then.
  await expect(bell(page)).toHaveAttribute('aria-label', 'Notifications');

  await inviteAsOwner(SEED.sandboxWorkspaceId, invitee.email);
  // Nothing changes before the next poll; after 90 s the bell shows one more.
  await page.clock.fastForward('00:30');
  expect(await unreadCount(page)).toBe(0);
  await page.clock.fastForward('01:01');
  await expect.poll(() => unreadCount(page)).toBe(1);
  await screenshot(page, 'unread-count-1280');
});

test("the 'Uh oh!' screen offers RETRY and LOGOUT when the API is down, and RETRY recovers", async ({ page }) => {
  await signIn(page, DEMO.member);
  await expect(page).toHaveURL(/\/feed$/);
  await page.route('**/api/**', (route) => route.abort('connectionrefused'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Uh oh!' })).toBeVisible();
  await expect(page.getByText('We were unable to connect.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'LOGOUT' })).toBeVisible();
  await screenshot(page, 'api-down-1280');
  await page.unroute('**/api/**');
  await page.getByRole('button', { name: 'RETRY' }).click();
  await expect(page.getByRole('button', { name: /Workspace menu: Demo Workspace/ })).toBeVisible();
});

test('/dataset/{alias} redirects into the workspace, keeping the slashes of the alias', async ({ page }) => {
  await signIn(page, DEMO.member);
  await page.goto('/dataset/sales/monthly-revenue');
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}/dataset/sales/monthly-revenue$`));
});

test('an unknown address shows the not-found page, whose button leads back to the workspace', async ({ page }) => {
  await signIn(page, DEMO.member, `/l/${SEED.workspaceId}/no-such-page`);
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}/no-such-page$`));
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByText('is not available in this version yet')).toHaveCount(0);
  // The shell stays around it: the workspace in the address is still the one shown.
  await expect(page.getByRole('button', { name: /Workspace menu: Demo Workspace/ })).toBeVisible();
  await screenshot(page, 'not-found-1280');
  await page.getByRole('button', { name: 'Back to Demo Workspace' }).click();
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}/feed$`));

  // A library type the table does not know is not a page either.
  await page.goto(`/l/${SEED.workspaceId}/library/other`);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test.describe('not found at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the not-found page fits a phone', async ({ page }) => {
    await signIn(page, DEMO.member, '/nothing/here');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    const button = page.getByRole('button', { name: 'Back to Demo Workspace' });
    await expect(button).toBeVisible();
    const box = await button.boundingBox();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 375).toBe(true);
    await screenshot(page, 'not-found-375');
    await button.click();
    await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}/feed$`));
  });
});

test('opening an unread notification marks it read and the bell says so at once, not at its next poll', async ({ page }) => {
  const invitee = await signUpAndVerify(page, 'Nia Notified');
  await inviteAsOwner(SEED.workspaceId, invitee.email);
  await signIn(page, invitee);
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}/feed$`));
  await inviteAsOwner(SEED.sandboxWorkspaceId, invitee.email);
  await page.goto(`/l/${SEED.workspaceId}/notifications`);
  await expect.poll(() => unreadCount(page)).toBe(1);
  await page.locator('[data-unread="true"]').first().getByRole('button').first().click();
  // the bell polls every 90 s: a count of 0 now is the inbox telling it
  await expect.poll(() => unreadCount(page), { timeout: 30_000 }).toBe(0);
});

test('Mark all read clears the unread notifications shown, and the bell follows at once', async ({ page }) => {
  const invitee = await signUpAndVerify(page, 'Mara Marked');
  // accepted at sign-in: that invitation's notification is read already
  await inviteAsOwner(SEED.workspaceId, invitee.email);
  await signIn(page, invitee);
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}/feed$`));
  await inviteAsOwner(SEED.sandboxWorkspaceId, invitee.email);
  await page.goto(`/l/${SEED.workspaceId}/notifications`);
  await expect(page.locator('[data-unread="true"]')).toHaveCount(1);
  await expect.poll(() => unreadCount(page)).toBe(1);
  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect(page.locator('[data-unread="true"]')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Mark all read' })).toHaveCount(0);
  await expect.poll(() => unreadCount(page), { timeout: 30_000 }).toBe(0);
  // the server agrees: after a reload nothing is unread
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();
  await expect(page.locator('[data-unread="true"]')).toHaveCount(0);
});
