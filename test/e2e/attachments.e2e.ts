import { expect, test, type Page } from '@playwright/test';
import { api, expectAccessible, freshEnvelope, importDocuments, makePdf, newCompany, openApp, saveScreen, writeFile } from './helpers.ts';

test.describe.configure({ mode: 'serial' });
test.use({ locale: 'en-US', viewport: { width: 1440, height: 900 } });

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

let token: string;
test.beforeAll(async ({ request }) => {
  token = await newCompany(request, 'Attachments test');
});

/** Imports one file with the picker and opens the draft it became, on its Files tab. */
async function importAndOpen(page: Page, path: string, name: string) {
  await page.locator('#import-files').setInputFiles([path]);
  const row = page.getByRole('region', { name: 'Import finished' }).locator(`li[data-file="${name}"]`);
  await expect(row).toContainText('Imported');
  await row.getByRole('link', { name: 'Open' }).click();
  await page.getByRole('button', { name: 'Close the import results' }).click();
  const view = page.locator('.entry-view');
  await expect(view.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(view.locator('article.paper')).toContainText('Draft from a file');
  await view.getByRole('tab', { name: /Files/ }).click();
  return view;
}

/** Dark pixels on a canvas: a rendered page has text on it, a blank one has none. */
const inkOn = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let ink = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && data[i] < 128 && data[i + 1] < 128 && data[i + 2] < 128) ink++;
    return ink;
  });

test('a dropped PDF becomes a draft whose file is rendered in the page, with selectable text', async ({ page }) => {
  const pdf = writeFile('receipt-4711.pdf', await makePdf(['Silodesk test receipt 4711', 'Total due 123.45 EUR']));
  await openApp(page, token);
  const view = await importAndOpen(page, pdf, 'receipt-4711.pdf');

  const viewer = view.locator('.pdf-viewer');
  await expect(viewer.getByRole('status')).toHaveText('1 page', { timeout: 15_000 });
  await expect(viewer.locator('.pdf-page canvas')).toHaveCount(1);
  expect(await inkOn(page, '.pdf-page canvas')).toBeGreaterThan(200);
  await expect(viewer.locator('.pdf-page .textLayer')).toContainText('Silodesk test receipt 4711');
  await expect(viewer.locator('.pdf-page .textLayer')).toContainText('Total due 123.45 EUR');

  // Zooming re-renders the page larger.
  const before = await viewer.locator('.pdf-page').first().boundingBox();
  await viewer.getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(async () => (await viewer.locator('.pdf-page').first().boundingBox())!.width).toBeGreaterThan(before!.width + 10);
  await expect(viewer.locator('.pdf-page .textLayer')).toContainText('Silodesk test receipt 4711');

  await saveScreen(page, 'attachment-pdf');
  await expectAccessible(page, 'the PDF viewer');

  // Importing the same file again finds the draft instead of making another.
  await page.locator('#import-files').setInputFiles([pdf]);
  await expect(page.getByRole('region', { name: 'Import finished' }).locator('li[data-file="receipt-4711.pdf"]')).toContainText('Already imported');
});

test('an invoice PDF rendered by a workflow step shows in the entry', async ({ page, request }) => {
  const providers = await api(request, token, 'get', '/transform/v1/providers');
  expect(providers.list.map((p: any) => p.id)).toContain('pdf');
  const [entryId] = await importDocuments(request, token, [freshEnvelope('es-invoice-es-es.json')]);
  const workflowId = crypto.randomUUID();
  await api(request, token, 'put', `/transform/v1/workflows/${workflowId}`, { name: 'Render PDF', steps: [{ provider: 'pdf', config: { locale: 'en' } }] });
  const job = await api(request, token, 'post', '/transform/v1/jobs?wait=30', { workflow_id: workflowId, silo_entry_id: entryId });
  expect(job.status).toBe('OK');

  await openApp(page, token, `#/entries/${entryId}/files`);
  const viewer = page.locator('.pdf-viewer');
  await expect(viewer.locator('.pdf-page .textLayer')).toContainText('SAMPLE-001', { timeout: 15_000 });
  await expect(viewer.locator('.pdf-page .textLayer')).toContainText('Provide One');
  expect(await inkOn(page, '.pdf-page canvas')).toBeGreaterThan(500);
});

