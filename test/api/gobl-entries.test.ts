import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyEnvelopeSigs } from '../../src-main/core/gobl/sign/index.ts';
import { callAs, example, oneLineInvoice, partialInvoice, related } from './gobl-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

/** Entries go through GOBL: partial data is built, complete documents are checked, faults are reported. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** A complete invoice whose payable says 9999.99 while its line makes 1210.00. */
async function inconsistentInvoice(code: string) {
  const built = await t.call('POST', '/silo/v1/gobl/build', { data: oneLineInvoice(code) });
  expect(built.status, JSON.stringify(built.body)).toBe(200);
  expect(built.body.data.totals.payable).toBe('1210.00');
  return { ...built.body.data, totals: { ...built.body.data.totals, payable: '9999.99' } };
}

describe('creating entries', () => {
  it('stores a partial invoice complete: line sums, discounts, tax percents, totals', async () => {
    const res = await t.call('POST', '/silo/v1/entries', { data: partialInvoice() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.invalid).toBe(false);
    expect(res.body.faults).toEqual([]);
    const doc = (await t.call('GET', `/silo/v1/entries/${res.body.id}`)).body.data.doc;
    expect(doc.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(doc.$regime).toBe('ES');
    expect(doc.lines.map((l: any) => [l.i, l.sum, l.total])).toEqual([[1, '1000.00', '1000.00'], [2, '100.00', '90.00']]);
    expect(doc.lines[1].discounts[0].amount).toBe('10.00');
    expect(doc.lines.map((l: any) => l.taxes[0].percent)).toEqual(['21.0%', '21.0%']);
    expect(doc.totals).toMatchObject({ sum: '1090.00', total: '1090.00', tax: '228.90', total_with_tax: '1318.90', payable: '1318.90' });
    expect(res.body.snippet).toMatchObject({ total: '1090.00', payable: '1318.90' });
    expect(res.body.digest.val).toBe(res.body.data.head.dig.val);
  });

  it('stores a complete, consistent GOBL document as GOBL builds it', async () => {
    const out = example('out', 'es-invoice-es-es.json');
    out.head.uuid = uuidv7();
    const res = await t.call('PUT', `/silo/v1/entries/${out.head.uuid}`, { data: out });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual(out);
    expect(res.body.digest).toEqual(out.head.dig);
  });

  it('refuses an inconsistent complete invoice with a calculation fault at the figure (stated / calculated)', async () => {
    const doc = await inconsistentInvoice('BAD-1');
    const res = await t.call('POST', '/silo/v1/entries', { data: doc });
    expect(res.status).toBe(422);
    expect(res.body.key).toBe('validation');
    const fault = res.body.faults.find((f: any) => f.code === 'calculation');
    expect(fault).toMatchObject({ paths: ['$.doc.totals.payable'], stated: '9999.99', calculated: '1210.00', provider: 'silo' });
    expect(res.body.fields).toHaveProperty(['$.data.totals.payable']);
  });

  it('stores it as given, flagged invalid with that fault, when allow_invalid', async () => {
    const doc = await inconsistentInvoice('BAD-2');
    const res = await t.call('POST', '/silo/v1/entries', { data: doc, allow_invalid: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.invalid).toBe(true);
    expect(res.body.data.doc.totals.payable).toBe('9999.99');
    expect(res.body.faults).toContainEqual(expect.objectContaining({
      code: 'calculation', paths: ['$.doc.totals.payable'], stated: '9999.99', calculated: '1210.00',
    }));
    const listed = (await t.call('GET', '/silo/v1/entries?limit=100')).body.list.find((e: any) => e.id === res.body.id);
    expect(listed.invalid).toBe(true);
  });

  it('refuses an unknown body field, naming it, on create, put, patch and import', async () => {
    const post = await t.call('POST', '/silo/v1/entries', { data: partialInvoice(), allowInvalid: true });
    expect(post.status).toBe(422);
    expect(post.body.message).toContain('$.allowInvalid');
    expect(post.body.fields).toEqual({ '$.allowInvalid': 'is not a field this operation takes' });
    const put = await t.call('PUT', `/silo/v1/entries/${uuidv7()}`, { data: partialInvoice(), signed: true });
    expect(put.status).toBe(422);
    expect(put.body.message).toContain('$.signed');
    const created = await t.call('POST', '/silo/v1/entries', { data: partialInvoice({ code: 'UNK-1' }) });
    const patch = await t.call('PATCH', `/silo/v1/entries/${created.body.id}`, { folder: 'x', colour: 'red' });
    expect(patch.status).toBe(422);
    expect(patch.body.message).toContain('$.colour');
    const imported = await t.call('POST', '/silo/v1/import', { entries: [{ data: partialInvoice(), tag: 'x' }] });
    expect(imported.status).toBe(422);
    expect(imported.body.message).toContain('$.entries[0].tag');
    expect(Object.keys(imported.body.fields)).toEqual(['$.entries[0].tag']);
  });

  it('signs after building when sign is true: the signature verifies with the JWKS', async () => {
    const res = await t.call('POST', '/silo/v1/entries', { data: partialInvoice({ code: 'SIGN-1' }), sign: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.signed).toBe(true);
    expect(res.body.state).toBe('completed');
    expect(res.body.data.doc.totals.payable).toBe('1318.90');
    const jwks = (await t.call('GET', '/sequence/v1/keys')).body;
    expect(verifyEnvelopeSigs(res.body.data, jwks).valid).toBe(true);
    // a signed entry's document is sealed
    const patch = await t.call('PATCH', `/silo/v1/entries/${res.body.id}`, { content_type: 'application/merge-patch+json', data: { doc: { code: 'X' } } });
    expect(patch.status).toBe(409);
  });

  it('signs an existing draft on PATCH with sign', async () => {
    const draft = await t.call('POST', '/silo/v1/entries', { data: partialInvoice({ code: 'SIGN-2' }) });
    const res = await t.call('PATCH', `/silo/v1/entries/${draft.body.id}`, { sign: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.signed).toBe(true);
    expect(verifyEnvelopeSigs(res.body.data, (await t.call('GET', '/sequence/v1/keys')).body).valid).toBe(true);
  });

  it('a replayed PUT of partial data answers the same entry', async () => {
    const id = uuidv7();
    const data = partialInvoice({ code: 'REPLAY-1' });
    const first = await t.call('PUT', `/silo/v1/entries/${id}`, { data });
    const again = await t.call('PUT', `/silo/v1/entries/${id}`, { data });
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });
});

describe('patching and importing', () => {
  it('recalculates when a patch leaves the document partial, and refuses a patch that breaks its figures', async () => {
    const created = await t.call('POST', '/silo/v1/entries', { data: partialInvoice({ code: 'PATCH-1' }) });
    const broken = await t.call('PATCH', `/silo/v1/entries/${created.body.id}`, {
      content_type: 'application/json-patch+json',
      data: [{ op: 'replace', path: '/doc/lines/0/quantity', value: '20' }],
    });
    expect(broken.status).toBe(422);
    expect(broken.body.faults.map((f: any) => f.code)).toContain('calculation');

    const recalculated = await t.call('PATCH', `/silo/v1/entries/${created.body.id}`, {
      content_type: 'application/json-patch+json',
      data: [{ op: 'replace', path: '/doc/lines/0/quantity', value: '20' }, { op: 'remove', path: '/doc/totals' }],
    });
    expect(recalculated.status, JSON.stringify(recalculated.body)).toBe(200);
    expect(recalculated.body.data.doc.lines[0].sum).toBe('2000.00');
    expect(recalculated.body.data.doc.totals.payable).toBe('2528.90');
  });

  it('builds each imported item like a POST, and reports faults per item', async () => {
    const bad = await inconsistentInvoice('IMP-BAD');
    const res = await t.call('POST', '/silo/v1/import', { entries: [{ data: partialInvoice({ code: 'IMP-OK' }) }, { data: bad }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results.map((r: any) => r.status)).toEqual(['created', 'error']);
    expect(res.body.results[1].error.faults).toContainEqual(expect.objectContaining({ code: 'calculation', paths: ['$.doc.totals.payable'] }));
    const stored = await t.call('GET', `/silo/v1/entries/${res.body.results[0].id}`);
    expect(stored.body.data.doc.totals.payable).toBe('1318.90');
  });
});

describe('correcting an entry (previous_id + correct)', () => {
  it('makes the credit note of a stored invoice, related both ways', async () => {
    const invoice = await t.call('POST', '/silo/v1/entries', { data: partialInvoice({ code: 'CORR-1' }) });
    expect(invoice.status).toBe(200);
    const credit = await t.call('POST', '/silo/v1/entries', {
      previous_id: invoice.body.id,
      correct: { type: 'credit-note', reason: 'Price agreed after delivery' },
    });
    expect(credit.status, JSON.stringify(credit.body)).toBe(200);
    const doc = credit.body.data.doc;
    expect(doc.type).toBe('credit-note');
    expect(doc.preceding[0]).toMatchObject({ uuid: invoice.body.data.doc.uuid, series: 'INV', code: 'CORR-1' });
    expect(doc.totals.payable).toBe('1318.90');

    expect(await related(t, invoice.body.id)).toEqual([{ id: credit.body.id, context: 'preceding' }]);
    expect(await related(t, credit.body.id)).toEqual([{ id: invoice.body.id, context: 'preceding' }]);
  });

  it('patches the correction with data (a partial credit), then builds it', async () => {
    const invoice = await t.call('POST', '/silo/v1/entries', { data: partialInvoice({ code: 'CORR-2' }) });
    const credit = await t.call('POST', '/silo/v1/entries', {
      previous_id: invoice.body.id,
      correct: { type: 'credit-note' },
      content_type: 'application/json-patch+json',
      data: [{ op: 'remove', path: '/doc/lines/1' }],
    });
    expect(credit.status, JSON.stringify(credit.body)).toBe(200);
    expect(credit.body.data.doc.lines).toHaveLength(1);
    expect(credit.body.data.doc.totals.payable).toBe('1210.00');
  });

  it('needs correct with previous_id, refuses options GOBL refuses, and cannot correct another company\'s entry', async () => {
    const invoice = await t.call('POST', '/silo/v1/entries', { data: partialInvoice({ code: 'CORR-3' }) });
    const noOptions = await t.call('POST', '/silo/v1/entries', { previous_id: invoice.body.id });
    expect(noOptions.status).toBe(422);
    expect(noOptions.body.fields).toHaveProperty(['$.correct']);
    const badOptions = await t.call('POST', '/silo/v1/entries', { previous_id: invoice.body.id, correct: { reason: 'no type' } });
    expect(badOptions.status).toBe(422);
    expect(badOptions.body.fields).toHaveProperty(['$.correct.type']);

    const other = await t.call('POST', '/access/v1/companies', { name: 'Other S.L.' });
    const res = await callAs(t, other.body.owner_token, 'POST', '/silo/v1/entries', { previous_id: invoice.body.id, correct: { type: 'credit-note' } });
    expect(res.status).toBe(404);
  });
});

describe('numbers as a client writes them', () => {
  /** POSTs raw JSON text, so the numbers reach the service exactly as written. */
  async function postText(text: string) {
    const res = await fetch(`${t.url}/silo/v1/entries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: text,
    });
    return { status: res.status, body: await res.json() };
  }
  const withPrice = (price: string) =>
    JSON.stringify({ data: partialInvoice({ code: `NUM-${price}` }) }).replace('"price":"100.00"', `"price":${price}`);

  it('keeps the decimals a JSON number is written with, as GOBL does', async () => {
    const res = await postText(withPrice('100.50'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const doc = (await t.call('GET', `/silo/v1/entries/${res.body.id}`)).body.data.doc;
    expect(doc.lines[0].item.price).toBe('100.50');
    expect(doc.lines[0].sum).toBe('1005.00');
  });

  it('refuses a number with an exponent, and a 19-digit amount, at its path', async () => {
    for (const price of ['1e2', '1234567890123456789']) {
      const res = await postText(withPrice(price));
      expect(res.status, price).toBe(422);
      expect(Object.keys(res.body.fields)).toContain('$.data.lines[0].item.price');
    }
  });
});
