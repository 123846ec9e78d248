import { expect, test, type Browser, type Page } from './fixtures';
import { signIn as signInByHttp } from '../support/auth';
import { datasetPath, publishDataset, uniqueAlias, WORKSPACE_ID } from './datasetSupport';
import { apiCall, baseUrl, DEMO, screenshot, signIn } from './support';

// Comments (spec 002 §4-§7) with two people signed in through the embedded provider: the owner
// comments and mentions the member, the member likes and replies mentioning the owner; the owner
// sees the reply, edits and deletes. A markup payload in a comment stays text.

const XSS = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';

async function person(browser: Browser, who: { email: string; password: string }, path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page, who, path);
  return page;
}

const comments = (page: Page) => page.getByRole('list', { name: 'Comments' });

test('two people comment, mention, like and reply; markup stays inert; screenshots at 1280 and 375', async ({ browser }) => {
  const alias = uniqueAlias('comments');
  await publishDataset({ alias, title: 'E2E Discussion', description: 'Talk about me.', rawData: JSON.stringify([{ a: 1 }]) });

  const owner = await person(browser, DEMO.owner, datasetPath(alias));
  await expect(owner.getByRole('heading', { level: 1, name: 'E2E Discussion' })).toBeVisible();
  await expect(owner.getByText('No comments yet.')).toBeVisible();
  const box = owner.getByRole('textbox', { name: 'Comment' });
  // The Comment button appears only with text.
  await expect(owner.getByRole('button', { name: 'Comment', exact: true })).toHaveCount(0);
  // by keyboard: the arrows move through the members, Esc closes the list, Enter chooses
  await box.fill('Numbers look off, @');
  const members = owner.getByRole('listbox', { name: 'Members' });
  const options = members.getByRole('option');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  const count = await options.count();
  expect(count).toBeGreaterThan(1);
  await box.press('ArrowUp');
  await expect(options.nth(count - 1)).toHaveAttribute('aria-selected', 'true');
  await box.press('ArrowDown');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await box.press('Escape');
  await expect(members).toHaveCount(0);
  await box.pressSequentially('ma');
  await expect(members.getByRole('option', { selected: true })).toContainText('Max Member');
  await box.press('Enter');
  await expect(box).toHaveValue('Numbers look off, @max ');
  await expect(members).toHaveCount(0);
  await box.pressSequentially(`see #finance ${XSS}`);
  await owner.getByRole('button', { name: 'Comment', exact: true }).click();
  const first = comments(owner).getByRole('listitem').first();
  await expect(first.getByText('Max Member')).toBeVisible();
  await expect(first.getByRole('link', { name: '#finance' })).toHaveAttribute('href', `/l/${WORKSPACE_ID}/explore?search=%22tag%3Afinance%22`);
  await expect(first.getByText(XSS, { exact: false })).toBeVisible();
  await expect(box).toHaveValue('');

  // The member sees it, likes it and replies mentioning the owner.
  const member = await person(browser, DEMO.member, datasetPath(alias));
  const theirs = comments(member).getByRole('listitem').first();
  await expect(theirs.getByText('Numbers look off,')).toBeVisible();
  await expect(theirs.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(theirs.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await theirs.getByRole('button', { name: 'Like comment' }).click();
  await expect(theirs.getByRole('button', { name: 'Unlike comment' })).toHaveText('1');
  await theirs.getByRole('button', { name: 'Reply' }).click();
  const reply = theirs.getByRole('textbox', { name: 'Reply' });
  // by mouse
  await reply.fill('On it @oli');
  await theirs.getByRole('listbox', { name: 'Members' }).getByRole('button', { name: /Olivia Owner/ }).click();
  await expect(reply).toHaveValue('On it @olivia ');
  await theirs.getByRole('button', { name: 'Reply', exact: true }).last().click();
  await expect(theirs.getByRole('list', { name: 'Replies' }).getByText('Olivia Owner')).toBeVisible();

  // The member was told of the mention (DATASET_MESSAGE), the owner of the like and the reply.
  const memberToken = (await signInByHttp(baseUrl(), DEMO.member)).accessToken;
  const inbox = await apiCall(memberToken, 'GET', 'notifications?all=true');
  expect(JSON.stringify(inbox.body)).toContain('DATASET_MESSAGE');

  // The owner sees the reply collapsed, opens it, edits and deletes their comment.
  await owner.reload();
  const mine = comments(owner).getByRole('listitem').first();
  await mine.getByRole('button', { name: '1 reply' }).click();
  await expect(mine.getByRole('list', { name: 'Replies' }).getByText('On it')).toBeVisible();
  await expect(mine.getByRole('button', { name: 'Unlike comment' })).toHaveCount(0);
  await expect(mine.getByRole('button', { name: 'Like comment' }).first()).toHaveText('1');
  await screenshot(owner, 'comments-1280');
  await owner.setViewportSize({ width: 375, height: 812 });
  await mine.scrollIntoViewIfNeeded();
  await screenshot(owner, 'comments-375');
  await owner.setViewportSize({ width: 1280, height: 900 });

  await mine.getByRole('button', { name: 'Edit' }).first().click();
  const edit = mine.getByRole('textbox', { name: 'Edit comment' });
  await edit.fill('Numbers fixed #finance');
  await mine.getByRole('button', { name: 'Save' }).click();
  await expect(mine.getByText('Numbers fixed')).toBeVisible();

  // No markup of the payload ever became an element, and nothing ran.
  expect(await owner.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(await member.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await expect(comments(member).locator('img, script')).toHaveCount(0);

  await mine.getByRole('button', { name: 'Delete' }).first().click();
  const dialog = owner.getByRole('dialog');
  await expect(dialog.getByText('Delete comment?')).toBeVisible();
  await expect(dialog.getByText('Remove this comment. This action cannot be undone.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(owner.getByText('No comments yet.')).toBeVisible();
});

test('read-only for members: the box is disabled with MEMBER_COMMENTS_READ_ONLY_MESSAGE', async ({ page }) => {
  const ownerToken = (await signInByHttp(baseUrl(), DEMO.owner)).accessToken;
  const workspace = await apiCall(ownerToken, 'GET', `workspaces/${WORKSPACE_ID}`);
  const properties = (workspace.body as unknown as { appProperties?: Record<string, string> }).appProperties ?? {};
  const set = (appProperties: Record<string, string>) => apiCall(ownerToken, 'PUT', `workspaces/${WORKSPACE_ID}`, { ...workspace.body, appProperties });
  const alias = uniqueAlias('readonly');
  await publishDataset({ alias, title: 'E2E Read Only', rawData: JSON.stringify([{ a: 1 }]) });
  expect((await set({ ...properties, MEMBER_COMMENTS_READ_ONLY: 'true', MEMBER_COMMENTS_READ_ONLY_MESSAGE: 'Only admins discuss here' })).status).toBe(200);
  try {
    await signIn(page, DEMO.member, datasetPath(alias));
    const box = page.getByRole('textbox', { name: 'Comment' });
    await expect(box).toBeDisabled();
    await expect(box).toHaveAttribute('placeholder', 'Only admins discuss here');
  } finally {
    await set(properties);
  }
});