test('XML and JSON files are pretty-printed and highlighted, images shown, other files offered for download', async ({ page, request }) => {
  const xml = writeFile(
    'ubl-invoice.xml',
    '<?xml version="1.0"?><Invoice xmlns:cbc="urn:cbc"><cbc:ID>INV-77</cbc:ID><cbc:IssueDate>2025-01-02</cbc:IssueDate><Lines><Line n="1">Consulting</Line></Lines></Invoice>',
  );
  await openApp(page, token);
  let view = await importAndOpen(page, xml, 'ubl-invoice.xml');
  const code = view.getByRole('group', { name: 'ubl-invoice.xml' });
  await expect(code.locator('.t-tag', { hasText: 'cbc:ID' }).first()).toBeVisible();
  await expect(code.locator('.t-attr').getByText('n', { exact: true })).toBeVisible();
  await expect(code).toContainText('INV-77');
  // pretty-printed: nested elements are indented blocks, not one long line
  expect(await code.locator('.code-children').count()).toBeGreaterThan(0);

  // A JSON file attached to that entry through the API.
  const entryId = page.url().split('/entries/')[1].split('/')[0];
  await api(request, token, 'put', `/silo/v1/entries/${entryId}/files/extract.json`, {
    name: 'extract.json',
    mime: 'application/json',
    data: Buffer.from(JSON.stringify({ invoice: { id: 'INV-77', total: '99.50', lines: [1, 2] } })).toString('base64'),
  });
  await page.reload();
  view = page.locator('.entry-view');
  await view.getByRole('navigation').or(view.getByRole('list', { name: 'Files' })).getByRole('button', { name: /extract\.json/ }).click();
  const json = view.getByRole('group', { name: 'extract.json' });
  await expect(json.locator('.t-key', { hasText: '"total"' })).toBeVisible();
  await expect(json.locator('.t-string', { hasText: '"99.50"' })).toBeVisible();

  // An image.
  const png = writeFile('stamp.png', PNG);
  view = await importAndOpen(page, png, 'stamp.png');
  const img = view.getByRole('img', { name: 'Attachment stamp.png' });
  await expect(img).toBeVisible();
  expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(1);
  expect(await img.getAttribute('src')).toMatch(/^blob:/);

  // Anything else: a download, never a preview.
  const bin = writeFile('ledger.bin', new Uint8Array([0, 1, 2, 3, 255]));
  view = await importAndOpen(page, bin, 'ledger.bin');
  await expect(view.getByRole('heading', { name: 'No preview for this file' })).toBeVisible();
  const download = page.waitForEvent('download');
  await view.getByRole('button', { name: 'Download ledger.bin' }).click();
  expect((await download).suggestedFilename()).toBe('ledger.bin');
});

test('HTML and SVG are shown as source and previewed without running anything', async ({ page }) => {
  const html = writeFile(
    'phish.html',
    '<html><body><h1>Pay here</h1><script>window.parent.__pwned = 1; alert(1)</script><img src=x onerror="window.parent.__pwned = 2"></body></html>',
  );
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await openApp(page, token);
  const view = await importAndOpen(page, html, 'phish.html');
  const source = view.getByRole('group', { name: 'phish.html' });
  await expect(source).toContainText('<script>window.parent.__pwned = 1');
  // (axe cannot run inside a frame that allows no scripts, so the scan comes before the preview)
  await expectAccessible(page, 'the HTML source view');

  await view.getByRole('button', { name: 'Preview (scripts off)' }).click();
  const frame = view.locator('iframe.sandboxed-preview');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(page.frameLocator('iframe.sandboxed-preview').getByRole('heading', { name: 'Pay here' })).toBeVisible();
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);

  const svg = writeFile('logo.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>window.parent.__pwned = 3</script><rect width="10" height="10"/></svg>');
  const svgView = await importAndOpen(page, svg, 'logo.svg');
  await expect(svgView.getByRole('group', { name: 'logo.svg' }).locator('.t-tag', { hasText: 'rect' })).toBeVisible();
  await svgView.getByRole('button', { name: 'Preview (scripts off)' }).click();
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});
