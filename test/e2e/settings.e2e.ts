import { expect, test, type Page } from '@playwright/test';
import { e2eDataDir } from './paths.ts';
import { expectAccessible, manyEnvelopes, importDocuments, newCompany, openApp, saveScreen } from './helpers.ts';

test.describe.configure({ mode: 'serial' });
test.use({ locale: 'en-US', viewport: { width: 1440, height: 900 } });

/** Whether the page's background is dark (relative luminance of <body>'s colour). */
const darkBackground = (page: Page) =>
  page.evaluate(() => {
    const [r, g, b] = getComputedStyle(document.documentElement).backgroundColor.match(/\d+(\.\d+)?/g)!.map(Number);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 100;
  });

test('follows the OS theme, and switches to dark and back by hand', async ({ page, request }) => {
  const token = await newCompany(request, 'Theme test');
  await importDocuments(request, token, manyEnvelopes(1).slice(0, 30));
  await page.emulateMedia({ colorScheme: 'light' });
  await openApp(page, token, '#/settings');
  expect(await darkBackground(page)).toBe(false);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await darkBackground(page)).toBe(true);
  await page.emulateMedia({ colorScheme: 'light' });

  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await saveScreen(page, 'settings');
  await expectAccessible(page, 'settings (light)');

  await page.getByRole('radio', { name: /Dark/ }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await darkBackground(page)).toBe(true);
  await expectAccessible(page, 'settings (dark)');
  // kept across reloads, whatever the OS says
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await darkBackground(page)).toBe(true);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Entries' }).click();
  await expect(page.getByRole('grid', { name: 'Entries' }).locator('[role="row"][aria-selected]').first()).toBeVisible();
  await saveScreen(page, 'entries-dark');
  await expectAccessible(page, 'the entry list (dark)');
  await page.locator('[role="row"][aria-selected]').first().dblclick();
  await expect(page.locator('.entry-view article.paper')).toBeVisible();
  await saveScreen(page, 'entry-dark');
  await expectAccessible(page, 'the entry view (dark)');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('radio', { name: /System/ }).check();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.*/);
  expect(await darkBackground(page)).toBe(false);
});

test('shows the company and where the data lives; renames, adds and opens companies by token', async ({ page, request }) => {
  const token = await newCompany(request, 'Ledger & Co');
  await openApp(page, token, '#/settings');
  const company = page.getByRole('region', { name: 'Company' });
  await expect(company).toContainText('Working on Ledger & Co as owner');
  await expect(page.getByRole('region', { name: 'Data' }).locator('code.data-dir')).toHaveText(e2eDataDir());

  await company.getByLabel('Company name').fill('Ledger & Co S.L.');
  await company.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Company: Ledger & Co S.L.' })).toBeVisible();

  // A new client company: its token is shown once, and opens it.
  await company.getByLabel('Add a client company').fill('Bakery Ruiz');
  await company.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(company.locator('code.token-once')).toBeVisible();
  await company.getByRole('button', { name: 'Open Bakery Ruiz' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Company: Bakery Ruiz' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Entries' }).click();
  await expect(page.getByRole('heading', { name: 'No entries yet' })).toBeVisible();

  // Back to the first company with its token.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel('Open another company with its token').fill(token);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Company: Ledger & Co S.L.' })).toBeVisible();

  // A token that is not accepted sends the user back to the token form.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel('Open another company with its token').fill('not-a-token');
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('That token was not accepted');
  await expect(page.getByLabel('API token')).toBeVisible();
});
