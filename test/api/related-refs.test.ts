import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../src-main/core/db/connection.ts';
import { migrateToLatest } from '../../src-main/core/db/migrate.ts';
import { migrations } from '../../src-main/core/db/migrations.ts';
import { sqliteDb } from '../../src-main/core/db/sqlite-db.ts';
import { openService } from '../../src-main/core/service.ts';
import { listRelated } from '../../src-main/core/silo/list.ts';
import { callAs, example, partialInvoice, related } from './gobl-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

/** Related entries follow GOBL document references both ways, by uuid or by code (+ series, + date), within a company. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function store(data: unknown, token?: string) {
  const res = token ? await callAs(t, token, 'POST', '/silo/v1/entries', { data }) : await t.call('POST', '/silo/v1/entries', { data });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** A credit note naming its invoice by series, code and date only (no uuid), as most systems write it. */
function creditNoteFor(ref: Record<string, unknown>, code: string) {
  return partialInvoice({ type: 'credit-note', series: 'CN', code, preceding: [{ type: 'standard', ...ref }] });
}

/** A payment receipt paying a document named by series and code only. */
function paymentFor(ref: Record<string, unknown>, code: string) {
  const payment = example('in', 'es-payment-with-tax.json');
  delete payment.uuid;
  payment.code = code;
  payment.lines = [{ document: { ...ref }, amount: '1318.90' }];
  return payment;
}

