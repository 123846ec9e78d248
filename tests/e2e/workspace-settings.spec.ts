import { deflateSync } from 'node:zlib';
import { expect, test, type Page } from './fixtures';
import { screenshot, signIn, signUpAndVerify } from './support';

// Issue 10's journey (settings half): an owner creates a workspace at /w/new, renames it at /w/{id},
// sets a logo (square crop of an uploaded PNG) and approved domains, and deletes a second workspace.

/** A plain-coloured RGB PNG of `width` x `height`, built here so the test needs no fixture file. */
function png(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([0x20, 0x70, 0xc0]))]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

/** Creates a workspace at /w/new and returns its id once the form has moved on to /l/{id}/…. */
async function createWorkspace(page: Page, name: string, shots?: string): Promise<string> {
  await page.goto('/w/new');
  await expect(page.getByRole('heading', { name: 'New Workspace' })).toBeVisible();
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  await page.getByLabel('Name').fill(name);
  if (shots) {
    await screenshot(page, `${shots}-1280`);
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, `${shots}-375`);
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  await save.click();
  await expect(page.getByText('Workspace created successfully!')).toBeVisible();
  // After 1 s the form moves on to /l/{id}/data/new, which leads to the Lab's new pipeline page.
  await page.waitForURL(/\/lab\/[0-9a-f-]{36}\/pipelines\/new$/);
  return new URL(page.url()).pathname.split('/')[2]!;
}

test('an owner creates, renames, sets a logo and domains, and deletes a second workspace', async ({ page }) => {
  test.setTimeout(300_000);
  const who = await signUpAndVerify(page, 'Wanda Workspace');
  await signIn(page, who);
  // Someone with no workspace yet starts with onboarding's step 1 (spec 000 §4); name one there.
  await expect(page).toHaveURL(/\/setup\/w\/new$/);
  await page.getByLabel('Workspace name').fill('Wanda Home');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/setup\/imports\//);

  const first = await createWorkspace(page, 'Wanda Data', 'workspace-new');
  await expect(page.getByRole('heading', { name: 'New data import' })).toBeVisible();

  // Rename, set approved domains and a logo
  await page.goto(`/w/${first}`);
  await expect(page.getByRole('heading', { name: 'Workspace Settings' })).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('Wanda Data');
  await page.getByLabel('Name').fill('Wanda Analytics');
  await page.getByLabel('Approved domains').fill('@wanda.example, example.org');
  await page.getByRole('button', { name: 'Set logo' }).click();
  const dialog = page.getByRole('dialog', { name: 'Logo' });
  await dialog.getByLabel('Logo file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png(240, 160) });
  await expect(dialog.getByText('Size: 100 px')).toBeVisible();
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Change logo' })).toBeVisible();
  await expect(page.locator('img[src^="data:image/png"]')).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: 'Save' })).toBeEnabled();

  // What was saved comes back from the server
  await page.reload();
  await expect(page.getByLabel('Name')).toHaveValue('Wanda Analytics');
  await expect(page.getByLabel('Approved domains')).toHaveValue(/@wanda\.example.*@example\.org/);
  await expect(page.getByRole('button', { name: 'Change logo' })).toBeVisible();
  // the sidebar's workspace menu shows the logo instead of the initial
  await expect(page.getByRole('button', { name: 'Workspace menu: Wanda Analytics' }).locator('[data-logo="image"] img')).toBeVisible();
  await screenshot(page, 'workspace-settings-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'workspace-settings-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  // A second workspace, deleted after 'Remove this workspace...'; back to /
  const second = await createWorkspace(page, 'Wanda Scratch');
  await page.goto(`/w/${second}`);
  await expect(page.getByLabel('Name')).toHaveValue('Wanda Scratch');
  await page.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete workspace' });
  await expect(confirm.getByText('Remove this workspace...')).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/w/'));
  await page.goto(`/w/${second}`);
  await expect(page.getByLabel('Name')).toHaveCount(0);
  // The first workspace is still there
  await page.goto(`/w/${first}`);
  await expect(page.getByLabel('Name')).toHaveValue('Wanda Analytics');
});
