import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnvelopes } from '../fixtures/gobl/load.ts';
import { startTestServer, type TestServer } from './harness.ts';

const fixtures = loadEnvelopes();
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
  // GOBL's examples all share one envelope uuid; each gets its own, as real envelopes have.
  // The digest covers the document only, so head.dig stays what GOBL computed.
  for (const { envelope } of fixtures) {
    envelope.head.uuid = uuidv7();
    const res = await t.call('PUT', `/silo/v1/entries/${envelope.head.uuid}`, { data: envelope });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
});
afterAll(() => t.close());

describe('importing the GOBL fixtures', () => {
  it('stores every fixture valid, with the digest GOBL computed', async () => {
    expect(fixtures.length).toBe(68);
    for (const { file, envelope } of fixtures) {
      const res = await t.call('GET', `/silo/v1/entries/${envelope.head.uuid}`);
      expect(res.status).toBe(200);
      expect(res.body.digest, file).toEqual({ alg: 'sha256', val: envelope.head.dig.val });
      expect(res.body.invalid, file).toBe(false);
      expect(res.body.faults, file).toEqual([]);
      expect(res.body.data, file).toEqual(envelope);
      expect(res.body.doc_schema).toBe(envelope.doc.$schema);
      expect(res.body.env_schema).toBe('https://gobl.org/draft-0/envelope');
      expect(res.body.signed).toBe(false);
      expect(res.body.draft).toBe(true);
    }
  });

  it('files invoices in the invoices folder and counts folders', async () => {
    const folders = await t.call('GET', '/silo/v1/folders');
    const invoices = folders.body.list.find((f: any) => f.folder === 'invoices');
    expect(invoices.count).toBe(fixtures.filter((f) => f.envelope.doc.$schema.endsWith('bill/invoice')).length);
    const total = folders.body.list.reduce((n: number, f: any) => n + f.count, 0);
    expect(total).toBe(68);
  });

  it('gives invoices a snippet with code, parties and totals, as the hosted service shapes it', async () => {
    const { envelope } = fixtures.find((f) => f.file === 'es-invoice-es-es.json')!;
    const res = await t.call('GET', `/silo/v1/entries/${envelope.head.uuid}`);
    expect(res.body.snippet.code).toBe(envelope.doc.code);
    expect(res.body.snippet.supplier).toMatchObject({ name: envelope.doc.supplier.name, tax_code: envelope.doc.supplier.tax_id.code });
    expect(res.body.snippet.customer).toMatchObject({ name: envelope.doc.customer.name });
    // GOBL's totals by their GOBL names: total is before tax, payable what is due.
    expect(res.body.snippet.total).toBe(envelope.doc.totals.total);
    expect(res.body.snippet.payable).toBe(envelope.doc.totals.payable);
    expect(res.body.snippet.title).toContain(envelope.doc.code);
  });
});

describe('listing', () => {
  async function walk(ascending: boolean, limit: number, extra = '') {
    const seen: any[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const qs = `limit=${limit}&ascending=${ascending}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}${extra}`;
      const res = await t.call('GET', `/silo/v1/entries?${qs}`);
      expect(res.status).toBe(200);
      expect(res.body.list.length).toBeLessThanOrEqual(limit);
      expect(res.body.limit).toBe(limit);
      for (const e of res.body.list) expect(e.data).toBeUndefined();
      seen.push(...res.body.list);
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 100);
    return seen;
  }

  it('pages newest first and oldest first, each entry exactly once, in order', async () => {
    for (const ascending of [false, true]) {
      const seen = await walk(ascending, 10);
      const ids = seen.map((e) => e.id);
      expect(new Set(ids).size).toBe(68);
      expect(ids.length).toBe(68);
      for (let i = 1; i < seen.length; i++) {
        const a = [seen[i - 1].created_at, seen[i - 1].id].join('|');
        const b = [seen[i].created_at, seen[i].id].join('|');
        expect(ascending ? a < b : a > b).toBe(true);
      }
    }
  });

  it('defaults to 20 per page and omits next_cursor on the last page', async () => {
    const first = await t.call('GET', '/silo/v1/entries');
    expect(first.body.list.length).toBe(20);
    expect(first.body.next_cursor).toBeTruthy();
    const all = await t.call('GET', '/silo/v1/entries?limit=100');
    expect(all.body.list.length).toBe(68);
    expect(all.body.next_cursor).toBeUndefined();
  });

  it('filters by folder and bounds by created_at', async () => {
    const payments = await walk(false, 10, '&folder=payments');
    expect(payments.map((e) => e.doc_schema)).toEqual(payments.map(() => 'https://gobl.org/draft-0/bill/payment'));
    expect(payments.length).toBe(2);

    const all = (await t.call('GET', '/silo/v1/entries?limit=100&ascending=true')).body.list;
    const middle = all[30].created_at;
    const older = (await t.call('GET', `/silo/v1/entries?limit=100&created_at=${middle}`)).body.list;
    expect(older.every((e: any) => e.created_at <= middle)).toBe(true);
    expect(older.length).toBe(all.filter((e: any) => e.created_at <= middle).length);
    const newer = (await t.call('GET', `/silo/v1/entries?limit=100&ascending=true&created_at=${middle}`)).body.list;
    expect(newer.every((e: any) => e.created_at >= middle)).toBe(true);
  });
});

