import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { ensureDefaultCompany } from '../../src-main/core/access/bootstrap.ts';
import { measureSelection } from '../../src-main/core/exports/selection.ts';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { callAs, partialInvoice } from './gobl-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { csvObjects, download, parseCsv, textOf, unzip } from './exports-helpers.ts';
import { documentText, type StoredDocument } from '../../src-main/core/silo/packed-document.ts';

let t: TestServer;
let invoiceId: string;
let creditId: string;
let hostileId: string;
let otherCompanyToken: string;

const fixture = (code: string) => {
  const envelope = loadEnvelope('es-invoice-es-es.json');
  envelope.head.uuid = uuidv7();
  envelope.doc.uuid = uuidv7();
  envelope.doc.code = code;
  return envelope;
};

beforeAll(async () => {
  t = await startTestServer({ autoSync: false });
  // Two rates (21 % on 1620.00, 0 % on 10.00), filed in a folder of its own.
  const invoice = await t.call('POST', '/silo/v1/entries', { data: fixture('EXP-001'), folder: 'Q1 2026' });
  expect(invoice.status, JSON.stringify(invoice.body)).toBe(200);
  invoiceId = invoice.body.id;
  const credit = await t.call('POST', '/silo/v1/entries', { previous_id: invoiceId, correct: { type: 'credit-note', reason: 'Returned', ext: { 'es-facturae-correction': '01' } }, folder: 'Q1 2026' });
  expect(credit.status, JSON.stringify(credit.body)).toBe(200);
  creditId = credit.body.id;
  // A customer whose name a spreadsheet would run as a formula, with a quote, a comma and a line break.
  const hostile = await t.call('POST', '/silo/v1/entries', {
    data: partialInvoice({ code: '0099', customer: { name: '=HYPERLINK("http://x.test","Click"), Inc.\nLine 2', tax_id: { country: 'ES', code: '54387763P' } } }),
  });
  expect(hostile.status, JSON.stringify(hostile.body)).toBe(200);
  hostileId = hostile.body.id;
  const pdf = Buffer.from('%PDF-1.4 scanned bytes');
  const put = await t.call('PUT', `/silo/v1/entries/${invoiceId}/files/scan.pdf`, { name: 'Scan 2026-03-14 10_30.pdf', mime: 'application/pdf', data: pdf.toString('base64') });
  expect(put.status, JSON.stringify(put.body)).toBe(200);

  const other = await t.call('POST', '/access/v1/companies', { name: 'Other S.L.' });
  otherCompanyToken = other.body.owner_token;
  const foreign = await callAs(t, otherCompanyToken, 'POST', '/silo/v1/entries', { data: fixture('OTHER-001') });
  expect(foreign.status).toBe(200);
});

afterAll(() => t.close());

