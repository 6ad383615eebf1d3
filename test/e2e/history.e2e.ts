import { expect, test } from '@playwright/test';
import { api, expectAccessible, freshEnvelope, newCompany, openApp, publishScreenshot, saveScreen } from './helpers.ts';

test.use({ locale: 'en-US', timezoneId: 'Europe/Madrid', viewport: { width: 1440, height: 900 } });

test('the history tab lists every version with who and what changed, shows a readable diff, and restores a version as a new one', async ({ page, request }) => {
  const token = await newCompany(request, 'History test');
  const envelope = freshEnvelope('es-invoice-es-es.json');
  envelope.doc.code = 'HIST-E2E-1';
  const stored = await api(request, token, 'put', `/silo/v1/entries/${envelope.head.uuid}`, { data: envelope });
  const firstPrice = stored.data.doc.lines[0].item.price as string;
  const firstPayable = stored.data.doc.totals.payable as string;
  // A price corrected (the totals calculated again), then filed.
  const repriced = await api(request, token, 'patch', `/silo/v1/entries/${stored.id}`, {
    content_type: 'application/json-patch+json',
    data: [{ op: 'replace', path: '/doc/lines/0/item/price', value: '95.00' }, { op: 'remove', path: '/doc/totals' }],
  });
  const filed = await api(request, token, 'patch', `/silo/v1/entries/${stored.id}`, { state: 'sent', tags: ['q1'], folder: 'Sales 2026' });

  await openApp(page, token, `#/entries/${stored.id}/history`);
  const versions = page.getByRole('navigation', { name: 'Versions' });
  await expect(versions.getByRole('button')).toHaveCount(3);
  const newest = versions.getByRole('button').first();
  await expect(newest).toContainText(`Version ${filed.version}`);
  await expect(newest).toContainText('Current');
  await expect(newest).toContainText('State');
  await expect(newest).toContainText('Folder');

  // The newest version: labels changed.
  const detail = page.getByRole('region', { name: `Version ${filed.version}` });
  const diff = detail.getByRole('table', { name: 'Changes' });
  await expect(diff.getByRole('row', { name: /State/ })).toContainText('sent');
  await expect(diff.getByRole('row', { name: /Folder/ })).toContainText('Sales 2026');
  await expect(detail.getByRole('button', { name: 'Restore this version' })).toBeDisabled();

  // The repricing: the price and the payable total as money, in the user's locale.
  await versions.getByRole('button', { name: new RegExp(`Version ${repriced.version}\\b`) }).click();
  const priced = page.getByRole('region', { name: `Version ${repriced.version}` }).getByRole('table', { name: 'Changes' });
  const money = (value: string) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(Number(value));
  const priceRow = priced.getByRole('row', { name: /Lines › 1 › Item › Price/ });
  await expect(priceRow).toContainText(money(firstPrice));
  await expect(priceRow).toContainText('€95.00');
  await expect(priced.getByRole('row', { name: /Totals › Payable/ })).toContainText(money(firstPayable));
  await expect(priced.getByRole('row', { name: /Totals › Payable/ })).toContainText(money(repriced.data.doc.totals.payable));
  await expect(priced.getByText('$.doc.lines[0].item.price')).toBeVisible();
  publishScreenshot(await saveScreen(page, 'entry-history'), 'screenshot-history.png');
  await expectAccessible(page, 'the history tab');

  // Version 1 comes back as a new version; nothing of the history is lost.
  await versions.getByRole('button', { name: /Version 1\b/ }).click();
  await page.getByRole('region', { name: 'Version 1' }).getByRole('button', { name: 'Restore this version' }).click();
  const next = Number(filed.version) + 1;
  await expect(page.getByText(`Version 1 restored as version ${next}`)).toBeVisible();
  await expect(versions.getByRole('button')).toHaveCount(4);
  await expect(versions.getByRole('button').first()).toContainText(`Version ${next}`);
  await expect(versions.getByRole('button').first()).toContainText('Restored version 1');
  const now = await api(request, token, 'get', `/silo/v1/entries/${stored.id}`);
  expect(now).toMatchObject({ version: String(next), state: stored.state, folder: stored.folder, tags: [] });
  expect(now.data.doc.lines[0].item.price).toBe(firstPrice);
  await saveScreen(page, 'entry-history-restored');
});
