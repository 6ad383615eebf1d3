import { expect, test } from '@playwright/test';
import { v7 as uuidv7 } from 'uuid';
import { loadEnvelopes } from '../fixtures/gobl/load.ts';
import { e2eToken } from './paths.ts';

test.describe.configure({ mode: 'serial' });

test('asks for a token when the page has none', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByLabel(/token/i)).toBeVisible();
});

test('lists imported entries newest first, pages with Load more, filters by folder', async ({ page, request }) => {
  const token = e2eToken();
  const fixtures = loadEnvelopes().slice(0, 25);
  for (const { envelope } of fixtures) {
    envelope.head.uuid = uuidv7();
    const res = await request.put(`/silo/v1/entries/${envelope.head.uuid}`, {
      headers: { authorization: `Bearer ${token}` },
      data: { data: envelope },
    });
    expect(res.status()).toBe(200);
  }

  await page.goto(`/#token=${token}`);
  // the token leaves the address bar at once
  await expect.poll(() => page.url()).not.toContain('token=');
  const rows = page.locator('table.entry-table tbody tr');
  await expect(rows).toHaveCount(20);
  const last = fixtures[fixtures.length - 1].envelope;
  await expect(rows.first()).toContainText(last.doc.code ?? last.doc.series ?? '');

  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(rows).toHaveCount(25);
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);

  await page.screenshot({ path: 'test-results/screens/entries.png', fullPage: true });

  const payments = fixtures.filter((f) => f.envelope.doc.$schema.endsWith('/bill/payment')).length;
  const invoices = fixtures.filter((f) => f.envelope.doc.$schema.endsWith('/bill/invoice')).length;
  await page.getByRole('button', { name: /^invoices/ }).click();
  await expect(rows).toHaveCount(Math.min(20, invoices));
  expect(payments + invoices).toBeLessThanOrEqual(25);
});
