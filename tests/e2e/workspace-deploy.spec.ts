import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures';
import { screenshot, signIn, signUpAndVerify } from './support';

// Issue 10's deployment, end to end: an owner points a new workspace at a git repository (a local
// one, so it works offline), deploys, follows the deployment's status and log on the settings
// page, and finds the pipeline and dataset the repository defines in the Lab and the app.

function repositoryWithDefinitions(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-deploy-'));
  // readable by others, as an operator's repositories are: the clone runs as the workspace's own uid
  fs.chmodSync(dir, 0o755);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=e2e@example.com', '-c', 'user.name=E2E', ...args], { cwd: dir, stdio: 'pipe' });
  git('init', '--quiet', '--initial-branch=main');
  fs.mkdirSync(path.join(dir, 'pipelines'));
  fs.mkdirSync(path.join(dir, 'datasets'));
  fs.writeFileSync(path.join(dir, 'pipelines', 'nightly-orders.yml'), ['version: pipelines/v0.1', 'data_components: [extractors/tap-demo, loaders/target-store]', 'schedule: 0 0 2 * * *', 'timeout: 600', ''].join('\n'));
  fs.writeFileSync(
    path.join(dir, 'datasets', 'deployed-orders.yml'),
    ['version: datasets/v0.2', 'title: Orders from the repository', 'questions: Which orders came in?', 'description: Defined in the workspace repository and deployed.', ''].join('\n'),
  );
  git('add', '-A');
  git('commit', '--quiet', '-m', 'Pipeline and dataset definitions');
  return dir;
}

test('an owner deploys a repository: its pipeline and dataset appear, the status and log show on the settings page', async ({ page }) => {
  test.setTimeout(300_000);
  const repository = repositoryWithDefinitions();
  const who = await signUpAndVerify(page, 'Dana Deploy');
  await signIn(page, who);
  await expect(page).toHaveURL(/\/setup\/w\/new$/);
  await page.getByLabel('Workspace name').fill('Dana Repository');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/setup\/imports\/[0-9a-f-]{36}$/);
  const workspaceId = new URL(page.url()).pathname.split('/').pop()!;
  // ready once the plugins show (WORKSPACE_INIT made the project and the default store)
  await expect(page.locator('[data-plugin="tap-demo"]')).toBeVisible({ timeout: 40_000 });

  await page.goto(`/w/${workspaceId}`);
  const status = page.getByRole('status', { name: 'Last deployment' });
  await expect(status).toContainText('Not deployed yet.');
  await page.getByLabel('Repository URL').fill(repository);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: 'Save' })).toBeEnabled();
  await page.getByRole('button', { name: 'Deploy', exact: true }).click();
  await expect(page.getByText('Deployment started: its status and log are under Repository.')).toBeVisible();
  await expect(status.locator('[data-status="COMPLETE"]')).toBeVisible({ timeout: 40_000 });
  await expect(status).toContainText(/commit [0-9a-f]{7}/);
  await status.scrollIntoViewIfNeeded();
  await screenshot(page, 'workspace-deploy-1280');

  await status.getByRole('button', { name: 'View log' }).click();
  const log = page.getByRole('dialog', { name: 'Job log' });
  await expect(log).toContainText('Created pipeline nightly-orders from pipelines/nightly-orders.yml.');
  await expect(log).toContainText('Deployed 1 pipeline (1 new) and 1 dataset (1 new).');
  await screenshot(page, 'workspace-deploy-log-1280');
  await page.keyboard.press('Escape');
  await expect(log).toBeHidden();
  await page.setViewportSize({ width: 375, height: 800 });
  await status.scrollIntoViewIfNeeded();
  await screenshot(page, 'workspace-deploy-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.goto(`/lab/${workspaceId}/pipelines`);
  await expect(page.getByText('nightly-orders').first()).toBeVisible();
  await page.goto(`/l/${workspaceId}/dataset/deployed-orders`);
  await expect(page.getByRole('heading', { name: 'Orders from the repository' })).toBeVisible();
  fs.rmSync(repository, { recursive: true, force: true });
});
