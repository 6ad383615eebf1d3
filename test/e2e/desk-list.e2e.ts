import { createHash } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { v7 as uuidv7 } from 'uuid';
import { invoice, type Variant } from '../api/desk-list-docs.ts';
import { api, expectAccessible, freshEnvelope, gridRows, makePdf, newCompany, openApp, saveScreen, writeFile, writeJsonFile } from './helpers.ts';

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1440, height: 900 } });

/** Stores documents through the import API (set-up); answers their ids in order. */
async function store(request: Parameters<typeof api>[0], token: string, docs: unknown[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < docs.length; i += 500) {
    const body = await api(request, token, 'post', '/silo/v1/import', { entries: docs.slice(i, i + 500).map((data) => ({ data })) });
    expect(body.failed).toBe(0);
    ids.push(...body.results.map((r: any) => r.id));
  }
  return ids;
}

const header = (page: Page, name: string) => page.getByRole('grid', { name: 'Entries' }).getByRole('columnheader', { name, exact: true });
/** A row's cell in a column, by the column's id (`total`, `due_date`…). */
const cellOf = (page: Page, id: string, column: string) => page.locator(`#entry-row-${id} [role="gridcell"][data-column="${column}"]`);

test.describe('the list, in German number format', () => {
  test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });
  let token: string;
  const variants: Variant[] = [
    { code: 'A-7', supplier: 'Zeta Handel', customer: 'Kunde Eins', issue_date: '2025-03-01', due_date: '2025-03-31', quantity: 123, price: '10.01' },
    { code: 'A-8', supplier: 'Alpha Bau', customer: 'Kunde Zwei', issue_date: '2025-03-02', due_date: '2025-03-10', quantity: 2 },
    { code: 'CN-1', supplier: 'Beta GmbH', customer: 'Kunde Drei', issue_date: '2025-03-03', type: 'credit-note', quantity: 40 },
    // Enough more that the list has pages (100 a page) and "select all matching" goes to the service.
    ...Array.from({ length: 130 }, (_, i): Variant => ({ code: `M-${i + 1}`, supplier: `Lieferant ${i % 7}`, issue_date: `2025-02-${String((i % 27) + 1).padStart(2, '0')}`, quantity: (i % 5) + 1 })),
  ];
  let ids: string[];

  test.beforeAll(async ({ request }) => {
    token = await newCompany(request, 'Desk list test');
    ids = await store(request, token, variants.map(invoice));
  });

  test('chooses columns, sorts on the service, shows credit notes negative and money the user’s way', async ({ page }) => {
    await openApp(page, token);
    await expect(gridRows(page).first()).toBeVisible();
    await page.getByText('Columns', { exact: true }).click();
    const choices = page.getByRole('group', { name: 'Columns' });
    for (const name of ['Due', 'Net', 'Tax']) await choices.getByLabel(name, { exact: true }).check();
    await choices.getByLabel('Tags', { exact: true }).uncheck();
    await page.keyboard.press('Escape');
    await expect(choices).toBeHidden();
    for (const name of ['Issued', 'Due', 'Number', 'Net', 'Tax', 'Total']) await expect(header(page, name)).toBeVisible();
    await expect(header(page, 'Tags')).toHaveCount(0);

    // Down at the end of the list, with its last row active: a new order shows its own top, not where that row went.
    await page.locator('.entry-grid').focus();
    await page.keyboard.press('End');
    await expect(page.locator('.entry-grid')).toHaveAttribute('aria-activedescendant', /^entry-row-/);
    await expect(gridRows(page).first()).not.toHaveAttribute('aria-rowindex', '2');
    // Sorting asks the service for the order (a keyset walk), not the page already loaded.
    const asked = page.waitForRequest((r) => r.url().includes('/silo/v1/entries?') && r.url().includes('sort=total'));
    await header(page, 'Total').getByRole('button').click();
    expect(new URL((await asked).url()).searchParams.get('ascending')).toBe('false');
    await expect(header(page, 'Total')).toHaveAttribute('aria-sort', 'descending');
    await expect(gridRows(page).first()).toHaveAttribute('id', `entry-row-${ids[0]}`);
    // 123 × 10.01 = 1,231.23 net, 21 % tax: German grouping and decimal comma, the euro after.
    await expect(cellOf(page, ids[0], 'net')).toHaveText('1.231,23 €');
    await expect(cellOf(page, ids[0], 'tax')).toHaveText('258,56 €');
    await expect(cellOf(page, ids[0], 'total')).toHaveText('1.489,79 €');
    await expect(cellOf(page, ids[0], 'due_date')).toHaveText('31. März 2025');

    await header(page, 'Total').getByRole('button').click();
    await expect(header(page, 'Total')).toHaveAttribute('aria-sort', 'ascending');
    // A credit note counts against the others: first when ascending, negative and marked.
    const credit = page.locator(`#entry-row-${ids[2]}`);
    await expect(gridRows(page).first()).toHaveAttribute('id', `entry-row-${ids[2]}`);
    await expect(cellOf(page, ids[2], 'total')).toHaveText('-484,00 €');
    await expect(cellOf(page, ids[2], 'total')).toHaveClass(/negative/);
    await expect(credit).toContainText('Credit note');
    await expect(page.getByLabel('Order')).toHaveValue('total-asc');

    // By due date: the dated ones first, the rest after.
    await header(page, 'Due').getByRole('button').click();
    await expect(gridRows(page).nth(0)).toHaveAttribute('id', `entry-row-${ids[1]}`);
    await expect(gridRows(page).nth(1)).toHaveAttribute('id', `entry-row-${ids[0]}`);
    await saveScreen(page, 'desk-list-columns');
    await expectAccessible(page, 'the list with chosen columns');

    // The order is reachable from the keyboard too, and every page of a sorted list loads as it scrolls.
    await page.getByLabel('Order').selectOption('net-desc');
    await expect(header(page, 'Net')).toHaveAttribute('aria-sort', 'descending');
    await expect(gridRows(page).first()).toHaveAttribute('id', `entry-row-${ids[0]}`);
    const grid = page.getByRole('grid', { name: 'Entries' });
    await expect
      .poll(async () => {
        await grid.evaluate((el) => (el.scrollTop = el.scrollHeight));
        return grid.locator(`[role="row"][aria-rowindex="${ids.length + 1}"]`).count();
      }, { timeout: 20_000 })
      .toBe(1);
    // Last by net: the credit note, counted negative.
    await expect(grid.locator(`[role="row"][aria-rowindex="${ids.length + 1}"]`)).toHaveAttribute('id', `entry-row-${ids[2]}`);
  });

  test('adds up a selection per currency, a credit note negative, also for every match', async ({ page }) => {
    await openApp(page, token);
    await header(page, 'Total').getByRole('button').click();
    await header(page, 'Total').getByRole('button').click();
    await expect(gridRows(page).first()).toHaveAttribute('id', `entry-row-${ids[2]}`);
    await gridRows(page).nth(0).click();
    await gridRows(page).nth(2).click({ modifiers: ['Shift'] });
    const sums = page.getByRole('region', { name: 'Totals of the selected entries' });
    const shown = await Promise.all([0, 1, 2].map(async (i) => (await gridRows(page).nth(i).getAttribute('id'))!.replace('entry-row-', '')));
    const entries = await Promise.all(shown.map((id) => api(page.request, token, 'get', `/silo/v1/entries/${id}`)));
    const cents = (e: any) => Math.round(Number(e.snippet.payable ?? e.snippet.total_with_tax) * 100) * (e.snippet.type === 'credit-note' ? -1 : 1);
    const total = entries.reduce((s, e) => s + cents(e), 0) / 100;
    const expected = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(total);
    await expect(sums).toContainText('Σ 3 entries in EUR');
    await expect(sums.locator('.sum-amount').filter({ hasText: 'Total' })).toContainText(expected);
    await saveScreen(page, 'desk-list-sums');

    // Every match, beyond the loaded page: the service adds them up the same way.
    await page.getByRole('checkbox', { name: 'Select all loaded entries' }).check();
    await page.getByRole('region', { name: 'Selection' }).getByRole('button', { name: /Select all .* matching entries/ }).click();
    const all = await api(page.request, token, 'get', '/silo/v1/entry-sums');
    await expect(sums).toContainText(`Σ ${new Intl.NumberFormat('de-DE').format(all.list[0].count)} entries in EUR`);
    const allTotal = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(Number(all.list[0].total));
    await expect(sums.locator('.sum-amount').filter({ hasText: 'Total' })).toContainText(allTotal);
  });

  test('saves a view (filters, columns, order) with the service and brings it back', async ({ page }) => {
    await openApp(page, token);
    await page.getByText('Columns', { exact: true }).click();
    await page.getByRole('group', { name: 'Columns' }).getByLabel('Due', { exact: true }).check();
    await page.keyboard.press('Escape');
    await page.getByLabel('Issued from').fill('2025-03-01');
    await header(page, 'Due').getByRole('button').click();
    await page.getByText('Views', { exact: true }).click();
    const views = page.getByRole('group', { name: 'Views' });
    await views.getByLabel('Save the list as it is').fill('March by due date');
    await views.getByRole('button', { name: 'Save view' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved the view March by due date' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'March by due date' })).toBeVisible();
    const saved = await api(page.request, token, 'get', '/silo/v1/views');
    expect(saved.list).toEqual([expect.objectContaining({ name: 'March by due date', filters: { date_from: '2025-03-01' }, sort: { by: 'due_date', ascending: true } })]);

    // Another day: a fresh list, then the view.
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await expect(header(page, 'Due')).toHaveCount(0);
    await page.getByText('Views', { exact: true }).click();
    await page.getByRole('group', { name: 'Views' }).getByRole('button', { name: 'March by due date', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'March by due date' })).toBeVisible();
    await expect(header(page, 'Due')).toHaveAttribute('aria-sort', 'ascending');
    await expect(page.getByLabel('Issued from')).toHaveValue('2025-03-01');
    await expect(gridRows(page)).toHaveCount(3);
    await expect(gridRows(page).first()).toHaveAttribute('id', `entry-row-${ids[1]}`);
    await page.getByText('Views', { exact: true }).click();
    await saveScreen(page, 'desk-list-views');
    await expectAccessible(page, 'the views menu');
  });
});