describe('creating', () => {
  it('wraps a bare document in an envelope under a new id (POST)', async () => {
    const doc = structuredClone(fixtures.find((f) => f.file === 'es-invoice-es-es.json')!.envelope.doc);
    doc.code = 'BARE-1';
    const res = await t.call('POST', '/silo/v1/entries', { data: doc, tags: ['bare'] });
    expect(res.status).toBe(200);
    expect(res.body.data.head.uuid).toBe(res.body.id);
    expect(res.body.data.doc.code).toBe('BARE-1');
    expect(res.body.digest.val).toBe(res.body.data.head.dig.val);
    expect(res.body.tags).toEqual(['bare']);
    expect(res.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
  });

  it('is idempotent under an id, and refuses another body or a used key', async () => {
    const id = '0190c1a0-0000-7000-8000-000000000001';
    const doc = structuredClone(fixtures[5].envelope.doc);
    const first = await t.call('PUT', `/silo/v1/entries/${id}`, { data: doc, key: 'order-42' });
    expect(first.status).toBe(200);
    const again = await t.call('PUT', `/silo/v1/entries/${id}`, { data: doc, key: 'order-42' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);

    const other = await t.call('PUT', `/silo/v1/entries/${id}`, { data: { ...doc, code: 'OTHER' }, key: 'order-42' });
    expect(other.status).toBe(409);
    expect(other.body.key).toBe('conflict');

    const reuse = await t.call('PUT', '/silo/v1/entries/0190c1a0-0000-7000-8000-000000000002', { data: doc, key: 'order-42' });
    expect(reuse.status).toBe(409);
    expect(reuse.body.message).toContain(id);

    const byKey = await t.call('GET', '/silo/v1/entries/key/order-42');
    expect(byKey.status).toBe(200);
    expect(byKey.body.id).toBe(id);
    expect((await t.call('GET', '/silo/v1/entries/key/nope')).status).toBe(404);
  });

  it('keeps 11 characters of a request’s hash, and still knows a replay of an entry stored with 22 of them or all 64 hex digits', async () => {
    const id = uuidv7();
    const doc = structuredClone(fixtures[6].envelope.doc);
    expect((await t.call('PUT', `/silo/v1/entries/${id}`, { data: doc })).status).toBe(200);
    const { db } = t.service;
    const stored = (await db.sqlFirst<{ request_hash: string }>('SELECT request_hash FROM entries WHERE id = ?', [id]))!.request_hash;
    expect(stored).toMatch(/^[A-Za-z0-9_-]{11}$/);
    const first8 = Buffer.from(stored, 'base64url');
    expect(first8.length).toBe(8);
    // As rows stored before had it: 16 bytes of the SHA-256 in base64url, or all 32 in hex; the first 8 are what is kept now.
    for (const legacy of [Buffer.concat([first8, Buffer.alloc(8, 0xab)]).toString('base64url'), first8.toString('hex') + 'ab'.repeat(24)]) {
      await db.tx(() => db.sqlRun('UPDATE entries SET request_hash = ? WHERE id = ?', [legacy, id]), { origin: 'local' });
      expect((await t.call('PUT', `/silo/v1/entries/${id}`, { data: doc })).status).toBe(200);
      expect((await t.call('PUT', `/silo/v1/entries/${id}`, { data: { ...doc, code: 'OTHER-22' } })).status).toBe(409);
    }
    // Another request's first 8 bytes in the old forms are no replay.
    const otherBytes = Buffer.from(first8.map((b) => b ^ 0xff));
    await db.tx(() => db.sqlRun('UPDATE entries SET request_hash = ? WHERE id = ?', [Buffer.concat([otherBytes, otherBytes]).toString('base64url'), id]), { origin: 'local' });
    expect((await t.call('PUT', `/silo/v1/entries/${id}`, { data: doc })).status).toBe(409);
    // An import's replay, likewise.
    const imported = uuidv7();
    const item = { id: imported, data: { ...structuredClone(fixtures[7].envelope.doc), uuid: imported } };
    expect((await t.call('POST', '/silo/v1/import', { entries: [item] })).body).toMatchObject({ created: 1 });
    const kept = (await db.sqlFirst<{ request_hash: string }>('SELECT request_hash FROM entries WHERE id = ?', [imported]))!.request_hash;
    await db.tx(() => db.sqlRun('UPDATE entries SET request_hash = ? WHERE id = ?', [Buffer.from(kept, 'base64url').toString('hex') + 'cd'.repeat(24), imported]), { origin: 'local' });
    expect((await t.call('POST', '/silo/v1/import', { entries: [item] })).body).toMatchObject({ created: 0, existing: 1, failed: 0 });
  });

  it('stores GOBL’s schemas short and shows them whole', async () => {
    const id = uuidv7();
    const created = await t.call('PUT', `/silo/v1/entries/${id}`, { data: structuredClone(fixtures[8].envelope.doc) });
    expect(created.body).toMatchObject({ doc_schema: 'https://gobl.org/draft-0/bill/invoice', env_schema: 'https://gobl.org/draft-0/envelope' });
    const row = await t.service.db.sqlFirst<{ doc_schema: string; env_schema: string; digest_alg: string }>('SELECT doc_schema, env_schema, digest_alg FROM entries WHERE id = ?', [id]);
    // The envelope's schema and the digest's algorithm, the same for every entry, are stored empty.
    expect(row).toEqual({ doc_schema: '~bill/invoice', env_schema: '', digest_alg: '' });
    const shown = (await t.call('GET', `/silo/v1/entries/${id}`)).body;
    expect(shown).toMatchObject({ doc_schema: 'https://gobl.org/draft-0/bill/invoice', env_schema: 'https://gobl.org/draft-0/envelope', digest: { alg: 'sha256' } });
    // Rows stored before keep the forms of then, and read the same.
    for (const [envSchema, alg] of [['~envelope', 'sha256'], ['https://gobl.org/draft-0/envelope', 'sha256']]) {
      await t.service.db.tx(() => t.service.db.sqlRun('UPDATE entries SET env_schema = ?, digest_alg = ? WHERE id = ?', [envSchema, alg, id]), { origin: 'local' });
      expect((await t.call('GET', `/silo/v1/entries/${id}`)).body).toEqual(shown);
    }
  });

  it('refuses an envelope whose head.uuid is not the id', async () => {
    const { envelope } = fixtures[0];
    const res = await t.call('PUT', '/silo/v1/entries/0190c1a0-0000-7000-8000-00000000000f', { data: envelope });
    expect(res.status).toBe(422);
    expect(res.body.fields['$.data.head.uuid']).toBeTruthy();
  });
});

describe('related entries', () => {
  // GOBL's examples reuse one document uuid, so each test makes its own pair.
  async function invoiceWithFreshUuid(code: string) {
    const doc = structuredClone(fixtures.find((f) => f.file === 'es-invoice-es-es.json')!.envelope.doc);
    doc.uuid = uuidv7();
    doc.code = code;
    const res = await t.call('POST', '/silo/v1/entries', { data: doc });
    expect(res.status).toBe(200);
    return res.body;
  }

  it('finds a credit note as related to its preceding invoice, with the context', async () => {
    const invoice = await invoiceWithFreshUuid('REL-1');
    const credit = structuredClone(fixtures.find((f) => f.file === 'gr-credit-note.json')!.envelope.doc);
    credit.uuid = uuidv7();
    // the Greek credit note keeps its preceding stamps (myDATA requires them) and names our invoice
    credit.preceding = [{ ...credit.preceding[0], uuid: invoice.data.doc.uuid, type: 'standard', issue_date: invoice.data.doc.issue_date, code: 'REL-1' }];
    const created = await t.call('POST', '/silo/v1/entries', { data: credit });
    expect(created.status, JSON.stringify(created.body)).toBe(200);

    const related = await t.call('GET', `/silo/v1/entries/${invoice.id}/related`);
    expect(related.status).toBe(200);
    expect(related.body.list.map((e: any) => e.id)).toEqual([created.body.id]);
    expect(related.body.list[0].context).toBe('preceding');

    const byContext = await t.call('GET', `/silo/v1/entries/${invoice.id}/related?context=lines.item`);
    expect(byContext.body.list).toEqual([]);
    const explicit = await t.call('GET', `/silo/v1/entries/${invoice.id}/related?uuid=${invoice.data.doc.uuid}&context=preceding`);
    expect(explicit.body.list.map((e: any) => e.id)).toEqual([created.body.id]);

    // Related goes both ways: the credit note lists the invoice it names.
    const reverse = await t.call('GET', `/silo/v1/entries/${created.body.id}/related`);
    expect(reverse.body.list.map((e: any) => [e.id, e.context])).toEqual([[invoice.id, 'preceding']]);
  });

  it('finds a payment as related to the invoice it pays, paging with cursors', async () => {
    const invoice = await invoiceWithFreshUuid('REL-2');
    const ids: string[] = [];
    // Twelve: pages hold at least ten, as the hosted lists do.
    for (let i = 0; i < 12; i++) {
      const payment = structuredClone(fixtures.find((f) => f.file === 'es-payment-with-tax.json')!.envelope.doc);
      payment.uuid = uuidv7();
      payment.lines[0].document.uuid = invoice.data.doc.uuid;
      const res = await t.call('POST', '/silo/v1/entries', { data: payment });
      ids.push(res.body.id);
    }
    const first = await t.call('GET', `/silo/v1/entries/${invoice.id}/related?limit=10&ascending=true`);
    expect(first.body.list.map((e: any) => e.id)).toEqual(ids.slice(0, 10));
    expect(first.body.list[0].context).toBe('lines.document');
    const second = await t.call('GET', `/silo/v1/entries/${invoice.id}/related?limit=10&ascending=true&cursor=${first.body.next_cursor}`);
    expect(second.body.list.map((e: any) => e.id)).toEqual(ids.slice(10));
    expect(second.body.next_cursor).toBeUndefined();
  });
});

describe('patching', () => {
  async function fresh(code: string) {
    const doc = structuredClone(fixtures.find((f) => f.file === 'es-invoice-es-es.json')!.envelope.doc);
    doc.code = code;
    delete doc.uuid;
    return (await t.call('POST', '/silo/v1/entries', { data: doc })).body;
  }

  it('replaces the document with application/json', async () => {
    const e = await fresh('P-1');
    const doc = { ...e.data.doc, code: 'P-1-REPLACED' };
    const res = await t.call('PATCH', `/silo/v1/entries/${e.id}`, { content_type: 'application/json', data: doc });
    expect(res.status).toBe(200);
    expect(res.body.data.doc.code).toBe('P-1-REPLACED');
    expect(res.body.snippet.code).toBe('P-1-REPLACED');
    expect(res.body.digest.val).not.toBe(e.digest.val);
    expect(res.body.digest.val).toBe(res.body.data.head.dig.val);
    expect(res.body.version).toBe(String(Number(e.version) + 1));
  });

  it('applies an RFC 7396 merge patch, removing members set to null', async () => {
    const e = await fresh('P-2');
    const res = await t.call('PATCH', `/silo/v1/entries/${e.id}`, {
      content_type: 'application/merge-patch+json',
      data: { doc: { code: 'P-2-MERGED', notes: null } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.doc.code).toBe('P-2-MERGED');
    expect(res.body.data.doc.notes).toBeUndefined();
    expect(res.body.data.doc.supplier).toEqual(e.data.doc.supplier);
  });

  it('applies an RFC 6902 JSON patch and refuses one whose test fails', async () => {
    const e = await fresh('P-3');
    const ok = await t.call('PATCH', `/silo/v1/entries/${e.id}`, {
      content_type: 'application/json-patch+json',
      data: [
        { op: 'test', path: '/doc/code', value: 'P-3' },
        { op: 'replace', path: '/doc/code', value: 'P-3-PATCHED' },
      ],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.doc.code).toBe('P-3-PATCHED');
    const bad = await t.call('PATCH', `/silo/v1/entries/${e.id}`, {
      content_type: 'application/json-patch+json',
      data: [{ op: 'test', path: '/doc/code', value: 'nope' }, { op: 'remove', path: '/doc' }],
    });
    expect(bad.status).toBe(422);
    const after = await t.call('GET', `/silo/v1/entries/${e.id}`);
    expect(after.body.data.doc.code).toBe('P-3-PATCHED');
  });

  it('moves an entry to a folder and retags it without touching the document', async () => {
    const e = await fresh('P-4');
    const res = await t.call('PATCH', `/silo/v1/entries/${e.id}`, { folder: 'archive/2024', tags: ['q1', 'q1', 'audit'] });
    expect(res.status).toBe(200);
    expect(res.body.folder).toBe('archive/2024');
    expect(res.body.tags).toEqual(['q1', 'audit']);
    expect(res.body.digest).toEqual(e.digest);
    const listed = await t.call('GET', '/silo/v1/entries?folder=archive%2F2024');
    expect(listed.body.list.map((x: any) => x.id)).toEqual([e.id]);
  });

  it('refuses a patch that makes the document invalid, keeping the old one', async () => {
    const e = await fresh('P-5');
    const res = await t.call('PATCH', `/silo/v1/entries/${e.id}`, {
      content_type: 'application/merge-patch+json',
      data: { doc: { issue_date: 'yesterday' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.key).toBe('validation');
    expect(Object.keys(res.body.fields)).toContain('$.data.doc.issue_date');
    expect((await t.call('GET', `/silo/v1/entries/${e.id}`)).body.data.doc.issue_date).toBe(e.data.doc.issue_date);
  });

  it('refuses to change the document of a signed envelope', async () => {
    const { envelope } = fixtures.find((f) => f.file === 'fr-invoice-fr-fr.json')!;
    const signed = structuredClone(envelope);
    signed.head.uuid = '0190c1a0-0000-7000-8000-0000000000aa';
    // signed by this instance: a signature no trusted key made is refused (trust-sigs.test.ts)
    const created = await t.call('PUT', `/silo/v1/entries/${signed.head.uuid}`, { data: signed, sign: true });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.signed).toBe(true);
    expect(created.body.draft).toBe(false);
    const res = await t.call('PATCH', `/silo/v1/entries/${signed.head.uuid}`, {
      content_type: 'application/merge-patch+json',
      data: { doc: { code: 'X' } },
    });
    expect(res.status).toBe(409);
  });
});

describe('search', () => {
  it('finds by supplier name and by invoice code, scoped to a folder', async () => {
    const { envelope } = fixtures.find((f) => f.file === 'es-invoice-es-es.json')!;
    const bySupplier = await t.call('GET', `/silo/v1/search?limit=100&q=${encodeURIComponent(envelope.doc.supplier.name)}`);
    expect(bySupplier.status).toBe(200);
    expect(bySupplier.body.list.map((e: any) => e.id)).toContain(envelope.head.uuid);
    const other = fixtures.find((f) => f.file === 'ar-invoice-ar-arca-simplified.json')!.envelope;
    expect(other.doc.supplier.name).toBe('Electrodomésticos del Sur S.A.');
    expect(bySupplier.body.list.map((e: any) => e.id)).not.toContain(other.head.uuid);
    // accents folded: what an accountant types without them still finds it
    const byOther = await t.call('GET', '/silo/v1/search?q=electrodomesticos');
    expect(byOther.body.list.map((e: any) => e.id)).toEqual([other.head.uuid]);

    const code = [envelope.doc.series, envelope.doc.code].filter(Boolean).join('-');
    const byCode = await t.call('GET', `/silo/v1/search?limit=100&q=${encodeURIComponent(code)}`);
    expect(byCode.body.list.map((e: any) => e.id)).toContain(envelope.head.uuid);

    const prefix = await t.call('GET', `/silo/v1/search?q=${encodeURIComponent(envelope.doc.supplier.name.slice(0, 6))}&folder=payments`);
    expect(prefix.body.list.length).toBeGreaterThan(0);
    expect(prefix.body.list.every((e: any) => e.folder === 'payments')).toBe(true);

    const none = await t.call('GET', '/silo/v1/search?q=zzzqqqxxx');
    expect(none.body.list).toEqual([]);
    const syntax = await t.call('GET', `/silo/v1/search?q=${encodeURIComponent('"NEAR( OR *')}`);
    expect(syntax.status).toBe(200);
  });
});

describe('bulk import', () => {
  it('stores many documents in one call; each item succeeds or fails alone, and a replay changes nothing', async () => {
    const base = fixtures.find((f) => f.file === 'es-invoice-es-es.json')!.envelope.doc;
    const good = Array.from({ length: 5 }, (_, i) => ({ id: uuidv7(), data: { ...base, uuid: uuidv7(), code: `IMP-${i}` } }));
    const invalid = { data: { ...base, currency: 'nope' } };
    const entries = [...good, invalid, good[0]];
    const res = await t.call('POST', '/silo/v1/import', { entries });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ created: 5, existing: 1, failed: 1 });
    expect(res.body.results.map((r: any) => r.status)).toEqual(['created', 'created', 'created', 'created', 'created', 'error', 'exists']);
    expect(res.body.results[5].error.key).toBe('validation');
    expect(res.body.results[5].error.fields['$.data.currency']).toBeTruthy();
    for (const g of good) expect((await t.call('GET', `/silo/v1/entries/${g.id}`)).body.data.doc.code).toMatch(/^IMP-/);

    const replay = await t.call('POST', '/silo/v1/import', { entries: good });
    expect(replay.body).toMatchObject({ created: 0, existing: 5, failed: 0 });

    // the same document again under a new id is stored, with a pointer to its twin
    const twin = await t.call('POST', '/silo/v1/import', { entries: [{ data: good[1].data }] });
    expect(twin.body.results[0]).toMatchObject({ status: 'created', duplicate_of: good[1].id });

    const conflict = await t.call('POST', '/silo/v1/import', { entries: [{ id: good[2].id, data: { ...good[2].data, code: 'OTHER' } }] });
    expect(conflict.body.results[0]).toMatchObject({ status: 'error', id: good[2].id, error: { key: 'conflict' } });
    expect((await t.call('GET', `/silo/v1/entries/${good[2].id}`)).body.data.doc.code).toBe('IMP-2');
  });
});

describe('filters for the UI', () => {
  it('finds entries by document uuid, lists tags with counts, and filters search by state, tag and date', async () => {
    const base = fixtures.find((f) => f.file === 'es-invoice-es-es.json')!.envelope.doc;
    const docUuid = uuidv7();
    const a = await t.call('POST', '/silo/v1/entries', { data: { ...base, uuid: docUuid, code: 'FLT-1' }, tags: ['flt-q1', 'flt-audit'], state: 'paid' });
    await t.call('POST', '/silo/v1/entries', { data: { ...base, uuid: uuidv7(), code: 'FLT-2', issue_date: '2019-01-01' }, tags: ['flt-q1'] });

    const byDoc = await t.call('GET', `/silo/v1/entries?doc_uuid=${docUuid}`);
    expect(byDoc.body.list.map((e: any) => e.id)).toEqual([a.body.id]);

    const tags = await t.call('GET', '/silo/v1/tags');
    expect(tags.body.list.filter((x: any) => x.tag.startsWith('flt-'))).toEqual([
      { tag: 'flt-q1', count: 2 },
      { tag: 'flt-audit', count: 1 },
    ]);

    const q = 'q=FLT&limit=100';
    const ids = async (extra: string) => (await t.call('GET', `/silo/v1/search?${q}&${extra}`)).body.list.map((e: any) => e.data?.doc?.code ?? e.snippet.code);
    expect(await ids('tag=flt-q1')).toHaveLength(2);
    expect(await ids('state=paid&tag=flt-q1')).toEqual(['FLT-1']);
    expect(await ids('tag=flt-q1&date_to=2020-01-01')).toEqual(['FLT-2']);
    expect(await ids('tag=flt-q1&date_from=2020-01-01')).toEqual(['FLT-1']);
  });
});
