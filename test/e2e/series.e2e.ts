import { expect, test } from '@playwright/test';
import { api, expectAccessible, freshEnvelope, importDocuments, newCompany, openApp, saveScreen } from './helpers.ts';

test.describe.configure({ mode: 'serial' });
test.use({ locale: 'en-US', viewport: { width: 1440, height: 900 } });

let token: string;
test.beforeAll(async ({ request }) => {
  token = await newCompany(request, 'Series test');
});

test('creates a series with a live preview of its codes', async ({ page }) => {
  await openApp(page, token, '#/series');
  await expect(page.getByRole('heading', { name: 'Number your documents' })).toBeVisible();
  await expectAccessible(page, 'the empty series page');
  await page.getByRole('link', { name: 'New series' }).click();

  const form = page.getByRole('form', { name: 'New series' });
  const preview = form.getByRole('status').or(form.locator('output.preview-code'));
  await form.getByLabel('Name').fill('Sales invoices 2025');
  await form.getByLabel('Series code (optional)').fill('FV');
  await form.getByLabel('Prefix').fill('2025-');
  await expect(form.locator('output.preview-code')).toHaveText('2025-0001');
  await form.getByLabel('Digits (padding)').fill('5');
  await form.getByLabel('Suffix').fill('/A');
  await form.getByLabel('First number').fill('7');
  await expect(form.locator('output.preview-code')).toHaveText('2025-00007/A');
  await expect(form.locator('.code-preview')).toContainText('then 2025-00008/A, 2025-00009/A');
  await expect(preview.first()).toBeVisible();
  await expectAccessible(page, 'the new series form');

  // The service's field errors show next to the fields.
  await form.getByLabel('Prefix').fill(' 2025-');
  await form.getByRole('button', { name: 'Create series' }).click();
  await expect(form.locator('.field-error')).toContainText('must not start with a space');
  await form.getByLabel('Prefix').fill('2025-');
  await form.getByRole('button', { name: 'Create series' }).click();

  await expect(page.getByRole('heading', { level: 1, name: /Sales invoices 2025/ })).toBeVisible();
  await expect(page.locator('.verify')).toContainText('Verified · 0 entries intact');
  await expect(page.getByRole('heading', { name: 'No numbers issued yet' })).toBeVisible();
});

test('issues numbers by hand, verifies the chain and decodes each signature', async ({ page }) => {
  await openApp(page, token, '#/series');
  await page.getByRole('navigation', { name: 'Series list' }).getByRole('link', { name: /Sales invoices 2025/ }).click();

  await page.getByRole('button', { name: 'Issue 2025-00007/A' }).click();
  const issue = page.getByRole('dialog', { name: 'Issue 2025-00007/A' });
  await issue.getByLabel('Note 1 value').fill('manual, paper book p. 12');
  await issue.getByRole('button', { name: 'Issue 2025-00007/A' }).click();
  await expect(issue).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Issued 2025-00007/A' })).toBeVisible();

  await page.getByRole('button', { name: 'Issue 2025-00008/A' }).click();
  await page.getByRole('dialog', { name: 'Issue 2025-00008/A' }).getByRole('button', { name: 'Issue 2025-00008/A' }).click();

  const table = page.getByRole('table', { name: 'Issued numbers' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByRole('row').nth(1)).toContainText('2025-00008/A');
  await expect(table.getByRole('row').nth(2)).toContainText('2025-00007/A');
  await expect(table.getByRole('row').nth(2)).toContainText('manual, paper book p. 12');
  await expect(page.locator('.verify')).toContainText('Verified · 2 entries intact');

  await table.getByRole('row').nth(1).getByRole('button', { name: /1 signature/ }).click();
  const signature = table.locator('.signature');
  await expect(signature).toContainText('ES256');
  await expect(signature).toContainText('key of this instance');
  await expect(signature.locator('dd', { hasText: '2025-00008/A' })).toBeVisible();
  // the chain link: the entry before, by id
  await expect(signature.getByText('previous_id')).toBeVisible();
  await saveScreen(page, 'series');
  await expectAccessible(page, 'a series');
});

test('a workflow step numbers a document from the series, and the series links to it', async ({ page, request }) => {
  const series = (await api(request, token, 'get', '/sequence/v1/series')).list[0];
  const draft = freshEnvelope('es-invoice-es-es.json');
  delete draft.doc.code;
  const [entryId] = await importDocuments(request, token, [draft]);
  const workflowId = crypto.randomUUID();
  await api(request, token, 'put', `/transform/v1/workflows/${workflowId}`, {
    name: 'Number it',
    steps: [{ provider: 'sequence.enumerate', config: { series_id: series.id } }],
  });
  await openApp(page, token, `#/workflows/${workflowId}`);
  // the config form offers the series by name
  await expect(page.getByRole('listitem', { name: /^Step 1/ }).getByLabel('Series id')).toHaveValue(series.id);
  await expect(page.getByRole('listitem', { name: /^Step 1/ }).getByLabel('Series id').locator('option:checked')).toHaveText('Sales invoices 2025 (FV)');

  const job = await api(request, token, 'post', '/transform/v1/jobs?wait=30', { workflow_id: workflowId, silo_entry_id: entryId });
  expect(job.status).toBe('OK');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Series' }).click();
  await page.getByRole('navigation', { name: 'Series list' }).getByRole('link', { name: /Sales invoices 2025/ }).click();
  const row = page.getByRole('table', { name: 'Issued numbers' }).getByRole('row', { name: /2025-00009\/A/ });
  await row.getByRole('link', { name: 'Open the document' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Invoice FV-2025-00009/A' })).toBeVisible();
});
