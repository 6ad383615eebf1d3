import { expect, test } from '@playwright/test';
import { api, expectAccessible, freshEnvelope, newCompany, openApp, saveScreen } from './helpers.ts';

test.use({ locale: 'en-US', timezoneId: 'Europe/Madrid', viewport: { width: 1440, height: 900 } });

test('an edit based on a version changed elsewhere is refused and says so; Reload shows the latest and the edit then goes through', async ({ page, request }) => {
  const token = await newCompany(request, 'If-Match test');
  const envelope = freshEnvelope('es-invoice-es-es.json');
  const stored = await api(request, token, 'put', `/silo/v1/entries/${envelope.head.uuid}`, { data: envelope });

  await openApp(page, token, `#/entries/${stored.id}`);
  const side = page.getByRole('complementary', { name: 'Entry properties' });
  await expect(side.getByText(`(version ${stored.version})`)).toBeVisible();

  // another client changes the entry while it is open here
  const elsewhere = await api(request, token, 'patch', `/silo/v1/entries/${stored.id}`, { tags: ['from-elsewhere'] });
  expect(elsewhere.version).toBe(String(Number(stored.version) + 1));

  await side.getByLabel('State').selectOption('sent');
  const notice = side.getByRole('alert');
  await expect(notice).toContainText('Changed elsewhere — reload');
  await saveScreen(page, 'entry-changed-elsewhere');
  await expectAccessible(page, 'the changed-elsewhere notice');
  // nothing was overwritten
  expect((await api(request, token, 'get', `/silo/v1/entries/${stored.id}`)).state).not.toBe('sent');

  await notice.getByRole('button', { name: 'Reload' }).click();
  await expect(side.getByRole('alert')).toHaveCount(0);
  await expect(side.getByText(`(version ${elsewhere.version})`)).toBeVisible();
  await expect(side.getByText('from-elsewhere')).toBeVisible();

  await side.getByLabel('State').selectOption('sent');
  await expect(side.getByText(`(version ${Number(elsewhere.version) + 1})`)).toBeVisible();
  const now = await api(request, token, 'get', `/silo/v1/entries/${stored.id}`);
  expect(now).toMatchObject({ state: 'sent', tags: ['from-elsewhere'] });
});
