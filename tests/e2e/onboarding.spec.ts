import { expect, test } from '@playwright/test';
import { screenshot, signIn, signUpAndVerify } from './support';

// Issue 10's journey (onboarding half): a brand-new user signs up through the embedded provider,
// verifies through the outbox, names a workspace, waits for it to be READY, imports a first
// pipeline, sees the setup tasks (import ticked), and goes to the Lab.
test('a newcomer walks the three onboarding steps to a first pipeline and sees the setup tasks update', async ({ page }) => {
  test.setTimeout(120_000);
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
