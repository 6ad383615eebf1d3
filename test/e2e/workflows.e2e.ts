import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { api, expectAccessible, freshEnvelope, gridRows, importDocuments, newCompany, openApp, saveScreen } from './helpers.ts';

test.describe.configure({ mode: 'serial' });
test.use({ locale: 'en-US', viewport: { width: 1440, height: 900 } });

let token: string;
let entryIds: string[];
test.beforeAll(async ({ request }) => {
  token = await newCompany(request, 'Workflows test');
  entryIds = await importDocuments(request, token, ['es-invoice-es-es.json', 'fr-invoice-fr-fr.json', 'nl-invoice.json', 'se-invoice-se-se.json'].map(freshEnvelope));
});

test('creates a workflow with a provider picker, generated config forms and routing', async ({ page }) => {
  await openApp(page, token, '#/workflows');
  await expect(page.getByRole('heading', { name: 'Automate the routine' })).toBeVisible();
  await expectAccessible(page, 'the empty workflows page');
  await page.getByRole('link', { name: 'New workflow' }).click();

  const editor = page.getByRole('form', { name: 'New workflow' });
  await editor.getByLabel('Name', { exact: true }).fill('Register and tag');
  const step1 = editor.getByRole('listitem', { name: /^Step 1/ });
  await step1.getByLabel('Provider').selectOption('silo.state');
  await expect(step1).toContainText("Sets the entry's state label");
  // the config form comes from the provider's JSON Schema
  await step1.getByLabel('State', { exact: true }).fill('registered');
  await step1.getByRole('button', { name: 'Add a route' }).click();
  await step1.getByLabel('Step 1, route 1: outcome').selectOption('KO');
  await expect(step1.getByLabel('Step 1, route 1: go to')).toHaveValue('stop');

  await editor.getByRole('button', { name: 'Add a step' }).click();
  const step2 = editor.getByRole('listitem', { name: /^Step 2/ });
  await step2.getByLabel('Provider').selectOption('silo.tags');
  await step2.getByLabel('Name (optional)').fill('Mark processed');
  await step2.getByLabel('Add an item to Add').fill('processed');
  await step2.getByLabel('Add an item to Add').press('Enter');
  await expect(step2.getByRole('list', { name: 'Tags' }).first()).toContainText('processed');

  await editor.getByRole('button', { name: 'Add a rescue step' }).click();
  const rescue = editor.getByRole('listitem', { name: /^Rescue step 1/ });
  await rescue.getByLabel('Provider').selectOption('silo.state');
  await rescue.getByLabel('State', { exact: true }).fill('error');

  await saveScreen(page, 'workflow-editor');
  await expectAccessible(page, 'the workflow editor');
  await editor.getByRole('button', { name: 'Create workflow' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Created Register and tag' })).toBeVisible();
  await expect(page).toHaveURL(/#\/workflows\/[0-9a-f-]{36}$/);
  const saved = page.getByRole('form', { name: 'Register and tag' });
  await expect(saved.getByRole('listitem', { name: /^Step 2: Mark processed/ })).toBeVisible();
  await expect(saved.getByRole('listitem', { name: /^Step 1/ }).getByLabel('State', { exact: true })).toHaveValue('registered');
  await expect(page.getByRole('navigation', { name: 'Workflow list' })).toContainText('Register and tag');
  await saveScreen(page, 'workflows');
});

test('shows the service’s field errors next to the fields', async ({ page }) => {
  await openApp(page, token, '#/workflows/new');
  const editor = page.getByRole('form', { name: 'New workflow' });
  await editor.getByLabel('Name', { exact: true }).fill('Broken');
  const step1 = editor.getByRole('listitem', { name: /^Step 1/ });
  await step1.getByLabel('Provider').selectOption('silo.state');
  await step1.getByLabel('State', { exact: true }).fill('Not A Label');
  await editor.getByRole('button', { name: 'Create workflow' }).click();
  await expect(editor.getByRole('alert')).toContainText('not valid');
  const state = step1.getByLabel('State', { exact: true });
  await expect(state).toHaveAttribute('aria-invalid', 'true');
  await expect(step1.locator('.field-error')).toContainText('must be a lower-case label');
});

test('runs a workflow on an entry and watches the job to its end', async ({ page }) => {
  await openApp(page, token, `#/entries/${entryIds[0]}`);
  const view = page.locator('.entry-view');
  await view.getByRole('button', { name: 'Run workflow…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Run a workflow on 1 entry' });
  await dialog.getByLabel('Workflow').selectOption({ label: 'Register and tag' });
  await dialog.getByRole('button', { name: 'Run' }).click();

  const live = page.getByRole('dialog', { name: 'Running Register and tag' });
  await expect(live.getByText(/Finished in/)).toBeVisible({ timeout: 20_000 });
  await expect(live.locator('.job-compact-status')).toContainText('OK');
  const steps = live.locator('ol.intents > li');
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText('silo.state');
  await expect(steps.nth(1)).toContainText('Mark processed');
  await expect(steps.nth(1).locator('.events')).toContainText('OK');
  await saveScreen(page, 'job-live');
  await expectAccessible(page, 'the live job dialog');
  await live.getByRole('button', { name: 'Close' }).first().click();

  // What the job did shows on the entry.
  const props = page.getByRole('complementary', { name: 'Entry properties' });
  await expect(props.getByLabel('State')).toHaveValue('registered');
  await expect(props.getByRole('list', { name: 'Tags' })).toContainText('processed');
  await view.getByRole('tab', { name: 'Jobs' }).click();
  await expect(view.getByRole('table', { name: 'Jobs on this entry' })).toContainText('Register and tag');
});

test('runs a workflow on a selection, and lists jobs by status', async ({ page }) => {
  await openApp(page, token);
  const rows = gridRows(page);
  await rows.nth(0).click();
  await rows.nth(2).click({ modifiers: ['Shift'] });
  const bar = page.getByRole('region', { name: 'Selection' });
  await expect(bar).toContainText('3 entries selected');
  await bar.getByRole('button', { name: 'Run workflow…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Run a workflow on 3 entries' });
  await dialog.getByLabel('Workflow').selectOption({ label: 'Register and tag' });
  await dialog.getByRole('button', { name: 'Run' }).click();
  const toast = page.getByRole('status').filter({ hasText: 'Started 3 jobs' });
  await expect(toast).toBeVisible();
  await toast.getByRole('button', { name: 'View jobs' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Jobs' });
  await page.getByRole('radio', { name: 'OK' }).check();
  await expect(table.getByRole('row')).toHaveCount(1 + 4, { timeout: 20_000 });
  await page.getByRole('radio', { name: 'Failed' }).check();
  await expect(page.getByRole('heading', { name: 'No job matches' })).toBeVisible();
  await page.getByRole('radio', { name: 'All' }).check();
  await expect(table.getByRole('row')).toHaveCount(1 + 4);
  await saveScreen(page, 'jobs');
  await expectAccessible(page, 'the jobs page');

  await table.getByRole('row').nth(1).getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 2, name: /Register and tag/ })).toBeVisible();
  await expect(page.locator('ol.intents > li')).toHaveCount(2);
  await saveScreen(page, 'job');
  await expectAccessible(page, 'a job');
});

test('watches a slow job live: its step shows running, then the job ends by itself', async ({ page, request }) => {
  // A webhook receiver that holds its answer until the test lets it go.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  const server = createServer((req, res) => {
    calls += 1;
    req.resume();
    void released.then(() => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await api(request, token, 'put', `/transform/v1/workflows/${crypto.randomUUID()}`, {
      name: 'Notify and register',
      steps: [{ name: 'Tell the ledger', provider: 'webhook', config: { url: `http://127.0.0.1:${port}/hook` } }, { provider: 'silo.state', config: { state: 'sent' } }],
    });
    await openApp(page, token, `#/entries/${entryIds[3]}`);
    await page.locator('.entry-view').getByRole('button', { name: 'Run workflow…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run a workflow on 1 entry' });
    await dialog.getByLabel('Workflow').selectOption({ label: 'Notify and register' });
    await dialog.getByRole('button', { name: 'Run' }).click();

    const live = page.getByRole('dialog', { name: 'Running Notify and register' });
    await expect(live.locator('.job-compact-status')).toContainText('Running…');
    await expect(live.locator('ol.intents > li').first()).toContainText('Tell the ledger');
    await expect.poll(() => calls).toBe(1);
    release();
    await expect(live.getByText(/Finished in/)).toBeVisible({ timeout: 15_000 });
    await expect(live.locator('.job-compact-status')).toContainText('OK');
    await expect(live.locator('ol.intents > li')).toHaveCount(2);
    await live.getByRole('button', { name: 'Close' }).first().click();
    await expect(page.getByRole('complementary', { name: 'Entry properties' }).getByLabel('State')).toHaveValue('sent');
  } finally {
    release();
    server.close();
  }
});
