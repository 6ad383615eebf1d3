import { expect, test, type Page } from '@playwright/test';
import { v7 as uuidv7 } from 'uuid';
import { englishInvoice, makePdf, spanishInvoice } from '../unit/editor/pdf-fixtures.ts';
import { api, auth, expectAccessible, newCompany, openApp, publishScreenshot, saveScreen } from './helpers.ts';

test.describe.configure({ mode: 'serial' });
test.use({ locale: 'en-US', timezoneId: 'Europe/Madrid', viewport: { width: 1440, height: 960 } });

let token: string;
let issuedId: string;

const SUPPLIER = { name: 'Provide One S.L.', tax_id: { country: 'ES', code: 'B98602642' }, addresses: [{ street: 'Calle Pradillo 42', locality: 'Madrid', code: '28002', country: 'ES' }] };

test.beforeAll(async ({ request }) => {
  token = await newCompany(request, 'Editor test');
  // The company's last invoice, issued and signed here: a new invoice takes its supplier.
  await api(request, token, 'post', '/silo/v1/entries', {
    sign: true,
    data: {
      $schema: 'https://gobl.org/draft-0/bill/invoice', series: 'OLD', code: '0001', issue_date: '2026-01-15', currency: 'EUR',
      supplier: SUPPLIER, customer: { name: 'Earlier Client S.L.', tax_id: { country: 'ES', code: 'B85905495' } },
      lines: [{ quantity: '1', item: { name: 'Earlier work', price: '10.00' }, taxes: [{ cat: 'VAT', rate: 'general' }] }],
    },
  });
  await api(request, token, 'put', `/sequence/v1/series/${uuidv7()}`, { name: 'Sales 2026', code: 'FV', prefix: 'FV-2026-', padding: 5 });
});

const editor = (page: Page) => page.getByRole('form', { name: 'Invoice' });
const totals = (page: Page) => page.getByRole('region', { name: /Totals/ }).first();

