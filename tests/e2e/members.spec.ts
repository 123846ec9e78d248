import { expect, test, type Page } from './fixtures';
import { MEMBER_TEXT } from '../../src/domain/members';
import { WORKSPACE_ID } from './datasetSupport';
import { DEMO, screenshot, signIn } from './support';

// The members page (issue 20): reached from the workspace menu, every member with their handle and
// an Admin or Member badge; the Invite action only where the workspace offers 'create invitation'.

const membersPage = (page: Page) => page.getByRole('region', { name: 'Members' });

async function openFromMenu(page: Page) {
  await page.getByRole('button', { name: /Workspace menu: Demo Workspace/ }).click();
  await page.getByRole('menuitem', { name: 'Members' }).click();
  await expect(page).toHaveURL(new RegExp(`/l/${WORKSPACE_ID}/members$`));
  await expect(membersPage(page).getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
}

const rowOf = (page: Page, name: string) => membersPage(page).getByRole('row', { name });

test('the owner sees every member with a role badge, and an Invite action leading to the invitations', async ({ page }) => {
  await signIn(page, DEMO.owner, `/l/${WORKSPACE_ID}/feed`);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  expect((await nav.boundingBox())?.width).toBe(240);
  await openFromMenu(page);
  // no sidebar entry is Members: none is marked current (issue 38: Home was), and the sidebar keeps its width
  await expect(nav.locator('[aria-current="page"]')).toHaveCount(0);
  expect((await nav.boundingBox())?.width).toBe(240);
  await expect(rowOf(page, DEMO.owner.name)).toContainText('@olivia');
  await expect(rowOf(page, DEMO.owner.name).getByText('Admin', { exact: true })).toBeVisible();
  await expect(rowOf(page, DEMO.member.name)).toContainText('@max');
  await expect(rowOf(page, DEMO.member.name).getByText('Member', { exact: true })).toBeVisible();
  const invite = membersPage(page).getByRole('button', { name: 'Invite people' });
  await expect(invite).toBeVisible();
  // roles and removals are the invitations' (issue 38: the page gave no way to them)
  await expect(membersPage(page).getByText(MEMBER_TEXT.manage)).toBeVisible();
  await expect(membersPage(page).getByRole('link', { name: MEMBER_TEXT.manageLink })).toHaveAttribute('href', `/l/${WORKSPACE_ID}/invitations`);
  // the pointer off the rows, so the pictures show no hover
  await page.mouse.move(1, 790);
  await screenshot(page, 'members-1280');

  // 375 px: the table is a list of rows, with nothing wider than the screen.
  await page.setViewportSize({ width: 375, height: 812 });
  // the handle moves under the name
  await expect(rowOf(page, DEMO.member.name).locator('span', { hasText: '@max' })).toBeVisible();
  const overflow = await page.evaluate(() => [...document.querySelectorAll('main, main *')].some((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible' && getComputedStyle(el).overflowX !== 'hidden'));
  expect(overflow).toBe(false);
  const table = await membersPage(page).getByRole('table').boundingBox();
  expect(table && table.x + table.width).toBeLessThanOrEqual(375);
  await screenshot(page, 'members-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  await invite.click();
  await expect(page).toHaveURL(new RegExp(`/l/${WORKSPACE_ID}/invitations$`));
});

test('a plain member sees the same people but no Invite action', async ({ page }) => {
  await signIn(page, DEMO.member);
  await openFromMenu(page);
  await expect(rowOf(page, DEMO.owner.name).getByText('Admin', { exact: true })).toBeVisible();
  await expect(rowOf(page, DEMO.member.name).getByText('Member', { exact: true })).toBeVisible();
  await expect(membersPage(page).getByRole('button', { name: 'Invite people' })).toHaveCount(0);
  await expect(membersPage(page).getByText(MEMBER_TEXT.manage)).toHaveCount(0);
  await page.mouse.move(1, 790);
  await screenshot(page, 'members-member-1280');
});
