import fs from 'node:fs';
import { expect, test, type Page } from './fixtures';
import { REL } from '../../src/domain/relations';
import { DEMO as SEED } from '../../server/seed';
import { apiCall as call, baseUrl, DEMO, linkOf, screenshot, searchPipelines, signIn, type Resource } from './support';

// The pipelines list (spec 001 §2, §4) against the real server and runner: pipelines are created
// through the API as the demo owner, then started, watched, read and stopped in the browser.


async function ownerToken(): Promise<string> {
  const { signIn: signInByHttp } = await import('../support/auth');
  return (await signInByHttp(baseUrl(), DEMO.owner)).accessToken;
}


/** A pipeline of the demo extractor into the default store, optionally with its own script. */
async function createPipeline(name: string, extra: Record<string, unknown> = {}): Promise<Resource> {
  const token = await ownerToken();
  const workspace = await call(token, 'GET', `/api/workspaces/${SEED.workspaceId}`);
  const draft = await call(token, 'POST', linkOf(workspace.body, REL.newPipeline));
  const created = await call(token, 'PUT', linkOf(draft.body, REL.createPipeline), { name, dataComponents: ['extractors/tap-demo', 'loaders/target-store'], ...extra });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

async function openList(page: Page, search: string) {
  await signIn(page, DEMO.owner, `/lab/${SEED.workspaceId}/pipelines`);
  await expect(page).toHaveURL(new RegExp(`/lab/${SEED.workspaceId}/pipelines$`));
  await expect(page.getByRole('heading', { name: 'Data Imports' })).toBeVisible();
  return searchPipelines(page, search);
}

test('an empty search shows the empty text; the add button offers Pipeline and Import', async ({ page }) => {
  await openList(page, 'no pipeline has this name');
  await expect(page.getByText("No pipelines match 'no pipeline has this name'.")).toBeVisible();
  await page.getByRole('button', { name: 'Add' }).last().click();
  await expect(page.getByRole('menuitem', { name: 'Pipeline' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Import' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Pipeline' }).click();
  await expect(page).toHaveURL(new RegExp(`/lab/${SEED.workspaceId}/pipelines/new$`));
});

test('start a job: RUNNING then COMPLETE, the log grows and downloads, rows loaded in History; watch it', async ({ page }) => {
  const name = `E2E ticking ${String(Date.now())}`;
  await createPipeline(name, { script: 'for i in $(seq 1 8); do echo "tick $i"; sleep 1; done; echo "errors=0 done"' });
  const row = await openList(page, name);
  await expect(row).toBeVisible();
  await expect(row.getByText('Never run')).toBeVisible();

  await row.getByRole('button', { name: 'Start job' }).click();
  await expect(row.getByRole('button', { name: 'Stop job' })).toBeVisible();
  await expect(row.locator('[data-status="RUNNING"]').first()).toBeVisible();
  await expect(row.getByText(/Started by/).first()).toBeVisible();
  await screenshot(page, 'lab-pipelines-running-1280');

  // The History opened on start; the log of the running job grows while it is open.
  await row.getByRole('button', { name: /^Log of job/ }).first().click();
  const log = page.getByRole('dialog', { name: 'Job log' });
  await expect(log.getByText(/tick 1/)).toBeVisible();
  // the run line ticks while it runs, and says what the run took once it has ended
  await expect(log.getByLabel('Run', { exact: true })).toHaveText(/^Running for \d+ s/);
  await expect(log.getByRole('button', { name: 'Download' })).toHaveCount(0);
  const firstCount = await log.locator('[data-sequence]').count();
  await expect.poll(() => log.locator('[data-sequence]').count()).toBeGreaterThan(firstCount);
  await screenshot(page, 'lab-pipelines-log-1280');
  await expect(log.getByText('errors=0 done')).toBeVisible();
  await expect(log.locator('[data-status="COMPLETE"]')).toBeVisible();
  await expect(log.getByLabel('Run', { exact: true })).toHaveText(/^Took \d+ s/);
  const downloading = page.waitForEvent('download');
  await log.getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^[0-9a-f-]+\.txt$/);
  const text = fs.readFileSync(await download.path(), 'utf8');
  expect(text).toContain('tick 8');
  await log.getByRole('button', { name: 'Close' }).click();

  await expect(row.getByRole('button', { name: 'Start job' })).toBeVisible();
  await expect(row.locator('[data-status="COMPLETE"]').first()).toBeVisible();

  // Watch: Errors → ALERTS; the button turns into Unwatch.
  await row.getByRole('button', { name: 'Watch' }).click();
  const watchFor = page.getByRole('dialog', { name: 'Watch for...' });
  await watchFor.getByLabel('Errors').check();
  await watchFor.getByRole('button', { name: 'Watch' }).click();
  await expect(row.getByRole('button', { name: 'Unwatch' })).toBeVisible();
  await row.getByRole('button', { name: 'Unwatch' }).click();
  await expect(row.getByRole('button', { name: 'Watch' })).toBeVisible();
});

test('the demo import loads rows: the History chart counts them', async ({ page }) => {
  test.setTimeout(300_000);
  const name = `E2E demo import ${String(Date.now())}`;
  await createPipeline(name);
  const row = await openList(page, name);
  await row.getByRole('button', { name: 'Start job' }).click();
  await expect(row.getByRole('button', { name: 'Stop job' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Start job' })).toBeVisible({ timeout: 100_000 });
  await expect(row.locator('[data-status="COMPLETE"]').first()).toBeVisible();
  await expect.poll(async () => Number((await row.locator('[data-rows-loaded]').getAttribute('data-rows-loaded')) ?? 0)).toBeGreaterThan(0);
  // the job table says how long the run took and how many rows it loaded
  const jobs = row.getByRole('table', { name: 'Jobs' });
  await expect(jobs.getByRole('columnheader', { name: 'Duration' })).toBeVisible();
  const cells = jobs.getByRole('row').nth(1).getByRole('cell');
  await expect(cells.nth(2)).toHaveText(/^\d+ s$|^\d+ min \d\d s$/);
  await expect(cells.nth(3)).toHaveText(/^[1-9][\d,]*$/);
  await screenshot(page, 'lab-pipelines-history-1280');
  // the total opens the rows of each stream the demo tap loaded
  // where the next run resumes: a bookmark per stream the demo tap loaded
  const state = row.getByRole('region', { name: 'Incremental state' });
  await expect(state.getByRole('listitem').filter({ hasText: /^orders: / })).toBeVisible();
  await cells.nth(3).getByRole('button', { name: /rows: by stream/ }).click();
  const byStream = page.getByRole('dialog', { name: /^Rows by stream/ }).or(page.getByLabel(/^Rows by stream/));
  for (const stream of ['customers', 'orders', 'web_sessions']) await expect(byStream.getByText(stream, { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  // the same run's log says what it took and what it loaded; the table and the log at 375 px
  await page.setViewportSize({ width: 375, height: 760 });
  await expect(cells.nth(3)).toBeVisible();
  // the Log column stays pinned at the phone's right edge, over the columns scrolling under it (issue 38):
  // with the row's first cell in view, its Log button is in view too
  await cells.nth(0).scrollIntoViewIfNeeded();
  await expect(jobs.getByRole('button', { name: /^Log of job/ }).first()).toBeInViewport({ ratio: 1 });
  await screenshot(page, 'lab-pipelines-history-375');
  await jobs.getByRole('button', { name: /^Log of job/ }).first().click();
  const log = page.getByRole('dialog', { name: 'Job log' });
  await expect(log.getByLabel('Run', { exact: true })).toHaveText(/^Took .+ · Rows [1-9][\d,]*$/);
  await expect(log).toHaveCSS('opacity', '1');
  await screenshot(page, 'lab-log-run-375');
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1280, height: 800 });
  // Full refresh forgets the bookmarks once confirmed
  await state.getByRole('button', { name: 'Full refresh' }).click();
  const confirm = page.getByRole('dialog', { name: 'Full refresh' });
  await confirm.getByRole('button', { name: 'Full refresh' }).click();
  await expect(confirm).toBeHidden();
  await expect(state.getByText('No bookmark: the next run loads everything.')).toBeVisible();
  await row.getByRole('tab', { name: 'Settings' }).click();
  await expect(row.getByRole('heading', { name: /tap-demo/ })).toBeVisible();
  await row.getByRole('tab', { name: 'Environment' }).click();
  await expect(row.getByLabel('Environment')).toBeVisible();
  await screenshot(page, 'lab-pipelines-environment-1280');
});

test('stop a running job', async ({ page }) => {
  const name = `E2E sleeper ${String(Date.now())}`;
  await createPipeline(name, { script: 'echo "going to sleep"; sleep 120' });
  const row = await openList(page, name);
  await row.getByRole('button', { name: 'Start job' }).click();
  await expect(row.locator('[data-status="RUNNING"]').first()).toBeVisible();
  await row.getByRole('button', { name: 'Stop job' }).click();
  await expect(row.getByRole('button', { name: 'Start job' })).toBeVisible();
  await expect(row.locator('[data-status="STOPPED"]').first()).toBeVisible();
});

test('at 375 px Watch, Refresh and Start job move into More', async ({ page }) => {
  const name = `E2E phone ${String(Date.now())}`;
  await createPipeline(name);
  await page.setViewportSize({ width: 375, height: 760 });
  const row = await openList(page, name);
  await expect(row).toBeVisible();
  await expect(row.getByRole('button', { name: 'Start job' })).toHaveCount(0);
  await row.getByRole('button', { name: 'More' }).click();
  await expect(page.getByRole('menuitem', { name: 'Start job' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Refresh' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Watch' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Edit' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Verify' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeVisible();
  await screenshot(page, 'lab-pipelines-375');
  await page.keyboard.press('Escape');
  await row.getByRole('button', { name: 'Expand' }).click();
  await screenshot(page, 'lab-pipelines-expanded-375');
});

test('on a phone the log wraps long lines, the download keeps each line\'s timestamp, and Esc still closes the log after Download (375 px)', async ({ page }) => {
  const name = `E2E long lines ${String(Date.now())}`;
  const long = Array.from({ length: 18 }, (_, i) => `word${String(i)}`).join(' ');
  const created = await createPipeline(name, { script: `echo "${long}"; echo "second line"` });
  const started = await call(await ownerToken(), 'POST', linkOf(created, REL.createJob));
  expect(started.status, JSON.stringify(started.body)).toBeLessThan(300);
  await page.setViewportSize({ width: 375, height: 760 });
  const row = await openList(page, name);
  await row.getByRole('button', { name: 'Expand' }).click();
  await expect(row.locator('[data-status="COMPLETE"]').first()).toBeVisible({ timeout: 30_000 });
  await row.getByRole('button', { name: /^Log of job/ }).first().click();
  const log = page.getByRole('dialog', { name: 'Job log' });
  await expect(log.getByRole('switch', { name: 'Wrap lines' })).toBeChecked();
  const cell = log.getByRole('cell', { name: long, exact: true });
  await expect(cell).toBeVisible();
  // the whole line is there to read, over several lines of the phone's width
  expect((await cell.boundingBox())!.height).toBeGreaterThan(30);
  await expect(log).toHaveCSS('opacity', '1');
  await screenshot(page, 'lab-log-wrapped-375');

  const downloading = page.waitForEvent('download');
  await log.getByRole('button', { name: 'Download' }).click();
  const text = fs.readFileSync(await (await downloading).path(), 'utf8');
  expect(text).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z ${long}$`, 'm'));
  await page.keyboard.press('Escape');
  await expect(log).toBeHidden();
});