test('a new invoice calculates as it is typed, shows GOBL\'s faults beside the fields, and is issued numbered and signed', async ({ page }) => {
  await openApp(page, token);
  await page.getByRole('link', { name: 'New invoice' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New invoice' })).toBeVisible();
  const form = editor(page);

  // The supplier comes from the company's last invoice.
  const supplier = form.getByRole('group', { name: 'Supplier' });
  await expect(supplier.getByLabel('Name')).toHaveValue('Provide One S.L.');
  await expect(supplier.getByLabel('Tax ID', { exact: true })).toHaveValue('B98602642');

  const customer = form.getByRole('group', { name: 'Customer' });
  await customer.getByLabel('Name').fill('Sample Consumer S.A.');
  await customer.getByLabel('Tax ID country').fill('ES');
  await customer.getByLabel('Tax ID', { exact: true }).fill('A28017895');

  await form.getByLabel('Line 1 item').fill('Design work');
  await form.getByLabel('Line 1 quantity').fill('10');
  await form.getByLabel('Line 1 price').fill('100.00');
  // The regime's rates: VAT general at 21 % is the first.
  await expect(form.getByLabel('Line 1 tax 1 rate')).toHaveValue('rate:general');
  await expect(form.getByTestId('line-0-sum')).toHaveText('€1,000.00');
  await expect(totals(page)).toContainText('VAT 21% on €1,000.00');
  await expect(totals(page).locator('.totals-total')).toContainText('€1,210.00');

  // A second line at the reduced rate, with a line discount: taxes by rate, as GOBL sums them.
  await form.getByRole('button', { name: 'Add line' }).click();
  await expect(form.getByLabel('Line 2 item')).toBeFocused();
  await page.keyboard.type('Printed catalogue');
  await form.getByLabel('Line 2 quantity').fill('2');
  await form.getByLabel('Line 2 price').fill('50');
  await form.getByLabel('Line 2 discount percent').fill('10');
  await form.getByLabel('Line 2 tax 1 rate').selectOption('rate:reduced');
  await expect(form.getByTestId('line-1-sum')).toHaveText('€90.00');
  await expect(totals(page)).toContainText('VAT 10% on €90.00');
  await expect(totals(page).locator('.totals-total')).toContainText('€1,309.00');

  // A quantity GOBL cannot read: its fault shows at the field, by its JSON path.
  await form.getByLabel('Line 1 quantity').fill('ten');
  await expect(form.getByLabel('Line 1 quantity')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.locator('#line-0-quantity-fault')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Issue and sign' })).toBeDisabled();
  await form.getByLabel('Line 1 quantity').fill('10');
  await expect(form.getByLabel('Line 1 quantity')).not.toHaveAttribute('aria-invalid', 'true');

  await form.getByLabel('Number from series').selectOption({ label: 'Sales 2026 — next FV-2026-00001' });
  await form.getByLabel('Notes printed on the invoice').fill('Thank you for your business.');
  await expect(page.locator('.editor-status')).toHaveText('GOBL finds nothing to fix');
  await page.locator('.editor-form').evaluate((el) => el.scrollTo(0, 0));
  const shot = await saveScreen(page, 'editor');
  publishScreenshot(shot, 'screenshot-editor.png');
  await expectAccessible(page, 'the invoice editor');

  await page.getByRole('button', { name: 'Issue and sign' }).click();
  const view = page.getByRole('region', { name: 'Invoice FV-2026-00001' });
  await expect(view).toBeVisible();
  await expect(view.getByRole('heading', { level: 1 })).toHaveText('Invoice FV-2026-00001');
  issuedId = new URL(page.url()).hash.split('/')[2];
  const stored = await api(page.request, token, 'get', `/silo/v1/entries/${issuedId}`);
  expect(stored.signed).toBe(true);
  expect(stored.data.doc).toMatchObject({ series: 'FV', code: '2026-00001', totals: { payable: '1309.00' } });
  expect(stored.data.doc.notes).toEqual([{ text: 'Thank you for your business.' }]);
});

test('a draft is saved unnumbered, then edited and kept with its faults', async ({ page }) => {
  await openApp(page, token, '#/editor');
  const form = editor(page);
  await form.getByLabel('Line 1 item').fill('Half-done work');
  await form.getByLabel('Line 1 price').fill('40');
  // Ctrl+S saves a draft from within a field.
  await form.getByLabel('Line 1 price').press('Control+s');
  await expect(page.getByRole('status').filter({ hasText: 'Draft saved' })).toBeVisible();
  const id = new URL(page.url()).hash.split('/')[2];
  const draft = await api(page.request, token, 'get', `/silo/v1/entries/${id}`);
  expect(draft.signed).toBe(false);
  expect(draft.data.doc.code).toBeUndefined();

  await page.getByRole('link', { name: 'Edit invoice' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Invoice (draft)' })).toBeVisible();
  await expect(editor(page).getByLabel('Line 1 item')).toHaveValue('Half-done work');
  await editor(page).getByLabel('Line 1 quantity').fill('3');
  await expect(editor(page).getByTestId('line-0-sum')).toHaveText('€120.00');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Draft saved' })).toBeVisible();
  const again = await api(page.request, token, 'get', `/silo/v1/entries/${id}`);
  expect(again.data.doc.lines[0].quantity).toBe('3');
});

test('"New credit note" makes GOBL\'s correction of an invoice and opens it in the editor to issue', async ({ page }) => {
  await openApp(page, token, `#/entries/${issuedId}`);
  await page.getByRole('button', { name: 'New credit note…' }).click();
  const dialog = page.getByRole('dialog', { name: 'New credit note' });
  await dialog.getByLabel('Reason').fill('Catalogue returned');
  await dialog.getByRole('button', { name: 'Make the credit note' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Credit note (draft)' })).toBeVisible();
  const form = editor(page);
  await expect(form).toContainText('Corrects FV-2026-00001');
  await expect(form.getByLabel('Line 2 item')).toHaveValue('Printed catalogue');
  // Only the catalogue is credited.
  await form.getByRole('button', { name: 'Remove line 1' }).click();
  await expect(totals(page).locator('.totals-total')).toContainText('€99.00');
  await form.getByLabel('Number from series').selectOption({ label: 'Sales 2026 — next FV-2026-00002' });
  await expectAccessible(page, 'a credit note in the editor');
  await page.getByRole('button', { name: 'Issue and sign' }).click();

  await expect(page.getByRole('region', { name: 'Credit note FV-2026-00002' })).toBeVisible();
  const id = new URL(page.url()).hash.split('/')[2];
  const credit = await api(page.request, token, 'get', `/silo/v1/entries/${id}`);
  expect(credit.data.doc).toMatchObject({ type: 'credit-note', code: '2026-00002', totals: { payable: '99.00' } });
  expect(credit.data.doc.preceding[0]).toMatchObject({ series: 'FV', code: '2026-00001' });
});

/** A draft the way Import makes one for a PDF: the scan placeholder and the file attached. */
async function scanDraft(page: Page, name: string, bytes: Uint8Array): Promise<string> {
  const id = uuidv7();
  await api(page.request, token, 'put', `/silo/v1/entries/${id}`, {
    state: 'draft',
    data: { $schema: 'https://silodesk.app/draft-0/scan', name, mime: 'application/pdf', size: bytes.byteLength, sha256: 'x' },
  });
  const res = await page.request.put(`/silo/v1/entries/${id}/files/document.pdf`, {
    headers: auth(token),
    data: { name, mime: 'application/pdf', data: Buffer.from(bytes).toString('base64') },
  });
  expect(res.ok()).toBe(true);
  return id;
}

test('a PDF draft is completed into the invoice it shows, pre-filled from its text, and keeps the PDF', async ({ page }) => {
  const id = await scanDraft(page, 'Scan 2026-03-14 10:30.pdf', await makePdf(spanishInvoice));
  await openApp(page, token, `#/entries/${id}`);
  await page.getByRole('link', { name: 'Complete this draft' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Complete the draft/ })).toBeVisible();

  const form = editor(page);
  const notice = form.locator('.guess-notice');
  await expect(notice).toContainText('Filled from the PDF');
  await expect(notice).toContainText('from “Nº factura: FV-2026-0042”');
  await expect(form.getByLabel('Number')).toHaveValue('FV-2026-0042');
  await expect(form.getByLabel('Issue date')).toHaveValue('2026-03-14');
  const supplier = form.getByRole('group', { name: 'Supplier' });
  await expect(supplier.getByLabel('Name')).toHaveValue('Papelería Ejemplo S.L.');
  await expect(supplier.getByLabel('Tax ID', { exact: true })).toHaveValue('B98602642');
  // The company is the customer of a received invoice.
  await expect(form.getByRole('group', { name: 'Customer' }).getByLabel('Name')).toHaveValue('Provide One S.L.');
  await expect(form.getByLabel('Line 1 price')).toHaveValue('1250.00');
  await expect(totals(page).locator('.totals-total')).toContainText('€1,512.50');
  await expect(page.locator('.editor-source canvas').first()).toBeVisible();
  await saveScreen(page, 'editor-complete-draft');
  await expectAccessible(page, 'a PDF draft being completed');

  await page.getByRole('button', { name: 'Save the invoice' }).click();
  await expect(page.getByRole('region', { name: 'Invoice FV-2026-0042' })).toBeVisible();
  const stored = await api(page.request, token, 'get', `/silo/v1/entries/${id}`);
  expect(stored.doc_schema).toBe('https://gobl.org/draft-0/bill/invoice');
  expect(stored.state).toBe('received');
  expect(stored.data.doc.totals.payable).toBe('1512.50');
  expect(stored.attachments.map((a: { name: string }) => a.name)).toEqual(['Scan 2026-03-14 10:30.pdf']);
});

test('a PDF whose text names other things is read only for what it surely says', async ({ page }) => {
  const id = await scanDraft(page, 'northwind.pdf', await makePdf(englishInvoice));
  await openApp(page, token, `#/editor/${id}`);
  const form = editor(page);
  await expect(form.locator('.guess-notice')).toContainText('from “Invoice number: INV-0007”');
  await expect(form.getByLabel('Currency')).toHaveValue('GBP');
  await expect(form.getByRole('group', { name: 'Supplier' }).getByLabel('Tax ID country')).toHaveValue('GB');
});
