import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDefaultCompany } from '../../src-main/core/access/bootstrap.ts';
import { companyToken } from '../../src-main/core/silo/scale-migration.ts';
import { invoiceDoc } from './perf-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * Search is a walk of the index, newest first, that stops at the page's end (search.ts):
 * the exact document number first, then the company's hits, never another company's,
 * and pages that neither overlap nor skip.
 */
let t: TestServer;
let other: string;
const ids: string[] = [];
beforeAll(async () => {
  t = await startTestServer();
  const customer = { name: 'Zylophone Trading', tax_id: { country: 'ES', code: '54387763P' } };
  for (let i = 0; i < 25; i++) {
    const res = await t.call('POST', '/silo/v1/entries', { data: invoiceDoc(`ZQ-${i}`, { customer }) });
    ids.push(res.body.id);
  }
  other = (await t.call('POST', '/access/v1/companies', { name: 'Other' })).body.owner_token;
  await fetch(`${t.url}/silo/v1/entries`, {
    method: 'POST',
    headers: { authorization: `Bearer ${other}`, 'content-type': 'application/json' },
    body: JSON.stringify({ data: invoiceDoc('ZQ-OTHER', { customer }) }),
  });
});
afterAll(() => t.close());

const search = async (q: string, more = '') => (await t.call('GET', `/silo/v1/search?q=${encodeURIComponent(q)}${more}`)).body;

describe('search', () => {
  it('pages through the company’s hits newest first, without overlap or gap, never another company’s', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 30; offset += 10) {
      const page = await search('zylophone', `&limit=10&offset=${offset}`);
      seen.push(...page.list.map((e: any) => e.id));
      expect(page.next_offset).toBe(offset < 20 ? offset + 10 : undefined);
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it('puts the exact number first, then the rest newest first', async () => {
    const list = (await search('ZQ-3', '&limit=10')).list.map((e: any) => e.id);
    expect(list[0]).toBe(ids[3]);
    expect(list.slice(1)).toEqual(list.slice(1).slice().sort().reverse()); // uuid v7 ids sort as their creation
  });

  it('matches the last word as a prefix from three characters on, and never the company column', async () => {
    expect((await search('zyl')).list.length).toBe(20);
    expect((await search('zy')).list).toEqual([]);
    const own = companyToken((await ensureDefaultCompany(t.service.db)).id);
    expect((await search(own)).list).toEqual([]);
    expect((await search(own.slice(0, 6))).list).toEqual([]);
  });
});
