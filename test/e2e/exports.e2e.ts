import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { v7 as uuidv7 } from 'uuid';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { api, expectAccessible, gridRows, newCompany, openApp, saveScreen } from './helpers.ts';
import { E2E_OUTPUT_DIR, e2ePort } from './paths.ts';

test.describe.configure({ mode: 'serial' });
test.use({ locale: 'en-US', timezoneId: 'Europe/Madrid', viewport: { width: 1440, height: 900 } });

let token: string;
let invoiceId: string;

test.beforeAll(async ({ request }) => {
  token = await newCompany(request, 'Exports test');
  for (const code of ['EXP-001', 'EXP-002', 'EXP-003']) {
    const envelope = loadEnvelope('es-invoice-es-es.json');
    envelope.head.uuid = uuidv7();
    envelope.doc.uuid = uuidv7();
    envelope.doc.code = code;
    const entry = await api(request, token, 'post', '/silo/v1/entries', { data: envelope, folder: 'Q1 2026' });
    if (code === 'EXP-001') invoiceId = entry.id;
  }
  await api(request, token, 'post', '/silo/v1/entries', {
    previous_id: invoiceId,
    folder: 'Q1 2026',
    correct: { type: 'credit-note', reason: 'Returned', ext: { 'es-facturae-correction': '01' } },
  });
});

/** Runs `start` and answers the text of the file the page downloads. */
async function downloaded(page: Page, start: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const download = page.waitForEvent('download');
  await start();
  const file = await download;
  return { name: file.suggestedFilename(), bytes: readFileSync((await file.path())!) };
}

test('a folder exports as a CSV a spreadsheet reads: one row per document, credit notes negative', async ({ page }) => {
  await openApp(page, token);
  await page.getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: /^Q1 2026/ }).click();
  await expect(gridRows(page)).toHaveCount(4);
  await page.getByRole('button', { name: 'Export…' }).click();

  const dialog = page.getByRole('dialog', { name: 'Export 4 entries' });
  await dialog.getByLabel('CSV: one row per document').check();
  await dialog.getByLabel(/Semicolons between fields/).check();
  await saveScreen(page, 'export-dialog');
  await expectAccessible(page, 'the export dialog');
  const file = await downloaded(page, () => dialog.getByRole('button', { name: 'Export' }).click());
  await expect(dialog).toBeHidden();

  expect(file.name).toMatch(/^silodesk-Q1-2026-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = file.bytes.toString('utf8').replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
  expect(lines[0].split(';').slice(0, 3)).toEqual(['date', 'due_date', 'number']);
  expect(lines).toHaveLength(5);
  const totals = lines.slice(1).map((l) => l.split(';')[14]).sort();
  expect(totals).toEqual(['-1970,20', '1970,20', '1970,20', '1970,20']);
});

test('selected entries export as a ZIP of their envelopes and an index', async ({ page }) => {
  await openApp(page, token);
  await page.getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: /^Q1 2026/ }).click();
  const rows = gridRows(page);
  await rows.filter({ hasText: 'EXP-002' }).click();
  await rows.filter({ hasText: 'EXP-003' }).click({ modifiers: ['ControlOrMeta'] });
  const selection = page.getByRole('region', { name: 'Selection', exact: true });
  await expect(selection).toContainText('2 entries selected');
  await selection.getByRole('button', { name: 'Export…' }).click();

  const dialog = page.getByRole('dialog', { name: 'Export 2 entries' });
  await expect(dialog.getByLabel(/^ZIP/)).toBeChecked();
  const file = await downloaded(page, () => dialog.getByRole('button', { name: 'Export' }).click());
  expect(file.name).toMatch(/^silodesk-selection-.*\.zip$/);
  const files = unzipSync(new Uint8Array(file.bytes));
  const envelopes = Object.keys(files).filter((n) => n.endsWith('/envelope.json')).sort();
  expect(envelopes).toEqual(['2022-02-01 EXP-002/envelope.json', '2022-02-01 EXP-003/envelope.json']);
  expect(JSON.parse(strFromU8(files[envelopes[0]])).doc.code).toBe('EXP-002');
  expect(strFromU8(files['index.csv']).split('\r\n').filter(Boolean)).toHaveLength(3);
});

test("the data folder's backup: a folder set in Settings, 'Back up now', and the backups kept listed", async ({ page }) => {
  // The install's owner (serve's api-token) manages backups; a company's own owner does not see the card.
  const folder = join(E2E_OUTPUT_DIR, `e2e-backups-${e2ePort()}`);
  rmSync(folder, { recursive: true, force: true });
  await openApp(page, token, '#/settings');
  await expect(page.getByRole('heading', { name: 'Data' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Backups' })).toHaveCount(0);

  await openApp(page, undefined, '#/settings');
  const card = page.getByRole('form', { name: 'Backup settings' });
  await card.getByLabel('Backup folder').fill('relative/folder');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.locator('.field-error')).toContainText('absolute path');

  await card.getByLabel('Backup folder').fill(folder);
  await card.getByLabel('Every (hours)').fill('12');
  await card.getByLabel('Keep the last').fill('3');
  await card.getByLabel(/Back up on this schedule/).check();
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByRole('status')).toContainText('Next one');
  await card.getByRole('button', { name: 'Back up now' }).click();
  await expect(card.getByRole('status')).toContainText('Last backup');
  await expect(card.getByRole('table', { name: 'Backups kept' }).getByRole('row')).toHaveCount(2);
  await card.scrollIntoViewIfNeeded();
  await saveScreen(page, 'settings-backups');
  await expectAccessible(page, 'the backup settings');

  const [backup] = readdirSync(folder);
  expect(backup).toMatch(/^silodesk-backup-/);
  expect(existsSync(join(folder, backup, 'silodesk.db'))).toBe(true);
  expect(existsSync(join(folder, backup, 'RESTORE.txt'))).toBe(true);
  // Switched off again: the shared server does not go on writing backups for the other tests.
  await card.getByLabel(/Back up on this schedule/).uncheck();
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByRole('status')).not.toContainText('Next one');
});
