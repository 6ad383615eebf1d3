import { expect, test, type Page } from '@playwright/test';
import { api, auth, expectAccessible, freshEnvelope, gridRows, newCompany, openApp, saveScreen } from './helpers.ts';

test.use({ locale: 'en-US', timezoneId: 'Europe/Madrid', viewport: { width: 1440, height: 900 } });

/** Toasts fade after a few seconds; a screenshot is clearer without them. */
async function dismissToasts(page: Page): Promise<void> {
  const close = page.getByRole('button', { name: 'Dismiss' });
  // (one may fade on its own meanwhile: then there is nothing left to click)
  while ((await close.count()) > 0) await close.first().click({ timeout: 1_000 }).catch(() => undefined);
}

async function invoice(request: Parameters<typeof api>[0], token: string, code: string): Promise<any> {
  const envelope = freshEnvelope('es-invoice-es-es.json');
  envelope.doc.code = code;
  return api(request, token, 'put', `/silo/v1/entries/${envelope.head.uuid}`, { data: envelope });
}

test('an entry moved to the trash leaves the list, can be undone, restored or deleted for good; the owner sets the retention and empties the trash', async ({ page, request }) => {
  const token = await newCompany(request, 'Trash test');
  const a = await invoice(request, token, 'TRASH-E2E-A');
  const b = await invoice(request, token, 'TRASH-E2E-B');
  const c = await invoice(request, token, 'TRASH-E2E-C');
  const put = await request.put(`/silo/v1/entries/${c.id}/files/scan.pdf`, {
    headers: auth(token),
    data: { name: 'Scan 2026-03-14 10_30.pdf', mime: 'application/pdf', data: Buffer.from('%PDF-1.4 scan').toString('base64') },
  });
  expect(put.status()).toBe(200);

  // From the entry's page: out of the list at once, and Undo brings it back.
  await openApp(page, token, `#/entries/${a.id}`);
  await page.getByRole('button', { name: 'Move to trash' }).click();
  await expect(page.getByRole('heading', { name: 'Invoice TRASH-E2E-A' })).toHaveCount(0);
  await expect(gridRows(page)).toHaveCount(2);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('Invoice TRASH-E2E-A restored')).toBeVisible();
  await expect(gridRows(page)).toHaveCount(3);

  // Moved again; another entry and a file go to the trash through the API.
  await page.goto(`/#/entries/${a.id}`);
  await page.getByRole('button', { name: 'Move to trash' }).click();
  await expect(gridRows(page)).toHaveCount(2);
  expect((await request.delete(`/silo/v1/entries/${b.id}`, { headers: auth(token) })).status()).toBe(200);
  expect((await request.delete(`/silo/v1/entries/${c.id}/files/scan.pdf`, { headers: auth(token) })).status()).toBe(200);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trash' }).click();
  const table = page.getByRole('table', { name: 'In the trash' });
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table).toContainText('Invoice TRASH-E2E-A');
  await expect(table).toContainText('Invoice TRASH-E2E-B');
  await expect(table).toContainText('Scan 2026-03-14 10_30.pdf');
  await expect(page.getByText('They are deleted for good after 30 days.')).toBeVisible();
  await dismissToasts(page);
  await saveScreen(page, 'trash');
  await expectAccessible(page, 'the trash');

  // Only files.
  await page.getByRole('radiogroup', { name: 'Show' }).getByText('Files').click();
  await expect(table.getByRole('row')).toHaveCount(2);
  await page.getByRole('radiogroup', { name: 'Show' }).getByText('All').click();
  await expect(table.getByRole('row')).toHaveCount(4);

  // Restore one, delete one for good.
  await page.getByRole('button', { name: 'Restore Invoice TRASH-E2E-A' }).click();
  // (the toast of the Undo earlier may still show: the newest one is this restore's)
  await expect(page.getByText('Invoice TRASH-E2E-A restored').last()).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(3);
  expect((await api(request, token, 'get', `/silo/v1/entries/${a.id}`)).id).toBe(a.id);
  await page.getByRole('button', { name: 'Delete Invoice TRASH-E2E-B for good' }).click();
  await expect(table.getByRole('row')).toHaveCount(2);
  expect((await request.get(`/silo/v1/trash/entries/${b.id}`, { headers: auth(token) })).status()).toBe(404);

  // The retention, then empty the trash.
  await page.getByLabel('Keep for').fill('10');
  await page.getByRole('form', { name: 'Trash retention' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The trash now keeps things 10 days')).toBeVisible();
  await expect(page.getByText('They are deleted for good after 10 days.')).toBeVisible();
  expect(await api(request, token, 'get', '/silo/v1/trash/settings')).toEqual({ retention_days: 10 });
  await page.getByRole('button', { name: 'Empty trash…' }).click();
  await saveScreen(page, 'trash-empty-confirm');
  await page.getByRole('button', { name: 'Delete everything for good' }).click();
  await expect(page.getByRole('heading', { name: 'The trash is empty' })).toBeVisible();
  expect((await api(request, token, 'get', '/silo/v1/trash')).list).toEqual([]);

  // Settings → Audit log: every one of those changes, who made it and from where.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  const audit = page.getByRole('region', { name: 'Audit log' });
  const rows = audit.getByRole('table', { name: 'Audit log' });
  await expect(rows).toContainText('Entry trashed');
  await expect(rows).toContainText('Entry restored');
  await expect(rows).toContainText('Entry purged');
  await expect(rows).toContainText('Attachment trashed');
  await expect(rows).toContainText('Settings trash');
  await audit.getByLabel('Show').selectOption('entry');
  await expect(rows).not.toContainText('Attachment trashed');
  await audit.getByRole('button', { name: 'Verify' }).click();
  await expect(audit.getByRole('status')).toContainText('records are intact');
  await expect(rows).toContainText('Entry purged');
  // A purged entry keeps its name in the log, and links nowhere.
  await expect(rows.getByRole('row', { name: /Entry purged/ }).first()).toContainText('Invoice TRASH-E2E-');
  await expect(rows.getByRole('row', { name: /Entry purged/ }).first().getByRole('link')).toHaveCount(0);
  await dismissToasts(page);
  await audit.scrollIntoViewIfNeeded();
  await saveScreen(page, 'settings-audit');
  await expectAccessible(page, 'the audit log');
});
