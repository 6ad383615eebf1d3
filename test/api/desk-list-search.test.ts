import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';
import { importAll, invoice } from './desk-list-helpers.ts';

let t: TestServer;
let ids: string[];

beforeAll(async () => {
  t = await startTestServer();
  // Ten near-misses stored after the exact one, so ranking by text alone could put any first.
  ids = await importAll(t, [
    invoice({ code: 'EXPORT-001', supplier: 'Exportadora Sur' }),
    ...Array.from({ length: 10 }, (_, i) => invoice({ code: `EXPORT-001${i}`, supplier: 'Exportadora Norte' })),
    invoice({ code: '2026-0007', series: 'FV', supplier: 'Series SL' }),
    invoice({ code: 'PLAIN-9', supplier: 'Other SL' }),
  ]);
});
afterAll(() => t.close());

const codes = (list: any[]) => list.map((e) => (e.snippet.series ? `${e.snippet.series}-${e.snippet.code}` : e.snippet.code));

describe('search', () => {
  it('puts an exact document number first, as typed or lower-cased: EXPORT-001 above EXPORT-0010', async () => {
    for (const q of ['EXPORT-001', 'export-001', ' EXPORT-001 ']) {
      const res = await t.call('GET', `/silo/v1/search?q=${encodeURIComponent(q)}&limit=10`);
      expect(res.status).toBe(200);
      expect(codes(res.body.list)[0], q).toBe('EXPORT-001');
      expect(codes(res.body.list).slice(1).every((c: string) => c.startsWith('EXPORT-001') && c !== 'EXPORT-001')).toBe(true);
    }
    // Series and code typed as GOBL presents them.
    const series = await t.call('GET', '/silo/v1/search?q=FV-2026-0007');
    expect(codes(series.body.list)).toEqual(['FV-2026-0007']);
  });

  it('pages through exact and full-text hits in one order, none twice', async () => {
    const seen: string[] = [];
    let offset = 0;
    for (;;) {
      const res = await t.call('GET', `/silo/v1/search?q=EXPORT-001&limit=10&offset=${offset}`);
      seen.push(...codes(res.body.list));
      if (res.body.next_offset === undefined) break;
      offset = res.body.next_offset;
    }
    expect(seen[0]).toBe('EXPORT-001');
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(11);
  });

  it('filters hits by state, tag and issue date on the service', async () => {
    await t.call('PATCH', `/silo/v1/entries/${ids[3]}`, { state: 'paid', tags: ['q1'] });
    const paid = await t.call('GET', '/silo/v1/search?q=Exportadora&state=paid');
    expect(paid.body.list.map((e: any) => e.id)).toEqual([ids[3]]);
    const tagged = await t.call('GET', '/silo/v1/search?q=EXPORT-001&tag=q1');
    expect(tagged.body.list.map((e: any) => e.id)).toEqual([ids[3]]);
    // The exact number is filtered like any hit.
    expect((await t.call('GET', '/silo/v1/search?q=EXPORT-001&state=paid')).body.list.map((e: any) => e.id)).toEqual([ids[3]]);
  });
});

describe('entry names', () => {
  it('names entries by number and title for lists of jobs, only in the caller’s company', async () => {
    const res = await t.call('GET', `/silo/v1/entry-names?ids=${ids[11]},${ids[0]},${uuidv4()}`);
    expect(res.status).toBe(200);
    expect(res.body.list).toEqual([
      { id: ids[11], number: 'FV-2026-0007', title: expect.stringMatching(/^Invoice FV-2026-0007 — Series SL/), type: 'standard', doc_schema: 'https://gobl.org/draft-0/bill/invoice' },
      { id: ids[0], number: 'EXPORT-001', title: expect.stringMatching(/^Invoice EXPORT-001 /), type: 'standard', doc_schema: 'https://gobl.org/draft-0/bill/invoice' },
    ]);
    const other = await t.call('POST', '/access/v1/companies', { name: 'Other' });
    const foreign = await t.call('GET', `/silo/v1/entry-names?ids=${ids[0]}`, undefined, { authorization: `Bearer ${other.body.owner_token}` });
    expect(foreign.body.list).toEqual([]);
    expect((await t.call('GET', '/silo/v1/entry-names?ids=nope')).status).toBe(400);
    expect((await t.call('GET', `/silo/v1/entry-names?ids=${Array.from({ length: 101 }, () => uuidv4()).join(',')}`)).status).toBe(400);
  });
});

describe('attachment names are display names', () => {
  const pdf = Buffer.from('%PDF-1.4 scan').toString('base64');

  it('stores `Scan 2025-03-14 10:30.pdf` under a path-safe id and serves it with a safe Content-Disposition', async () => {
    const name = 'Scan 2025-03-14 10:30.pdf';
    const put = await t.call('PUT', `/silo/v1/entries/${ids[12]}/files/Scan-2025-03-14-10-30.pdf`, { name, data: pdf });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.name).toBe(name);
    const res = await fetch(`${t.url}/silo/v1/entries/${ids[12]}/files/Scan-2025-03-14-10-30.pdf`, { headers: { authorization: `Bearer ${t.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="Scan 2025-03-14 10_30.pdf"; filename*=UTF-8''Scan%202025-03-14%2010%3A30.pdf`,
    );
  });

  it('takes any printable name, quotes and path characters included, and refuses invisible ones', async () => {
    const ok = ['a/b\\c:d*e?f"g<h>i|j.pdf', "O'Brien (copy).pdf", '..', 'CON', 'Factura nº 12 — café.pdf'];
    for (const [i, name] of ok.entries()) {
      const put = await t.call('PUT', `/silo/v1/entries/${ids[12]}/files/name-${i}`, { name, data: pdf });
      expect(put.status, name).toBe(200);
      const res = await fetch(`${t.url}/silo/v1/entries/${ids[12]}/files/name-${i}`, { headers: { authorization: `Bearer ${t.token}` } });
      const header = res.headers.get('content-disposition')!;
      // The quoted fallback holds no quote, slash or colon; the UTF-8 form decodes to the name.
      expect(/filename="([^"]*)"/.exec(header)![1], name).toMatch(/^[^"/\\:]*$/);
      expect(decodeURIComponent(/filename\*=UTF-8''(\S+)$/.exec(header)![1]), name).toBe(name);
      expect(/filename\*=UTF-8''(\S+)$/.exec(header)![1]).not.toMatch(/['()*]/);
    }
    for (const name of ['', '   ', 'x\u0000y', 'x\r\nSet-Cookie: a=b', 'invoice\u202Efdp.exe', 'a'.repeat(1025)]) {
      const put = await t.call('PUT', `/silo/v1/entries/${ids[12]}/files/bad`, { name, data: pdf });
      expect(put.status, JSON.stringify(name)).toBe(422);
      expect(put.body.fields).toHaveProperty(['$.name']);
    }
    // Ids stay path-safe.
    expect((await t.call('PUT', `/silo/v1/entries/${ids[12]}/files/${encodeURIComponent('a:b')}`, { name: 'x', data: pdf })).status).toBe(400);
  });
});