describe('related by code', () => {
  it('relates a credit note naming the invoice by series + code (no uuid) both ways', async () => {
    const invoice = await store(partialInvoice({ code: 'REF-1' }));
    const credit = await store(creditNoteFor({ series: 'INV', code: 'REF-1', issue_date: '2026-03-02' }, 'CN-1'));
    expect(credit.data.doc.preceding[0].uuid).toBeUndefined();
    expect(await related(t, invoice.id)).toEqual([{ id: credit.id, context: 'preceding' }]);
    expect(await related(t, credit.id)).toEqual([{ id: invoice.id, context: 'preceding' }]);
  });

  it('relates a payment that lists the invoice in lines[].document, both ways', async () => {
    const invoice = await store(partialInvoice({ code: 'REF-2' }));
    const payment = await store(paymentFor({ series: 'INV', code: 'REF-2' }, 'RCT-2'));
    expect(payment.data.doc.total).toBeTruthy();
    expect(await related(t, invoice.id)).toEqual([{ id: payment.id, context: 'lines.document' }]);
    expect(await related(t, payment.id)).toEqual([{ id: invoice.id, context: 'lines.document' }]);
  });

  it('lists an invoice with its credit notes and payments, paged by keyset', async () => {
    const invoice = await store(partialInvoice({ code: 'REF-3' }));
    const ids = [
      (await store(creditNoteFor({ series: 'INV', code: 'REF-3' }, 'CN-3a'))).id,
      (await store(paymentFor({ series: 'INV', code: 'REF-3' }, 'RCT-3'))).id,
      (await store(creditNoteFor({ series: 'INV', code: 'REF-3' }, 'CN-3b'))).id,
    ];
    // Pages hold at least ten, as the hosted lists do: ten more payments make a second page.
    for (let i = 0; i < 10; i++) ids.push((await store(paymentFor({ series: 'INV', code: 'REF-3' }, `RCT-3-${i}`))).id);
    const first = await t.call('GET', `/silo/v1/entries/${invoice.id}/related?limit=10&ascending=true`);
    expect(first.body.list.map((e: any) => e.id)).toEqual(ids.slice(0, 10));
    const second = await t.call('GET', `/silo/v1/entries/${invoice.id}/related?limit=10&ascending=true&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.body.list.map((e: any) => e.id)).toEqual(ids.slice(10));
    expect(second.body.next_cursor).toBeUndefined();
    const credits = await related(t, invoice.id, '&context=preceding');
    expect(credits.map((r) => r.id)).toEqual([ids[2], ids[0]]);
  });

  it('does not relate what names another series or another issue date', async () => {
    const invoice = await store(partialInvoice({ code: 'REF-4' }));
    await store(creditNoteFor({ series: 'OTHER', code: 'REF-4' }, 'CN-4a'));
    await store(creditNoteFor({ series: 'INV', code: 'REF-4', issue_date: '2020-01-01' }, 'CN-4b'));
    expect(await related(t, invoice.id)).toEqual([]);
  });

  it("does not relate another company's invoice with the same code", async () => {
    const other = (await t.call('POST', '/access/v1/companies', { name: 'Other Books S.L.' })).body.owner_token as string;
    const mine = await store(partialInvoice({ code: 'SHARED-1' }));
    const theirs = await store(partialInvoice({ code: 'SHARED-1' }), other);
    const credit = await store(creditNoteFor({ series: 'INV', code: 'SHARED-1' }, 'CN-5'));
    expect(await related(t, credit.id)).toEqual([{ id: mine.id, context: 'preceding' }]);
    expect(await related(t, mine.id)).toEqual([{ id: credit.id, context: 'preceding' }]);
    const theirRelated = await callAs(t, other, 'GET', `/silo/v1/entries/${theirs.id}/related`);
    expect(theirRelated.body.list).toEqual([]);
  });

  it('relates an invoice to the purchase order its ordering names', async () => {
    const order = example('out', 'es-order.json');
    order.head.uuid = uuidv7();
    order.doc.uuid = uuidv7();
    order.doc.code = 'PO-77';
    const stored = await t.call('PUT', `/silo/v1/entries/${order.head.uuid}`, { data: order });
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    const invoice = await store(partialInvoice({ code: 'REF-6', ordering: { purchases: [{ series: 'ORD', code: 'PO-77' }] } }));
    expect(await related(t, invoice.id)).toEqual([{ id: order.head.uuid, context: 'ordering.purchases' }]);
    expect(await related(t, order.head.uuid)).toEqual([{ id: invoice.id, context: 'ordering.purchases' }]);
  });

  it('follows a change: a patched reference relates the new invoice and no longer the old one', async () => {
    const a = await store(partialInvoice({ code: 'REF-7a' }));
    const b = await store(partialInvoice({ code: 'REF-7b' }));
    const credit = await store(creditNoteFor({ series: 'INV', code: 'REF-7a' }, 'CN-7'));
    const patched = await t.call('PATCH', `/silo/v1/entries/${credit.id}`, {
      content_type: 'application/merge-patch+json',
      data: { doc: { preceding: [{ type: 'standard', series: 'INV', code: 'REF-7b' }] } },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(await related(t, a.id)).toEqual([]);
    expect(await related(t, b.id)).toEqual([{ id: credit.id, context: 'preceding' }]);
  });
});

describe('migration 0007_document_references', () => {
  it('back-fills identities and references of stored entries, and reshapes stored faults to paths', async () => {
    const invoice = await store(partialInvoice({ code: 'MIG-1' }));
    const credit = await store(creditNoteFor({ series: 'INV', code: 'MIG-1' }, 'CN-MIG'));
    const rowOf = (id: string) => t.service.db.sqlite!.prepare('SELECT * FROM entries WHERE id = ?').get(id) as Record<string, any>;

    // A database as it was before 0007 (no reference tables, faults with one `path`) holding these two
    // documents; then every migration from 0007 on runs, as on an accountant's laptop that updates.
    const dir = mkdtempSync(join(tmpdir(), 'silodesk-mig07-'));
    const sqlite = openSqlite(join(dir, 'silodesk.db'));
    await migrateToLatest(sqlite, sqliteDb(sqlite).q, join(dir, 'backups'), Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0007')));
    sqlite.prepare(`INSERT INTO companies VALUES ('c1', 'Acme', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`).run();
    const oldFaults = JSON.stringify([{ code: 'calculation', message: 'old', provider: 'silo', path: '$.doc.totals.payable' }, { code: 'x', message: 'no path', provider: 'silo' }]);
    for (const [id, faults] of [[invoice.id, oldFaults], [credit.id, '[]']]) {
      const r = rowOf(id);
      sqlite
        .prepare(
          `INSERT INTO entries (id, company_id, folder, state, draft, invalid, signed, doc_schema, doc_uuid, env_schema, digest_alg, digest_val,
             snippet, tags, faults, data, request_hash, version, created_at, updated_at)
           VALUES (?, 'c1', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(id, r.folder, r.state, r.draft, r.invalid, r.signed, r.doc_schema, r.doc_uuid, r.env_schema, r.digest_alg, r.digest_val, r.snippet, r.tags, faults, r.data, r.request_hash, r.version, r.created_at, r.updated_at);
    }
    sqlite.close();

    const service = await openService(dir, { runJobs: false, autoSync: false });
    try {
      const ctx = { service, caller: { companyId: 'c1', kind: 'owner' as const } };
      const relatedIds = async (id: string) => (await listRelated(ctx, id, { limit: 10, ascending: false })).list.map((e) => [e.id, e.context]);
      expect(await relatedIds(invoice.id)).toEqual([[credit.id, 'preceding']]);
      expect(await relatedIds(credit.id)).toEqual([[invoice.id, 'preceding']]);
      const faults = JSON.parse((service.db.sqlite!.prepare('SELECT faults FROM entries WHERE id = ?').get(invoice.id) as { faults: string }).faults);
      expect(faults).toEqual([
        { code: 'calculation', message: 'old', provider: 'silo', paths: ['$.doc.totals.payable'] },
        { code: 'x', message: 'no path', provider: 'silo', paths: [] },
      ]);
    } finally {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
