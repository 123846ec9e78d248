import { expect, test } from './fixtures';
import { DEMO as SEED } from '../../server/seed';
import { baseUrl, DEMO, screenshot, signIn, signUpAndVerify } from './support';

// Issue 10's journey (onboarding half): a brand-new user signs up through the embedded provider,
// verifies through the outbox, names a workspace, waits for it to be READY, imports a first
// pipeline, watches its first run complete, sees the setup tasks (import ticked), and goes to the Lab.
test('a newcomer walks the three onboarding steps to a first pipeline and sees the setup tasks update', async ({ page }) => {
  test.setTimeout(300_000);
  const who = await signUpAndVerify(page, 'Nora Newcomer');
  await signIn(page, who);
  await expect(page).toHaveURL(/\/setup\/w\/new$/);

  // Step 1: the workspace
  await expect(page.getByRole('heading', { name: 'Name your workspace' })).toBeVisible();
  await page.getByLabel('Workspace name').fill('Nora Analytics');
  await screenshot(page, 'onboarding-1-workspace-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'onboarding-1-workspace-375');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/setup\/imports\/[0-9a-f-]{36}$/);
  const workspaceId = new URL(page.url()).pathname.split('/').pop()!;

  // Step 2: 'please wait' until the WORKSPACE_INIT job has made it READY, then the plugins
  const demo = page.locator('[data-plugin="tap-demo"]');
  await expect(demo).toBeVisible({ timeout: 40_000 });
  await demo.click();
  await expect(page.getByLabel('Pipeline name')).not.toHaveValue('');
  await page.getByLabel('Pipeline name').fill('First import');
  await screenshot(page, 'onboarding-2-imports-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'onboarding-2-imports-375');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'Save' }).click();

  // The first run starts at once and is shown to its end (the demo tap's job takes a few seconds)
  const run = page.getByRole('region', { name: 'Your first run' });
  await expect(run).toBeVisible();
  await expect(run.getByText('"First import" is saved.')).toBeVisible();
  if (['starting', 'active'].includes((await run.getAttribute('data-first-run')) ?? '')) {
    await screenshot(page, 'onboarding-2-first-run-progress-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'onboarding-2-first-run-progress-375');
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  await expect(run).toHaveAttribute('data-first-run', 'succeeded', { timeout: 90_000 });
  await expect(run).toHaveAttribute('data-job-status', 'COMPLETE');
  await expect(run.getByText(/Complete: your data is in your workspace\./)).toBeVisible();
  await screenshot(page, 'onboarding-2-first-run-complete-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'onboarding-2-first-run-complete-375');
  await page.setViewportSize({ width: 1280, height: 800 });
  await run.getByRole('button', { name: 'Continue' }).click();

  // Step 3: the setup tasks, the import already ticked by the pipeline just saved
  await expect(page).toHaveURL(new RegExp(`/setup/tasks/${workspaceId}$`));
  const importTask = page.locator('[data-task="PROFILE_IMPORT"]');
  await expect(importTask).toHaveAttribute('data-status', 'COMPLETE');
  await expect(importTask.getByLabel('Completed')).toBeVisible();
  await expect(importTask.locator('[data-commit]')).toHaveText(/^[0-9a-f]{7}$/);
  await expect(page.locator('[data-task="PROFILE_COLLABORATE"]')).toHaveAttribute('data-status', 'QUEUED');
  await screenshot(page, 'onboarding-3-tasks-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'onboarding-3-tasks-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('button', { name: 'Go to Lab' }).click();
  await expect(page).toHaveURL(new RegExp(`/lab/${workspaceId}/pipelines$`));
  await expect(page.getByText('First import').first()).toBeVisible();
  // the pipeline has run: it no longer says 'Never run'
  await expect(page.getByText('Never run')).toHaveCount(0);

  // The Lab's own Setup Tasks view: dismissing a task removes its card
  await page.goto(`/lab/${workspaceId}/setupTasks`);
  const publish = page.locator('[data-task="PROFILE_PUBLISH"]');
  await expect(publish).toBeVisible();
  await screenshot(page, 'setup-tasks-lab-1280');
  await publish.getByRole('button', { name: /Dismiss/ }).click();
  await expect(publish).toHaveCount(0);
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'setup-tasks-lab-375');
});

test('verifying the email carries the newcomer straight into onboarding, signed in, without typing the password again (1280 and 375)', async ({ page }) => {
  const { mailedLink } = await import('../support/auth');
  const email = `vera-verified-${Date.now()}@example.com`;
  await page.goto('/');
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Name').fill('Vera Verified');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a-long-password');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();

  // the link, opened in the browser that signed up (any tab), signs in there: straight to onboarding (issue 38)
  await page.goto(await mailedLink(baseUrl(), email, 'verify-email'));
  await expect(page).toHaveURL(/\/setup\/w\/new$/);
  await screenshot(page, 'onboarding-verified-1280');
  await expect(page.getByRole('heading', { name: 'Name your workspace' })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'onboarding-verified-continued-375');

  // a workspace with no dataset yet: its home says what comes next, not 'no matches'
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByLabel('Workspace name').fill('Vera Analytics');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/setup\/imports\/[0-9a-f-]{36}$/);
  const workspaceId = new URL(page.url()).pathname.split('/').pop()!;
  await page.goto(`/l/${workspaceId}/feed`);
  await expect(page.getByRole('heading', { name: 'No datasets yet' })).toBeVisible();
  await expect(page.getByText('There were no datasets matching your query.')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Browse the catalogue' })).toHaveAttribute('href', `/lab/${workspaceId}/dataplugins`);
  await screenshot(page, 'home-first-dataset-1280');
  await page.getByRole('link', { name: 'Import more data' }).click();
  await expect(page).toHaveURL(new RegExp(`/lab/${workspaceId}/pipelines$`));
});

test("a member opening the workspace's onboarding URLs is sent to the workspace, not to steps only an admin can use", async ({ page }) => {
  await signIn(page, DEMO.member, `/setup/imports/${SEED.workspaceId}`);
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}(/feed)?$`));
  await expect(page.getByText('An unexpected error occurred.')).toHaveCount(0);
  await page.goto(`/setup/tasks/${SEED.workspaceId}`);
  await expect(page).toHaveURL(new RegExp(`/l/${SEED.workspaceId}(/feed)?$`));
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByRole('article').first()).toBeVisible();
  await screenshot(page, 'onboarding-member-sent-home-375');
});
