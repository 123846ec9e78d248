import { expect, test } from './fixtures';
import { screenshot, signIn, signUpAndVerify } from './support';

// Issue 38, loaded data one click away: a newcomer signed in through the real identity provider
// finds the source search narrowing as letters are typed (no Enter), saves a first pipeline, and
// from its finished first run reaches its biggest table (open on its rows) and a drawn chart of
// it, each in one click; the Data Stores card and the completed run in the Lab lead to the same
// tables, and the embedded store's page says what it is instead of an empty form.

test('a first run leads in one click each to its table and to a chart; the onboarding search narrows as letters are typed (1280 and 375)', async ({ page }) => {
  test.setTimeout(300_000);
  const who = await signUpAndVerify(page, 'Lena Loaded');
  await signIn(page, who);
  await expect(page).toHaveURL(/\/setup\/w\/new$/);
  // onboarding has the app's header: the profile menu with Logout from the first step
  await page.getByRole('button', { name: 'Profile menu: Lena Loaded' }).click();
  await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
  await screenshot(page, 'loaded-data-setup-header-1280');
  await page.keyboard.press('Escape');
  await page.getByLabel('Workspace name').fill('Lena Analytics');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/setup\/imports\/[0-9a-f-]{36}$/);
  const workspaceId = new URL(page.url()).pathname.split('/').pop()!;

  // The search narrows as it is typed: no Enter, and never the old list under the new text
  const files = page.locator('[data-plugin="tap-files"]');
  const postgres = page.locator('[data-plugin="tap-postgres"]');
  const demo = page.locator('[data-plugin="tap-demo"]');
  await expect(demo).toBeVisible({ timeout: 40_000 });
  await expect(files).toBeVisible();
  const search = page.getByRole('searchbox', { name: 'Search data sources' });
  await search.pressSequentially('postg', { delay: 80 });
  await expect(postgres).toBeVisible();
  await expect(files).toHaveCount(0);
  await expect(demo).toHaveCount(0);
  await screenshot(page, 'loaded-data-search-narrowed-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'loaded-data-search-narrowed-375');
  await page.setViewportSize({ width: 1280, height: 800 });
  // a text that matches nothing says so; clearing it lists everything again
  await search.pressSequentially('zzz');
  await expect(page.getByText('No data sources match.')).toBeVisible();
  await search.fill('');
  await expect(demo).toBeVisible();
  await expect(files).toBeVisible();

  await demo.click();
  await page.getByLabel('Pipeline name').fill('First import');
  await page.getByRole('button', { name: 'Save' }).click();
  const run = page.getByRole('region', { name: 'Your first run' });
  await expect(run).toHaveAttribute('data-first-run', 'succeeded', { timeout: 90_000 });
  const chart = run.getByRole('link', { name: 'Build your first chart' });
  const tables = run.getByRole('link', { name: 'View tables' });
  await expect(chart).toBeVisible();
  await expect(tables).toHaveAttribute('href', new RegExp(`^/lab/${workspaceId}/datastores/[0-9a-f-]{36}\\?table=\\w+$`));
  const tablesHref = (await tables.getAttribute('href'))!;
  const table = new URL(tablesHref, 'http://x').searchParams.get('table')!;
  await expect(chart).toHaveAttribute('href', `/lab/${workspaceId}/datasets?edit=new&table=${table}`);
  await screenshot(page, 'loaded-data-first-run-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'loaded-data-first-run-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  // One click: the dataset editor on that table, its first rows previewed and drawn as a chart
  await chart.click();
  const editor = page.getByRole('dialog');
  // rows counted by a column that groups them (web sessions by source), most first
  await expect(editor.getByRole('textbox', { name: /^Query/ })).toHaveValue(new RegExp(`^SELECT (\\w+), count\\(\\*\\) AS row_count FROM ${table} GROUP BY \\1 ORDER BY row_count DESC, \\1 LIMIT 20$`));
  await expect(editor.getByRole('textbox', { name: /^Title/ })).toHaveValue(/ by /);
  await expect(editor.getByRole('table', { name: 'Query preview' })).toBeVisible();
  const drawn = editor.getByRole('region', { name: 'Chart preview' });
  await expect(drawn.locator('canvas')).toBeVisible();
  await expect(editor.getByRole('combobox', { name: 'Chart type' })).toHaveText('Bar');
  await expect(editor.getByRole('combobox', { name: 'Value columns' })).toHaveText('row_count');
  await drawn.scrollIntoViewIfNeeded();
  await screenshot(page, 'loaded-data-first-chart-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await drawn.scrollIntoViewIfNeeded();
  await screenshot(page, 'loaded-data-first-chart-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  // The other link of the first run (a plain link, as the chart's: following its href is the click):
  // the store's page with that table open on its columns and first rows
  await page.goto(tablesHref);
  const opened = page.getByRole('table', { name: `First rows of ${table}` });
  await expect(opened).toBeVisible();
  await expect(page.getByRole('button', { name: table, exact: true })).toHaveAttribute('aria-expanded', 'true');
  // and each table offers its own first chart
  await expect(page.getByRole('link', { name: `Build a chart of ${table}` })).toHaveAttribute('href', `/lab/${workspaceId}/datasets?edit=new&table=${table}`);
  // the embedded store's page: what it is, no empty Name and no Save that cannot work
  await expect(page.getByText(/This is the workspace's own embedded store\./)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(page.getByLabel('Name')).toHaveCount(0);
  await screenshot(page, 'loaded-data-store-table-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'loaded-data-store-table-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Data Stores: the embedded store's card opens its page; 'View tables' says so
  await page.goto(`/lab/${workspaceId}/datastores`);
  const card = page.getByRole('group', { name: /./ }).filter({ hasText: "The workspace's own embedded store" });
  await expect(card.getByRole('button', { name: /^View tables of / })).toBeVisible();
  await screenshot(page, 'loaded-data-datastores-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'loaded-data-datastores-375');
  await page.setViewportSize({ width: 1280, height: 800 });
  await card.click({ position: { x: 8, y: 8 } });
  await expect(page).toHaveURL(new RegExp(`/lab/${workspaceId}/datastores/[0-9a-f-]{36}$`));
  await expect(page.getByRole('list', { name: 'Store tables' }).getByRole('button', { name: table, exact: true })).toBeVisible();

  // The Lab: the completed run links to its tables from the row, its History and its log
  await page.goto(`/lab/${workspaceId}/pipelines`);
  const row = page.locator('[data-pipeline="First import"]');
  await expect(row.getByRole('link', { name: 'View tables' })).toHaveAttribute('href', new RegExp(`/lab/${workspaceId}/datastores/[0-9a-f-]{36}`));
  await row.getByRole('button', { name: 'Expand' }).click();
  const jobs = row.getByRole('table', { name: 'Jobs' });
  await expect(jobs.getByRole('link', { name: /^View tables of job / }).first()).toBeVisible();
  await screenshot(page, 'loaded-data-pipelines-1280');
  await jobs.getByRole('button', { name: /^Log of job / }).first().click();
  const log = page.getByRole('dialog');
  await log.getByRole('link', { name: 'View tables' }).click();
  await expect(page).toHaveURL(new RegExp(`/lab/${workspaceId}/datastores/[0-9a-f-]{36}`));
  await expect(page.getByRole('list', { name: 'Store tables' })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/lab/${workspaceId}/pipelines`);
  await expect(page.locator('[data-pipeline="First import"]').getByRole('link', { name: 'View tables' })).toBeVisible();
  await screenshot(page, 'loaded-data-pipelines-375');

  // The setup tasks in a newcomer's words: a task is 'To do', not QUEUED; Publish opens the dataset editor
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/setup/tasks/${workspaceId}`);
  const publish = page.locator('[data-task="PROFILE_PUBLISH"]');
  await expect(publish.getByText('To do', { exact: true })).toBeVisible();
  await expect(publish.getByText('QUEUED')).toHaveCount(0);
  await expect(page.locator('[data-task="PROFILE_IMPORT"]').getByText('Done', { exact: true })).toBeVisible();
  await expect(publish.getByRole('link', { name: 'Read how to publish' })).toHaveAttribute('target', '_blank');
  await screenshot(page, 'loaded-data-setup-tasks-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'loaded-data-setup-tasks-375');
  await page.setViewportSize({ width: 1280, height: 800 });
  await publish.getByRole('link', { name: 'Start' }).click();
  await expect(page).toHaveURL(new RegExp(`/lab/${workspaceId}/datasets\\?edit=new$`));
  await expect(page.getByRole('dialog').getByRole('textbox', { name: /^Query/ })).toBeVisible();
});
