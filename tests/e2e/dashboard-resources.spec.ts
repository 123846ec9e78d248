import fs from 'node:fs';
import { expect, test } from './fixtures';
import { ownerToken, setAppProperties, WORKSPACE_ID } from './datasetSupport';
import { baseUrl, DEMO, screenshot, signIn } from './support';

// DownloadResource (spec 002 'resources', §7 'GET workspace resources path'): an admin uploads a
// file to the workspace's resources; a member opens the dashboard and downloads it through the
// workspace's 'resources' link, signed in through the real identity provider.

test('dashboard: DownloadResource downloads a workspace resource through the resources link', async ({ page }) => {
  const path = `reports/e2e-${String(Date.now())}/sales summary.csv`;
  const content = 'region,total\nnorth,120\nsouth,80\n';
  const token = await ownerToken();
  const segments = path.split('/').map(encodeURIComponent).join('/');
  const uploaded = await fetch(`${baseUrl()}/api/workspaces/${WORKSPACE_ID}/resources/${segments}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    body: content,
  });
  expect(uploaded.status).toBe(201);
  await setAppProperties({
    DASHBOARD_PAGE_TITLE: 'Team dashboard',
    DASHBOARD_CONTENT: `## Files\n\nThe latest summary, as a file.\n\n<DownloadResource path="${path}" tooltip="Sales summary (CSV)" />\n\n<DownloadResource path="reports/never-uploaded.csv" />\n\n<DownloadResource path="../../etc/passwd" />`,
  });

  await signIn(page, DEMO.member, `/l/${WORKSPACE_ID}/dashboard`);
  await expect(page.getByRole('heading', { level: 1, name: 'Team dashboard' })).toBeVisible();
  const button = page.getByRole('button', { name: 'sales summary.csv' });
  await expect(button).toBeEnabled();
  await expect(page.getByText('DownloadResource: the path must not contain . or .. as a folder name.')).toBeVisible();

  const downloading = page.waitForEvent('download');
  await button.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('sales summary.csv');
  expect(fs.readFileSync(await download.path(), 'utf8')).toBe(content);

  // A path the workspace has no file at says so where the button is.
  await page.getByRole('button', { name: 'never-uploaded.csv' }).click();
  await expect(page.getByRole('alert').filter({ hasText: "reports/never-uploaded.csv is not among this workspace's files." })).toBeVisible();

  await page.mouse.move(0, 0);
  await screenshot(page, 'dashboard-resources-1280');
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(button).toBeVisible();
  await screenshot(page, 'dashboard-resources-375');
});