describe('CSV export', () => {
  it('has one row per document with parties, tax ids and amounts, a credit note negative', async () => {
    const res = await download(t, '/silo/v1/exports/csv', { folder: 'Q1 2026' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="silodesk-Q1-2026-\d{4}-\d{2}-\d{2}\.csv"/);
    const text = textOf(res.bytes);
    // A UTF-8 byte order mark first, so spreadsheets read accents right.
    expect([...res.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(text).toContain('\r\n');
    const rows = csvObjects(text);
    expect(rows).toHaveLength(2);
    const invoice = rows.find((r) => r.entry_id === invoiceId)!;
    expect(invoice).toMatchObject({
      number: 'EXP-001', code: 'EXP-001', kind: 'bill/invoice', type: 'standard', date: '2022-02-01',
      supplier: 'Provide One S.L.', supplier_tax_id: 'ES B98602642', customer_tax_id: 'ES 54387763P',
      currency: 'EUR', net: '1630.00', tax: '340.20', total: '1970.20', payable: '1970.20', folder: 'Q1 2026',
    });
    const credit = rows.find((r) => r.entry_id === creditId)!;
    expect(credit.type).toBe('credit-note');
    expect(credit).toMatchObject({ net: '-1630.00', tax: '-340.20', total: '-1970.20' });
  });

  it('lists the entries without a date first, then by issue date, then as they arrived, by folder and by ids alike', async () => {
    const dated = (code: string, date: string) => {
      const envelope = fixture(code);
      envelope.doc.issue_date = date;
      return envelope;
    };
    // in a company of its own; stored out of date order; two on the same day; one document that is no GOBL document and has no date
    const company = (await t.call('POST', '/access/v1/companies', { name: 'Ordered S.L.' })).body.owner_token as string;
    const stored: string[] = [];
    for (const data of [dated('ORD-3', '2024-03-01'), dated('ORD-1', '2024-01-15'), { $schema: 'https://example.com/receipt', total: '5.00' }, dated('ORD-2a', '2024-02-10'), dated('ORD-2b', '2024-02-10')]) {
      const res = await callAs(t, company, 'POST', '/silo/v1/entries', { data, folder: 'Ordered' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      stored.push(res.body.id);
    }
    const [march, january, undated, februaryA, februaryB] = stored;
    const expected = [undated, january, februaryA, februaryB, march];
    const order = async (body: unknown) => csvObjects(textOf((await download(t, '/silo/v1/exports/csv', body, company)).bytes)).map((r) => r.entry_id);
    expect(await order({ folder: 'Ordered' })).toEqual(expected);
    // by ids, named in another order and one twice: the same order, each once
    expect(await order({ ids: [march, februaryB, undated, january, februaryA, march] })).toEqual(expected);
  });

  it('measures a selection in stored bytes, and stops counting past the most a ZIP takes', async () => {
    const company = await ensureDefaultCompany(t.service.db);
    const ctx = { service: t.service, caller: { companyKey: company.key, companyId: company.id, kind: 'owner' as const } };
    const stored = await t.service.db.sql<{ id: string; data: StoredDocument }>('SELECT id, data FROM entries WHERE company_id = ? AND folder = ?', [company.key, 'Q1 2026']);
    expect(stored).toHaveLength(2);
    const envelopeBytes = stored.reduce((n, r) => n + Buffer.byteLength(documentText(r.data, r.id), 'utf8'), 0);
    expect(await measureSelection(ctx, { folder: 'Q1 2026' })).toEqual({ entries: 2, files: 1, bytes: envelopeBytes + '%PDF-1.4 scanned bytes'.length });
    // past the cap: counted to one more, nothing summed
    expect(await measureSelection(ctx, { folder: 'Q1 2026' }, 1)).toEqual({ entries: 2, files: 0, bytes: 0 });
  });

  it('has one row per tax rate with base, percent and amount', async () => {
    const res = await download(t, '/silo/v1/exports/csv', { ids: [invoiceId, creditId], rows: 'tax-rate' });
    expect(res.status).toBe(200);
    const rows = csvObjects(textOf(res.bytes));
    const mine = rows.filter((r) => r.entry_id === invoiceId).map((r) => [r.tax_category, r.tax_key, r.tax_percent, r.tax_base, r.tax_amount]);
    expect(mine).toEqual([
      ['VAT', 'standard', '21.0', '1620.00', '340.20'],
      ['VAT', 'zero', '0', '10.00', '0.00'],
    ]);
    const credit = rows.filter((r) => r.entry_id === creditId).map((r) => [r.tax_base, r.tax_amount, r.document_total]);
    expect(credit).toEqual([['-1620.00', '-340.20', '-1970.20'], ['-10.00', '0.00', '-1970.20']]);
  });

  it('quotes by RFC 4180 and keeps formula text from running in a spreadsheet', async () => {
    const res = await download(t, '/silo/v1/exports/csv', { ids: [hostileId] });
    const text = textOf(res.bytes);
    // The field is quoted (comma, quote, line break), its quotes doubled, and it starts with an apostrophe.
    expect(text).toContain('"\'=HYPERLINK(""http://x.test"",""Click""), Inc.\nLine 2"');
    const [row] = csvObjects(text);
    expect(row.customer).toBe('\'=HYPERLINK("http://x.test","Click"), Inc.\nLine 2');
    // Amounts are numbers the export writes itself: never escaped.
    expect(row.payable).toMatch(/^\d+\.\d{2}$/);
  });

  it('writes ; separated fields with decimal commas for spreadsheets in such locales, and refuses a comma for both', async () => {
    const res = await download(t, '/silo/v1/exports/csv', { ids: [invoiceId], delimiter: ';', decimal: ',', bom: false });
    const text = textOf(res.bytes);
    expect(res.bytes[0]).toBe('d'.charCodeAt(0));
    const [row] = csvObjects(text, ';');
    expect(row.net).toBe('1630,00');
    const refused = await download(t, '/silo/v1/exports/csv', { ids: [invoiceId], decimal: ',' });
    expect(refused.status).toBe(422);
    expect(refused.json.fields).toHaveProperty(['$.delimiter']);
  });

  it("never exports another company's entries, even by id", async () => {
    const res = await download(t, '/silo/v1/exports/csv', { ids: [invoiceId] }, otherCompanyToken);
    expect(res.status).toBe(200);
    expect(parseCsv(textOf(res.bytes))).toHaveLength(1);
    const all = csvObjects(textOf((await download(t, '/silo/v1/exports/csv', {})).bytes));
    expect(all.map((r) => r.number)).not.toContain('OTHER-001');
    expect(all).toHaveLength(3);
  });

  it('refuses unknown members and bad ids with the field named', async () => {
    const res = await download(t, '/silo/v1/exports/csv', { ids: ['../../etc/passwd'], sheet: 'x' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.json.fields)).toEqual(expect.arrayContaining(['$.ids[0]', '$.sheet']));
  });
});

describe('ZIP export', () => {
  it('holds each envelope as stored and its files by name, and an index.csv', async () => {
    const res = await download(t, '/silo/v1/exports/zip', { folder: 'Q1 2026' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const files = unzip(res.bytes);
    const names = Object.keys(files).sort();
    expect(names).toContain('index.csv');
    const envelopeName = names.find((n) => n.endsWith('EXP-001/envelope.json'))!;
    expect(envelopeName).toBe('2022-02-01 EXP-001/envelope.json');
    const stored = await t.call('GET', `/silo/v1/entries/${invoiceId}`);
    expect(JSON.parse(textOf(files[envelopeName]))).toEqual(stored.body.data);
    expect(textOf(files['2022-02-01 EXP-001/files/Scan 2026-03-14 10_30.pdf'])).toBe('%PDF-1.4 scanned bytes');
    expect(csvObjects(textOf(files['index.csv'])).map((r) => r.entry_id).sort()).toEqual([invoiceId, creditId].sort());
    // No path leaves the archive's folder.
    for (const name of names) expect(name.split('/')).not.toContain('..');
  });

  it('gives entries with the same date and number folders of their own', async () => {
    const twin = await t.call('POST', '/silo/v1/entries', { data: fixture('EXP-001'), folder: 'twins' });
    const twin2 = await t.call('POST', '/silo/v1/entries', { data: fixture('EXP-001'), folder: 'twins' });
    const res = await download(t, '/silo/v1/exports/zip', { ids: [twin.body.id, twin2.body.id] });
    const names = Object.keys(unzip(res.bytes)).filter((n) => n.endsWith('envelope.json')).sort();
    expect(names).toEqual(['2022-02-01 EXP-001 (2)/envelope.json', '2022-02-01 EXP-001/envelope.json']);
  });
});
