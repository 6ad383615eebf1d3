import { expect, test } from '@playwright/test';
import { v7 as uuidv7 } from 'uuid';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import {
  api,
  expectAccessible,
  freshEnvelope,
  gridRows,
  importDocuments,
  manyEnvelopes,
  newCompany,
  openApp,
  publishScreenshot,
  saveScreen,
  writeFile,
  writeJsonFile,
} from './helpers.ts';

test.describe.configure({ mode: 'serial' });
test.use({ locale: 'en-US', timezoneId: 'Europe/Madrid', viewport: { width: 1440, height: 900 } });

test('asks for a token when the page has none, and drops a bad sign-in code from the address bar', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByLabel('API token')).toBeVisible();
  await expectAccessible(page, 'the token form');

  await page.goto('/#login=not-a-real-code');
  await expect(page.getByRole('alert')).toContainText('This sign-in link did not work');
  await expect(page.getByLabel('API token')).toBeVisible();
  expect(page.url()).not.toContain('login=');
});

test.describe('import', () => {
  let token: string;
  test.beforeAll(async ({ request }) => {
    token = await newCompany(request, 'Import test');
  });

  test('imports GOBL files through the file picker, with a result per file and duplicates flagged', async ({ page }) => {
    await openApp(page, token);
    // An empty company says what to do.
    await expect(page.getByRole('heading', { name: 'No entries yet' })).toBeVisible();
    await expect(page.getByText('Drop GOBL invoices (JSON), PDFs, images or XML anywhere')).toBeVisible();
    await expectAccessible(page, 'the empty entry list');

    const taken = uuidv7(); // GOBL takes v1, v6 or v7 head ids
    const clash = loadEnvelope('fr-invoice-fr-fr.json');
    clash.head.uuid = taken;
    const invoice = freshEnvelope('es-invoice-es-es.json');
    invoice.head.uuid = taken;
    const files = [
      writeJsonFile('es-invoice.json', invoice),
      writeJsonFile('es-payment.json', freshEnvelope('es-payment-with-tax.json')),
      writeJsonFile('gr-credit-note.json', freshEnvelope('gr-credit-note.json')),
      writeJsonFile('us-invoice.json', freshEnvelope('us-invoice-us-us.json')),
      writeJsonFile('status-update.json', freshEnvelope('es-status-update.json')),
      // a bare document (no envelope) becomes an entry under a new id
      writeJsonFile('bare-nl-invoice.json', loadEnvelope('nl-invoice.json').doc),
      // two documents in one file
      writeJsonFile('two-invoices.json', [freshEnvelope('fi-invoice-fi-fi.json'), freshEnvelope('se-invoice-se-se.json')]),
      writeFile('notes.json', 'this is not JSON'),
      // same envelope id as es-invoice.json, another document: a conflict
      writeJsonFile('clash.json', clash),
    ];
    await page.locator('#import-files').setInputFiles(files);

    const panel = page.getByRole('region', { name: 'Import finished' });
    await expect(panel).toBeVisible();
    const row = (name: string) => panel.locator(`li[data-file="${name}"]`);
    for (const name of ['es-invoice.json', 'es-payment.json', 'gr-credit-note.json', 'us-invoice.json', 'status-update.json', 'bare-nl-invoice.json']) {
      await expect(row(name)).toContainText('Imported');
    }
    await expect(row('two-invoices.json')).toContainText('2 documents');
    await expect(row('two-invoices.json')).toContainText('2 imported');
    await expect(row('notes.json')).toContainText('This file is not valid JSON');
    await expect(row('clash.json')).toContainText(/already|conflict|different/i);
    await expect(panel.getByRole('status')).toContainText('8 entries added');
    await saveScreen(page, 'import');
    await expectAccessible(page, 'the import results');

    // An envelope whose id is taken by another document can go in as a new copy.
    await row('clash.json').getByRole('button', { name: 'Import as a new copy' }).click();
    await expect(row('clash.json')).toContainText('Imported');
    await expect(gridRows(page)).toHaveCount(9);

    // The same bare document again: stored, with a warning that links to the first one.
    await page.locator('#import-files').setInputFiles([files[5]]);
    const again = page.getByRole('region', { name: 'Import finished' }).locator('li[data-file="bare-nl-invoice.json"]');
    await expect(again).toContainText('This document is already stored');
    await again.getByRole('link', { name: 'see the earlier entry' }).click();
    await expect(page.getByRole('heading', { level: 1, name: /Invoice/ })).toBeVisible();
    await expect(page.locator('.paper')).toContainText('Foobar BV');
    await page.getByRole('button', { name: 'Close the import results' }).click();
    await expect(page.getByRole('region', { name: /Import/ })).toHaveCount(0);
  });

  test('shows an invoice as a document with its lines, taxes and totals, and its JSON, related entries and properties', async ({ page, request }) => {
    const found = await api(request, token, 'get', '/silo/v1/search?q=Sample+Consumer&limit=50');
    const match = found.list.filter((e: any) => e.snippet.code === 'SAMPLE-001' && e.snippet.supplier?.name === 'Provide One S.L.');
    expect(match).toHaveLength(1);
    await openApp(page, token);
    await page.getByRole('searchbox', { name: 'Search entries' }).fill('Sample Consumer');
    await expect(gridRows(page)).toHaveCount(found.list.length);
    await page.locator(`#entry-row-${match[0].id}`).dblclick();

    const view = page.getByRole('region', { name: 'Invoice SAMPLE-001' });
    await expect(view.getByRole('heading', { level: 1, name: 'Invoice SAMPLE-001' })).toBeVisible();
    const paper = view.locator('article.paper');
    await expect(paper.getByRole('region', { name: 'Supplier' })).toContainText('Provide One S.L.');
    await expect(paper.getByRole('region', { name: 'Supplier' })).toContainText('Tax ID ES B98602642');
    await expect(paper.getByRole('region', { name: 'Customer' })).toContainText('Sample Consumer');
    const lines = paper.getByRole('table', { name: 'Lines' });
    await expect(lines).toContainText('Development services');
    await expect(lines).toContainText('€1,620.00');
    await expect(lines).toContainText('−€180.00');
    await expect(paper.getByRole('table', { name: 'Taxes' })).toContainText('€340.20');
    const totals = paper.getByRole('table', { name: 'Totals' });
    await expect(totals.getByRole('row', { name: /Total without tax/ })).toContainText('€1,630.00');
    await expect(totals.getByRole('row', { name: /Total payable \(EUR\)/ })).toContainText('€1,970.20');
    // amounts are right-aligned
    expect(await totals.locator('td.num').first().evaluate((el) => getComputedStyle(el).textAlign)).toBe('right');

    // The payment that settles it is related, and a link.
    const related = view.getByRole('complementary', { name: 'Entry properties' }).getByRole('link', { name: /Payment RCT-0001/ });
    await expect(related).toBeVisible();
    await saveScreen(page, 'entry');
    await expectAccessible(page, 'the entry view');

    // The raw JSON, highlighted and foldable.
    await view.getByRole('tab', { name: 'JSON' }).click();
    const json = view.getByRole('group', { name: 'Envelope JSON' });
    await expect(json).toContainText('"$schema"');
    await expect(json.locator('.t-string', { hasText: '"Development services"' })).toBeVisible();
    await json.getByRole('button', { name: 'Fold lines' }).click();
    await expect(json.locator('.t-string', { hasText: '"Development services"' })).toHaveCount(0);
    await expectAccessible(page, 'the JSON tab');

    // State and tags are edited in place and kept.
    const props = view.getByRole('complementary', { name: 'Entry properties' });
    await props.getByLabel('State').selectOption('registered');
    await expect(page.getByRole('status').filter({ hasText: 'State set to registered' })).toBeVisible();
    await props.getByLabel('Add a tag').fill('reviewed');
    await props.getByLabel('Add a tag').press('Enter');
    await expect(props.getByRole('list', { name: 'Tags' })).toContainText('reviewed');
    await page.reload();
    await expect(page.getByRole('complementary', { name: 'Entry properties' }).getByLabel('State')).toHaveValue('registered');
    await expect(page.getByRole('complementary', { name: 'Entry properties' }).getByRole('list', { name: 'Tags' })).toContainText('reviewed');

    // Follow the related payment, then Esc back to the list.
    await page.getByRole('complementary', { name: 'Entry properties' }).getByRole('link', { name: /Payment RCT-0001/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Payment RCT-0001' })).toBeVisible();
    await expect(page.locator('article.paper')).toContainText('SAMPLE-001');
    await expect(page.locator('article.paper').getByRole('table', { name: 'Totals' })).toContainText('€1,972.30');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('grid', { name: 'Entries' })).toBeVisible();
    await expect(page.getByRole('grid', { name: 'Entries' })).toBeFocused();
  });

  test('shows a document with faults next to their paths', async ({ page, request }) => {
    const broken = freshEnvelope('es-invoice-es-es.json');
    broken.doc.currency = 'XXX-NOT';
    const [id] = await importDocuments(request, token, [broken]);
    await openApp(page, token, `#/entries/${id}`);
    const faults = page.getByRole('region', { name: 'Faults' });
    await expect(faults).toBeVisible();
    await expect(faults.locator('code.fault-path').first()).toContainText('$.');
  });
});

test.describe('a long list', () => {
  let token: string;
  let total: number;
  test.beforeAll(async ({ request }) => {
    token = await newCompany(request, 'Long list test');
    total = (await importDocuments(request, token, manyEnvelopes(4))).length;
    // A working day's variety of states and tags on the newest entries (they show in the screenshot).
    const newest = await api(request, token, 'get', '/silo/v1/entries?limit=18');
    const states = ['registered', 'paid', 'sent', 'draft', 'received', 'registered', 'error', 'paid', 'void'];
    const tags = [['q2'], ['q2', 'vat-checked'], [], ['client-review'], ['q2'], [], ['missing-po'], ['q2', 'vat-checked'], []];
    for (const [i, entry] of newest.list.entries()) {
      await api(request, token, 'patch', `/silo/v1/entries/${entry.id}`, { state: states[i % states.length], tags: tags[i % tags.length] });
    }
  });

  test('pages through every entry with cursors, rendering only what is in view', async ({ page }) => {
    await openApp(page, token);
    const grid = page.getByRole('grid', { name: 'Entries' });
    await expect(page.locator('.list-summary')).toContainText(`${total} entries`);
    await expect(grid).toHaveAttribute('aria-rowcount', String(total + 1));
    await expect(gridRows(page).first()).toBeVisible();
    // virtualized: a screenful (plus overscan) is in the DOM, not all of them
    expect(await gridRows(page).count()).toBeLessThan(60);

    await saveScreen(page, 'entries').then((path) => publishScreenshot(path, 'screenshot-entries.png'));
    await expectAccessible(page, 'the entry list');

    // Scrolling to the end loads page after page until the last entry shows.
    const body = grid;
    await expect
      .poll(async () => {
        await body.evaluate((el) => (el.scrollTop = el.scrollHeight));
        return grid.locator(`[role="row"][aria-rowindex="${total + 1}"]`).count();
      }, { timeout: 20_000 })
      .toBe(1);
    expect(await gridRows(page).count()).toBeLessThan(60);
  });

  test('searches as you type, filters by folder, date and order, and says when nothing matches', async ({ page, request }) => {
    await openApp(page, token);
    const search = page.getByRole('searchbox', { name: 'Search entries' });
    const summary = page.locator('.list-summary');

    const expected = await api(request, token, 'get', '/silo/v1/search?q=Testowa&limit=100');
    await search.pressSequentially('Testo');
    await search.pressSequentially('wa');
    await expect(summary).toContainText(`${expected.list.length} entries for “Testowa”`);
    await expect(page.getByRole('grid', { name: 'Entries' })).toHaveAttribute('aria-rowcount', String(expected.list.length + 1));
    await expect(gridRows(page).first()).toContainText('Testowa');

    await search.fill('qqzzxx');
    await expect(page.getByRole('heading', { name: 'Nothing matches' })).toBeVisible();
    await search.fill('');
    await expect(summary).toContainText(`${total} entries`);

    // Folders with their counts narrow the list.
    const folders = await api(request, token, 'get', '/silo/v1/folders');
    const payments = folders.list.find((f: any) => f.folder === 'payments');
    await page.getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: /^payments/ }).click();
    await expect(summary).toContainText(`${payments.count} entries`);
    await expect(gridRows(page)).toHaveCount(Math.min(payments.count, 20));
    await page.getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: /^All entries/ }).click();

    // Issue date range.
    const since = await api(request, token, 'get', '/silo/v1/entries?date_from=2025-06-01&limit=100');
    expect(since.next_cursor).toBeUndefined();
    await page.getByLabel('Issued from').fill('2025-06-01');
    await expect(summary).toContainText(`${since.list.length} entries`);
    await expect(page.getByRole('grid', { name: 'Entries' })).toHaveAttribute('aria-rowcount', String(since.list.length + 1));
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect(summary).toContainText(`${total} entries`);

    // Oldest first.
    const oldest = await api(request, token, 'get', '/silo/v1/entries?ascending=true&limit=10');
    await page.getByLabel('Order').selectOption('oldest');
    await expect(gridRows(page).first()).toHaveAttribute('id', `entry-row-${oldest.list[0].id}`);
  });

  test('selects with click, shift-click, ctrl-click and select-all, and moves and tags in bulk', async ({ page, request }) => {
    await openApp(page, token);
    const rows = gridRows(page);
    const bar = page.getByRole('region', { name: 'Selection' });
    await rows.nth(0).click();
    await rows.nth(3).click({ modifiers: ['Shift'] });
    await expect(bar).toContainText('4 entries selected');
    await rows.nth(1).click({ modifiers: ['ControlOrMeta'] });
    await expect(bar).toContainText('3 entries selected');
    await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'false');

    await bar.getByRole('button', { name: 'Move to folder…' }).click();
    const move = page.getByRole('dialog', { name: 'Move 3 entries' });
    await move.getByLabel('Folder').fill('Q3 review');
    await move.getByRole('button', { name: 'Move' }).click();
    await expect(move).toBeHidden();
    const q3 = page.getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: /^Q3 review/ });
    await expect(q3).toContainText('3');
    await q3.click();
    await expect(rows).toHaveCount(3);

    await page.getByRole('checkbox', { name: 'Select all loaded entries' }).check();
    await expect(bar).toContainText('3 entries selected');
    await bar.getByRole('button', { name: 'Tag…' }).click();
    const tag = page.getByRole('dialog', { name: 'Tag 3 entries' });
    await tag.getByLabel('Tag to add').fill('checked');
    await tag.getByLabel('Tag to add').press('Enter');
    await tag.getByRole('button', { name: 'Apply' }).click();
    await expect(tag).toBeHidden();
    await expect(rows.filter({ hasText: 'checked' })).toHaveCount(3);

    // Every matching entry, beyond the loaded pages.
    await page.getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: /^All entries/ }).click();
    await page.getByRole('checkbox', { name: 'Select all loaded entries' }).check();
    await bar.getByRole('button', { name: new RegExp(`Select all ${total} matching entries`) }).click();
    await expect(bar).toContainText(`All ${total} matching entries selected`);
    await bar.getByRole('button', { name: 'Tag…' }).click();
    const tagAll = page.getByRole('dialog', { name: `Tag ${total} entries` });
    await tagAll.getByLabel('Tag to add').fill('year-end');
    await tagAll.getByLabel('Tag to add').press('Enter');
    await tagAll.getByRole('button', { name: 'Apply' }).click();
    await expect(tagAll).toBeHidden({ timeout: 30_000 });
    await expect(page.getByRole('status').filter({ hasText: `Tagged ${total} entries` })).toBeVisible();
    let tagged = 0;
    let cursor = '';
    do {
      const page_ = await api(request, token, 'get', `/silo/v1/entries?tag=year-end&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      tagged += page_.list.length;
      cursor = page_.next_cursor ?? '';
    } while (cursor);
    expect(tagged).toBe(total);

    await page.getByLabel('Tag', { exact: true }).fill('checked');
    await expect(page.locator('.list-summary')).toContainText('3 entries');
  });

  test('works from the keyboard: / searches, j and k move, Enter opens, Esc closes', async ({ page }) => {
    await openApp(page, token);
    const grid = page.getByRole('grid', { name: 'Entries' });
    const rows = gridRows(page);
    await expect(rows.first()).toBeVisible();

    await page.keyboard.press('/');
    await expect(page.getByRole('searchbox', { name: 'Search entries' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(grid).toBeFocused();

    const second = await rows.nth(1).getAttribute('id');
    const third = await rows.nth(2).getAttribute('id');
    // leaving the search lands on the first row; j goes to the second
    const first = await rows.nth(0).getAttribute('id');
    await expect(grid).toHaveAttribute('aria-activedescendant', first!);
    await page.keyboard.press('j');
    await expect(grid).toHaveAttribute('aria-activedescendant', second!);
    await page.keyboard.press('Enter');
    const heading = page.getByRole('heading', { level: 1 }).first();
    await expect(page.locator('.entry-view')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(second!.replace('entry-row-', '')));
    // j moves to the next entry while one is open
    await page.keyboard.press('j');
    await expect(page).toHaveURL(new RegExp(third!.replace('entry-row-', '')));
    await expect(heading).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.locator('.entry-view')).toHaveCount(0);
    await expect(grid).toBeFocused();
    await expect(grid).toHaveAttribute('aria-activedescendant', third!);
    await page.keyboard.press('k');
    await expect(grid).toHaveAttribute('aria-activedescendant', second!);

    // Space selects, ? lists the shortcuts
    await page.keyboard.press(' ');
    await expect(page.getByRole('region', { name: 'Selection' })).toContainText('1 entry selected');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('region', { name: 'Selection' })).toHaveCount(0);
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeHidden();
  });
});
