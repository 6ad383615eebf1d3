import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { expectAccessible, freshEnvelope, importDocuments, newCompany, openApp, saveScreen } from './helpers.ts';

test.describe.configure({ mode: 'serial' });
test.use({ locale: 'en-US', viewport: { width: 1440, height: 900 } });

/** A second Silodesk, the remote the UI's company syncs with. */
let remote: { url: string; token: string; dir: string; child: ChildProcess };

test.beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'silodesk-remote-'));
  const child = spawn(process.execPath, ['src-main/serve.ts', '--data', dir, '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the remote did not start:\n${out}\n${stderr}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /silodesk listening on (\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`the remote exited (${code}):\n${out}\n${stderr}`)));
  });
  remote = { url, token: readFileSync(join(dir, 'api-token'), 'utf8').trim(), dir, child };
});

test.afterAll(async () => {
  if (!remote) return;
  const exited = new Promise((resolve) => remote.child.once('exit', resolve));
  remote.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  rmSync(remote.dir, { recursive: true, force: true });
});

async function remoteEntryIds(): Promise<string[]> {
  const res = await fetch(`${remote.url}/silo/v1/entries?limit=100`, { headers: { authorization: `Bearer ${remote.token}` } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { list: Array<{ id: string }> };
  return body.list.map((e) => e.id);
}

test('sets up sync with a remote, syncs an entry there, and reports a dead remote', async ({ page, request }) => {
  const token = await newCompany(request, 'Sync test');
  await openApp(page, token);
  const header = page.getByRole('banner');

  // Not set up: a quiet link from the header to the Sync screen.
  await header.getByRole('link', { name: 'Sync not set up' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sync' })).toBeVisible();
  expect(page.url()).toContain('#/sync');

  // A field error from the API shows next to its field.
  const form = page.getByRole('region', { name: 'Remote' });
  await form.getByLabel('Remote URL').fill('ftp://example.com');
  await form.getByLabel('Token', { exact: false }).fill(remote.token);
  await form.getByRole('button', { name: 'Set up sync' }).click();
  await expect(form.locator('.field-error')).toContainText('must start with https://');
  await expect(form.getByLabel('Remote URL')).toHaveAttribute('aria-invalid', 'true');

  // Test the typed URL and token before saving.
  await form.getByLabel('Remote URL').fill(remote.url);
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByTestId('connection-result')).toContainText(/Connected to .+ in \d+ ms/);

  await form.getByLabel('Sync every (minutes)').fill('0');
  await form.getByRole('button', { name: 'Set up sync' }).click();
  await expect(form.getByText('saved', { exact: true })).toBeVisible();
  await expect(form.getByLabel('Token', { exact: false })).toHaveValue('');

  // A local change waits to be sent.
  const [entryId] = await importDocuments(request, token, [freshEnvelope('es-invoice-es-es.json')]);
  expect(await remoteEntryIds()).not.toContain(entryId);
  await expect(header.locator('.sync-badge')).toHaveText(/\d+ pending/, { timeout: 10_000 });

  const status = page.getByRole('region', { name: 'Status' });
  await status.getByRole('button', { name: 'Sync now' }).click();
  await expect(status.getByTestId('sync-state')).toHaveAttribute('data-state', 'synced', { timeout: 20_000 });
  await expect(header.locator('.sync-badge')).toHaveText('Synced');
  await expect(status).toContainText(/Last success\s*(now|\d+ seconds? ago)/);
  expect(await remoteEntryIds()).toContain(entryId);

  // The badge opens the screen from elsewhere.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('region', { name: 'Sync' }).getByText('Synced', { exact: true })).toBeVisible();
  await header.getByRole('link', { name: /^Sync: Synced/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sync' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Conflicts' })).toContainText('No conflicts');
  await expect(page.getByRole('region', { name: 'Parked changes' })).toContainText('None');

  await saveScreen(page, 'sync');
  await expectAccessible(page, 'the sync screen');

  // Nothing answers on port 9: the test says so, with the kind of failure.
  await form.getByLabel('Remote URL').fill('http://127.0.0.1:9');
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByTestId('connection-result')).toContainText(/Connection failed \(network\)/, { timeout: 15_000 });
  await expectAccessible(page, 'the sync screen with a failed connection test');
});
