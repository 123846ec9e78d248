import { expect, test } from './fixtures';
import { createMachine } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { DEMO, signIn } from './support';

// A user-level model of the API Keys page (ARCHITECTURE principle 3): every shortest path through
// it is driven in Chromium, and each state is checked on the real page.
const apiKeysPage = createMachine({
  id: 'apiKeysPage',
  initial: 'list',
  states: {
    list: { on: { NEW: 'naming' } },
    naming: { on: { TYPE_NAME: 'named', CANCEL: 'list' } },
    named: { on: { CLEAR_NAME: 'naming', CREATE: 'issued', CANCEL: 'list' } },
    issued: { on: { DONE: 'listed' } },
    listed: { on: { DELETE: 'confirming' } },
    confirming: { on: { CANCEL_DELETE: 'listed', CONFIRM_DELETE: 'deleted' } },
    deleted: {},
  },
});

const model = createTestModel(apiKeysPage);

for (const path of model.getShortestPaths()) {
  test(`API Keys page: ${path.description}`, async ({ page }) => {
    const name = `model key ${Math.random().toString(36).slice(2, 8)}`;
    await signIn(page, DEMO.owner, '/api-key');
    await expect(page.getByRole('heading', { name: 'API Keys', exact: true })).toBeVisible();
    const newKey = page.getByRole('dialog');
    const alert = page.getByRole('alertdialog');
    const keyInput = page.locator(`input[aria-label="Key name"][value="${name}"]`);

    await path.test({
      states: {
        list: async () => {
          await expect(page.getByRole('button', { name: 'New API token' })).toBeEnabled();
          await expect(newKey).toHaveCount(0);
        },
        naming: async () => {
          await expect(newKey.getByRole('button', { name: 'Create' })).toBeDisabled();
        },
        named: async () => {
          await expect(newKey.getByRole('button', { name: 'Create' })).toBeEnabled();
        },
        issued: async () => {
          await expect(alert.getByText('Your client secret will not be shown again')).toBeVisible();
          await expect(alert.getByRole('textbox', { name: 'Client secret' })).not.toHaveValue('');
        },
        listed: async () => {
          await expect(alert).toHaveCount(0);
          await expect(keyInput).toHaveCount(1);
        },
        confirming: async () => {
          await expect(alert.getByRole('button', { name: 'Delete' })).toBeVisible();
        },
        deleted: async () => {
          await expect(alert).toHaveCount(0);
          await expect(keyInput).toHaveCount(0);
        },
      },
      events: {
        NEW: () => page.getByRole('button', { name: 'New API token' }).click(),
        TYPE_NAME: () => newKey.getByLabel('Name').fill(name),
        CLEAR_NAME: () => newKey.getByLabel('Name').fill(''),
        CANCEL: () => newKey.getByRole('button', { name: 'Cancel' }).click(),
        CREATE: () => newKey.getByRole('button', { name: 'Create' }).click(),
        DONE: () => alert.getByRole('button', { name: 'Done' }).click(),
        DELETE: () => page.getByRole('button', { name: `Delete ${name}` }).click(),
        CANCEL_DELETE: () => alert.getByRole('button', { name: 'Cancel' }).click(),
        CONFIRM_DELETE: () => alert.getByRole('button', { name: 'Delete' }).click(),
      },
    });
  });
}
