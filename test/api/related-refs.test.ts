import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, example, partialInvoice, related } from './gobl-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * Related entries follow GOBL document references both ways, by uuid or by code (+ series, + date), within a company.
 * (How migration 0007 back-fills them in a SQLite file from before it: related-refs-migration.test.ts.)
 */
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
