import { expect, test, type Browser, type Page } from './fixtures';
import { mailedLink } from '../support/auth';
import { datasetPath, publishDataset, uniqueAlias, WORKSPACE_ID } from './datasetSupport';
import { baseUrl, DEMO, screenshot, signIn } from './support';

// Invitations and the inbox (issue 12) with two people through the embedded provider: the owner
// invites a new address; the invitee signs up through the emailed link, is in the workspace and
// mentions the owner on a dataset; the owner finds the mention in the inbox, marks it read and
// opens it on the dataset.

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  return context.newPage();
}

async function bothWidths(page: Page, name: string) {
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 812 });
  await screenshot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('an invitee signs up through the emailed link, mentions the admin, who reads it in the inbox', async ({ browser }) => {
  const alias = uniqueAlias('people');
  await publishDataset({ alias, title: 'E2E People', rawData: JSON.stringify([{ a: 1 }]) });
  const email = `ivy-${String(Date.now())}@example.com`;
  const password = 'a-long-password';

  // The admin invites the address from the invitations page.
  const owner = await newPage(browser);
  await signIn(owner, DEMO.owner, `/l/${WORKSPACE_ID}/invitations`);
  await owner.getByLabel('Email addresses').fill(`  ${email} `);
  await owner.getByRole('button', { name: 'Send invitations' }).click();
  await expect(owner.locator('.fui-ToastTitle', { hasText: 'Invitation sent successfully' })).toBeVisible();
  const row = owner.getByRole('list', { name: 'Invitations sent' }).getByRole('listitem', { name: email });
  await expect(row.getByRole('button', { name: 'Revoke' })).toBeVisible();
  await bothWidths(owner, 'invitations');

  // The invitee follows the emailed link (a sign-in form naming the invitation, the address filled
  // in: issue 38), signs up, verifies in the same browser and is signed in, in the workspace.
  const link = await mailedLink(baseUrl(), email, `/l/${WORKSPACE_ID}`);
  const invitee = await newPage(browser);
  await invitee.goto(link);
  await invitee.getByRole('link', { name: 'Create your account' }).click();
  await invitee.getByLabel('Name').fill('Ivy Invitee');
  await expect(invitee.getByLabel('Email')).toHaveValue(email);
  await invitee.getByLabel('Password').fill(password);
  await invitee.getByRole('button', { name: 'Sign up' }).click();
  await expect(invitee.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await invitee.goto(await mailedLink(baseUrl(), email, 'verify-email'));
  await expect(invitee).toHaveURL(new RegExp(`/l/${WORKSPACE_ID}/`));

  // The invitee mentions the admin on a dataset of the workspace.
  await invitee.goto(datasetPath(alias));
  const box = invitee.getByRole('textbox', { name: 'Comment' });
  await box.fill('Welcome me, @oli');
  await invitee.getByRole('listbox', { name: 'Members' }).getByRole('button', { name: /Olivia Owner/ }).click();
  await box.pressSequentially('please');
  await invitee.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(invitee.getByRole('list', { name: 'Comments' }).getByText('Welcome me,')).toBeVisible();

  // The admin sees the mention unread at the top of the inbox, marks it read and opens it.
  await owner.goto(`/l/${WORKSPACE_ID}/notifications`);
  const mention = owner.getByRole('listitem', { name: 'Message (unread)' }).filter({ hasText: 'Ivy Invitee mentioned you' }).first();
  await expect(mention).toBeVisible();
  await bothWidths(owner, 'notifications');
  await mention.getByRole('button', { name: 'Mark read' }).click();
  const read = owner.getByRole('listitem', { name: 'Message' }).filter({ hasText: 'Ivy Invitee mentioned you' }).first();
  await expect(read.getByRole('button', { name: 'Mark read' })).toHaveCount(0);
  await read.getByRole('button', { name: /Ivy Invitee mentioned you/ }).click();
  await expect(owner).toHaveURL(new RegExp(`/l/${WORKSPACE_ID}/dataset/`));
  await expect(owner.getByRole('heading', { level: 1, name: 'E2E People' })).toBeVisible();
});