test.describe('search, imports and names', () => {
  test.use({ locale: 'en-US', timezoneId: 'Europe/Madrid' });
  let token: string;
  test.beforeAll(async ({ request }) => {
    token = await newCompany(request, 'Desk search test');
    await store(request, token, [
      invoice({ code: 'EXPORT-001', supplier: 'Exportadora Sur' }),
      ...Array.from({ length: 12 }, (_, i) => invoice({ code: `EXPORT-001${i}`, supplier: 'Exportadora Norte' })),
    ]);
  });

  test('puts the exact number first and marks what matched', async ({ page }) => {
    await openApp(page, token);
    await page.getByRole('searchbox', { name: 'Search entries' }).fill('EXPORT-001');
    await expect(page.locator('.list-summary')).toContainText('13 entries for “EXPORT-001”');
    const first = gridRows(page).first();
    await expect(first.getByRole('link')).toHaveText('EXPORT-001');
    await expect(first.locator('mark.hit')).toHaveText(['EXPORT', '001', 'Export']);
    await page.getByRole('searchbox', { name: 'Search entries' }).fill('norte');
    await expect(gridRows(page).first().locator('mark.hit')).toHaveText(['Norte']);
    await page.getByRole('searchbox', { name: 'Search entries' }).fill('EXPORT-001');
    await saveScreen(page, 'desk-search');
    await expectAccessible(page, 'search results with marked hits');
  });

  test('imports `Scan 2025-03-14 10:30.pdf` with its file, and decides once for every duplicate', async ({ page }) => {
    await openApp(page, token);
    const bytes = await makePdf(['Invoice from ACME', 'Total 121.00 EUR']);
    const scan = writeFile('Scan 2025-03-14 10:30.pdf', bytes);
    await page.locator('#import-files').setInputFiles([scan]);
    const panel = page.getByRole('region', { name: 'Import finished' });
    await expect(panel.getByRole('status')).toHaveText('1 entry added');
    const row = (name: string) => panel.locator(`li[data-file="${name}"]`);
    await expect(row('Scan 2025-03-14 10:30.pdf')).toContainText('Imported');
    const drafts = await api(page.request, token, 'get', '/silo/v1/entries?limit=10');
    const draft = drafts.list.find((e: any) => e.doc_schema.endsWith('/scan'));
    expect(draft.attachments.map((a: any) => [a.name, a.hash])).toEqual([['Scan 2025-03-14 10:30.pdf', createHash('sha256').update(bytes).digest('hex')]]);
    await page.getByRole('button', { name: 'Close the import results' }).click();

    // The same bytes under two other names, and a GOBL document stored already: nothing stored yet, one decision.
    const stored = freshEnvelope('es-invoice-es-es.json');
    await store(page.request, token, [stored]);
    const again = { ...stored, head: { ...stored.head, uuid: uuidv7() } };
    const files = [writeFile('copy of the scan.pdf', bytes), writeFile('ACME March.pdf', bytes), writeJsonFile('invoice again.json', again)];
    await page.locator('#import-files').setInputFiles(files);
    await expect(panel.getByRole('status')).toHaveText('0 entries added · 3 already stored');
    await expect(row('copy of the scan.pdf')).toContainText('The same file is already stored');
    await expect(row('invoice again.json')).toContainText('This document is already stored');
    const decide = panel.getByRole('group', { name: 'Decide for all' });
    await expect(decide).toContainText('3 documents are already stored');
    await saveScreen(page, 'import-duplicates');
    await expectAccessible(page, 'the duplicate decision');
    await decide.getByRole('button', { name: 'Import all 3 as new copies' }).click();
    await expect(panel.getByRole('status')).toHaveText('3 entries added');
    await expect(row('ACME March.pdf')).toContainText('Imported as a new copy');
    await expect(decide).toHaveCount(0);

    // The very same files again are the entries just made ("already there"); under yet other names and
    // ids they are duplicates again: skip them all, and nothing is stored.
    await page.locator('#import-files').setInputFiles(files);
    await expect(panel.getByRole('status')).toHaveText('0 entries added · 3 already there');
    const before = (await api(page.request, token, 'get', '/silo/v1/entry-sums')).count;
    const more = [writeFile('scan (2).pdf', bytes), writeFile('scan (3).pdf', bytes), writeJsonFile('invoice once more.json', { ...stored, head: { ...stored.head, uuid: uuidv7() } })];
    await page.locator('#import-files').setInputFiles(more);
    await expect(panel.getByRole('status')).toHaveText('0 entries added · 3 already stored');
    await panel.getByRole('button', { name: 'Skip all duplicates' }).click();
    await expect(panel.getByRole('status')).toHaveText('0 entries added · 3 duplicates skipped');
    await expect(panel.locator('li[data-file="scan (2).pdf"]')).toContainText('Skipped: The same file is already stored');
    expect((await api(page.request, token, 'get', '/silo/v1/entry-sums')).count).toBe(before);
  });

  test('imports many envelopes whose id is taken as new copies in one action', async ({ page }) => {
    await openApp(page, token);
    const taken = uuidv7();
    const holder = freshEnvelope('nl-invoice.json');
    holder.head.uuid = taken;
    await store(page.request, token, [holder]);
    const files = ['fr-invoice-fr-fr.json', 'fi-invoice-fi-fi.json', 'se-invoice-se-se.json', 'us-invoice-us-us.json', 'de-invoice-de-de-stnr.json'].map((fixture, i) => {
      const envelope = freshEnvelope(fixture);
      envelope.head.uuid = taken;
      return writeJsonFile(`clash-${i + 1}.json`, envelope);
    });
    await page.locator('#import-files').setInputFiles(files);
    const panel = page.getByRole('region', { name: 'Import finished' });
    await expect(panel.getByRole('status')).toHaveText('0 entries added · 5 with a taken id');
    await panel.getByRole('group', { name: 'Decide for all' }).getByRole('button', { name: 'Import all 5 as new copies' }).click();
    await expect(panel.getByRole('status')).toHaveText('5 entries added');
    for (let i = 1; i <= 5; i++) await expect(panel.locator(`li[data-file="clash-${i}.json"]`)).toContainText('Imported as a new copy');
  });

  test('numbers from series FV as its preview promised, and jobs name the document, not its id', async ({ page }) => {
    // The series as an accountant makes it: code FV, prefix FV-2026-; the form previews the first number.
    await openApp(page, token, '#/series/new');
    const form = page.getByRole('form', { name: 'New series' });
    await form.getByLabel('Name', { exact: true }).fill('Facturas');
    await form.getByLabel('Series code (optional)').fill('FV');
    await form.getByLabel('Prefix').fill('FV-2026-');
    await form.getByLabel('Digits (padding)').fill('5');
    const promised = (await form.getByLabel('Next code').textContent())!.trim();
    expect(promised).toBe('FV-2026-00001');
    await form.getByRole('button', { name: 'Create series' }).click();
    await expect(page).toHaveURL(/#\/series\/[0-9a-f-]{36}$/);
    const seriesId = page.url().split('/').pop()!;

    const workflowId = crypto.randomUUID();
    await api(page.request, token, 'put', `/transform/v1/workflows/${workflowId}`, { name: 'Number it', steps: [{ provider: 'sequence.enumerate', config: { series_id: seriesId } }] });
    const [entryId] = await store(page.request, token, [invoice({ code: 'DRAFT-1', supplier: 'Numbered SL' })]);
    const job = await api(page.request, token, 'post', '/transform/v1/jobs?wait=20', { workflow_id: workflowId, silo_entry_id: entryId });
    expect(job.status).toBe('OK');
    const entry = await api(page.request, token, 'get', `/silo/v1/entries/${entryId}`);
    // GOBL's series and code, which read as the number promised: never FV-FV-2026-00001.
    expect([entry.data.doc.series, entry.data.doc.code]).toEqual(['FV', '2026-00001']);
    expect(`${entry.data.doc.series}-${entry.data.doc.code}`).toBe(promised);
    await openApp(page, token);
    await page.getByRole('searchbox', { name: 'Search entries' }).fill('FV-2026-00001');
    await expect(gridRows(page).first().getByRole('link')).toHaveText('FV-2026-00001');

    await openApp(page, token, '#/jobs');
    const table = page.getByRole('table', { name: 'Jobs' });
    await expect(table.getByRole('row').nth(1).getByRole('link', { name: 'Invoice FV-2026-00001' })).toBeVisible();
    await saveScreen(page, 'desk-jobs');
    await table.getByRole('row').nth(1).getByRole('link').first().click();
    await expect(page.locator('.job-facts')).toContainText('Invoice FV-2026-00001');
    await expect(page.locator('.job-facts')).not.toContainText(entryId);
  });

  test('shows a new gobl.validate step’s Arithmetic box as it will run: checked, its default', async ({ page }) => {
    await openApp(page, token, '#/workflows/new');
    const editor = page.getByRole('form', { name: 'New workflow' });
    await editor.getByLabel('Name', { exact: true }).fill('Check figures');
    const step = editor.getByRole('listitem', { name: /^Step 1/ });
    await step.getByLabel('Provider').selectOption('gobl.validate');
    const arithmetic = step.getByRole('checkbox', { name: /Arithmetic/ });
    await expect(arithmetic).toBeChecked();
    await editor.getByRole('button', { name: 'Create workflow' }).click();
    await expect(page).toHaveURL(/#\/workflows\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    const saved = await api(page.request, token, 'get', `/transform/v1/workflows/${id}`);
    expect(saved.steps[0].config.arithmetic ?? true).toBe(true);

    // Turned off, it is saved off, and shows off again.
    const form = page.getByRole('form', { name: 'Check figures' });
    await form.getByRole('checkbox', { name: /Arithmetic/ }).uncheck();
    await form.getByRole('button', { name: /^Save/ }).click();
    await expect.poll(async () => (await api(page.request, token, 'get', `/transform/v1/workflows/${id}`)).steps[0].config).toEqual({ arithmetic: false });
    await page.reload();
    await expect(page.getByRole('form', { name: 'Check figures' }).getByRole('checkbox', { name: /Arithmetic/ })).not.toBeChecked();
  });
});
