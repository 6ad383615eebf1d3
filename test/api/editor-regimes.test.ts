import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ autoSync: false, runJobs: false });
});
afterAll(() => t.close());

describe('the regime catalogue the invoice editor offers', () => {
  it("lists a country's tax categories with their keys and today's rates, as GOBL defines them", async () => {
    const res = await t.call('GET', '/silo/v1/gobl/regimes/es');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 'ES', currency: 'EUR' });
    const vat = res.body.categories.find((c: { code: string }) => c.code === 'VAT');
    expect(vat.retained).toBe(false);
    expect(vat.rates).toContainEqual({ rate: 'general', name: expect.objectContaining({ en: 'Standard Rate' }), percent: '21.0%' });
    expect(vat.rates).toContainEqual(expect.objectContaining({ rate: 'general+eqs', percent: '21.0%', surcharge: '5.2%' }));
    expect(vat.keys.map((k: { key: string }) => k.key)).toEqual(expect.arrayContaining(['standard', 'exempt', 'reverse-charge']));
    const irpf = res.body.categories.find((c: { code: string }) => c.code === 'IRPF');
    expect(irpf.retained).toBe(true);
  });

  it('lists every regime and refuses an unknown or malformed code', async () => {
    const list = await t.call('GET', '/silo/v1/gobl/regimes');
    expect(list.body.list.map((r: { code: string }) => r.code)).toEqual(expect.arrayContaining(['ES', 'DE', 'FR', 'PT', 'MX']));
    expect((await t.call('GET', '/silo/v1/gobl/regimes/zz')).status).toBe(404);
    expect((await t.call('GET', '/silo/v1/gobl/regimes/..%2F..')).status).toBe(400);
  });
});
