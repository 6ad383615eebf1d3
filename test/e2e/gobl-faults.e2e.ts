import { expect, test } from '@playwright/test';
import { v7 as uuidv7 } from 'uuid';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { api, expectAccessible, gridRows, newCompany, openApp, saveScreen } from './helpers.ts';

test.use({ locale: 'en-US', timezoneId: 'Europe/Madrid', viewport: { width: 1440, height: 900 } });

test('an invoice whose payable contradicts its lines is marked invalid, with what it states and what GOBL calculates', async ({ page, request }) => {
  const token = await newCompany(request, 'Faults test');
  const envelope = loadEnvelope('es-invoice-es-es.json');
  envelope.head.uuid = uuidv7();
  envelope.doc.uuid = uuidv7();
  envelope.doc.totals.payable = '9999.99';
  // Refused as it stands, with the figure's fault…
  const refused = await request.post('/silo/v1/entries', { headers: { authorization: `Bearer ${token}` }, data: { data: envelope } });
  expect(refused.status()).toBe(422);
  expect((await refused.json()).faults).toContainEqual(expect.objectContaining({ code: 'calculation', paths: ['$.doc.totals.payable'] }));
  // …and kept, flagged, when the caller asks for it.
  const stored = await api(request, token, 'post', '/silo/v1/entries', { data: envelope, allow_invalid: true });
  expect(stored.invalid).toBe(true);
  const valid = loadEnvelope('es-invoice-es-es.json');
  valid.head.uuid = uuidv7();
  valid.doc.uuid = uuidv7();
  valid.doc.code = 'SAMPLE-002';
  await api(request, token, 'post', '/silo/v1/entries', { data: valid });

  await openApp(page, token);
  await expect(gridRows(page)).toHaveCount(2);
  const bad = page.locator(`#entry-row-${stored.id}`);
  await expect(bad.getByText('invalid', { exact: true })).toBeVisible();
  await expect(gridRows(page).filter({ hasText: 'SAMPLE-002' }).getByText('invalid', { exact: true })).toHaveCount(0);

  await bad.dblclick();
  const view = page.getByRole('region', { name: 'Invoice SAMPLE-001' });
  await expect(view.getByText('Valid: No')).toBeVisible();
  const fault = view.locator('li.fault', { hasText: '$.doc.totals.payable' });
  await expect(fault.locator('.fault-code')).toHaveText('calculation');
  await expect(fault).toContainText('stated 9,999.99 · calculated 1,970.20');
  await saveScreen(page, 'entry-invalid');
  await expectAccessible(page, 'an invalid entry');
});
