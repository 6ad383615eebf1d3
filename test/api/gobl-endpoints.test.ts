import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src-main/core/gobl/canonical.ts';
import { verifyEnvelopeSigs } from '../../src-main/core/gobl/sign/index.ts';
import { example, partialInvoice } from './gobl-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

/** The stateless GOBL endpoints, called as a client of the hosted service calls them. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('POST /silo/v1/gobl/build', () => {
  it("answers GOBL's own document for a GOBL example, and the envelope when asked", async () => {
    const out = example('out', 'es-invoice-es-es.json');
    const res = await t.call('POST', '/silo/v1/gobl/build', { data: example('in', 'es-invoice-es-es.json') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(canonicalJson(res.body.data)).toBe(canonicalJson(out.doc));

    const envelope = await t.call('POST', '/silo/v1/gobl/build', { data: example('in', 'es-invoice-es-es.json'), envelop: true });
    expect(envelope.status).toBe(200);
    expect(envelope.body.data.$schema).toBe('https://gobl.org/draft-0/envelope');
    expect(envelope.body.data.head.dig).toEqual(out.head.dig);
    expect(canonicalJson(envelope.body.data.doc)).toBe(canonicalJson(out.doc));
  });

  it('completes partial data: line sums, discounts, tax percents and totals', async () => {
    const res = await t.call('POST', '/silo/v1/gobl/build', { data: partialInvoice() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const doc = res.body.data;
    expect(doc.lines.map((l: any) => [l.sum, l.total])).toEqual([['1000.00', '1000.00'], ['100.00', '90.00']]);
    expect(doc.lines[1].discounts[0].amount).toBe('10.00');
    expect(doc.lines[0].taxes[0].percent).toBe('21.0%');
    expect(doc.totals).toMatchObject({ sum: '1090.00', tax: '228.90', total_with_tax: '1318.90', payable: '1318.90' });
  });

  it('refuses what GOBL refuses with 422, fields by path and the faults', async () => {
    const res = await t.call('POST', '/silo/v1/gobl/build', { data: partialInvoice({ $tags: ['no-such-tag'] }) });
    expect(res.status).toBe(422);
    expect(res.body.key).toBe('validation');
    expect(res.body.faults).toEqual([expect.objectContaining({ code: 'unknown-tag', paths: ['$.doc.$tags[0]'], provider: 'silo' })]);
    expect(res.body.fields).toHaveProperty(['$.data.$tags[0]']);

    const noSchema = await t.call('POST', '/silo/v1/gobl/build', { data: { code: 'X' } });
    expect(noSchema.status).toBe(422);
    expect(noSchema.body.faults[0].code).toBe('unknown-schema');
  });

  it('answers a draft that still has faults only when draft is asked for', async () => {
    const draft = partialInvoice({ $regime: 'ES' });
    delete draft.supplier;
    const refused = await t.call('POST', '/silo/v1/gobl/build', { data: draft });
    expect(refused.status).toBe(422);
    expect(refused.body.faults.length).toBeGreaterThan(0);
    expect(refused.body.faults.some((f: any) => f.paths.some((p: string) => p.startsWith('$.doc.supplier')))).toBe(true);

    const built = await t.call('POST', '/silo/v1/gobl/build', { data: draft, draft: true });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    expect(built.body.data.totals.payable).toBe('1318.90');
  });

  it('names an unknown body field in a 422', async () => {
    const res = await t.call('POST', '/silo/v1/gobl/build', { data: partialInvoice(), envelope: true });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('$.envelope');
  });
});

describe('POST /silo/v1/gobl/correct', () => {
  it('describes the correction options, then makes a credit note naming the invoice', async () => {
    const invoice = example('out', 'es-invoice-es-es.json');
    const schema = await t.call('POST', '/silo/v1/gobl/correct', { data: invoice, show_options: true });
    expect(schema.status, JSON.stringify(schema.body)).toBe(200);
    expect(schema.body.data.$defs['bill.CorrectionOptions'].properties.type.default).toBe('credit-note');

    // FacturaE asks for the correction's reason code as an ext of the preceding document
    const needsExt = await t.call('POST', '/silo/v1/gobl/correct', { data: invoice, options: { type: 'credit-note' } });
    expect(needsExt.status).toBe(422);
    expect(needsExt.body.faults[0].paths).toEqual(['$.options.ext.es-facturae-correction']);
    const options = { type: 'credit-note', reason: 'Returned goods', ext: { 'es-facturae-correction': '01' } };
    const res = await t.call('POST', '/silo/v1/gobl/correct', { data: invoice, options });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const credit = res.body.data.doc;
    expect(credit.type).toBe('credit-note');
    expect(credit.preceding[0]).toMatchObject({ uuid: invoice.doc.uuid, code: invoice.doc.code, issue_date: invoice.doc.issue_date });
    expect(credit.totals.payable).toBe(invoice.doc.totals.payable);
    expect(res.body.data.head.dig.val).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses options GOBL refuses, with the faults at $.options', async () => {
    const res = await t.call('POST', '/silo/v1/gobl/correct', { data: example('out', 'es-invoice-es-es.json'), options: { reason: 'no type' } });
    expect(res.status).toBe(422);
    expect(res.body.faults[0]).toMatchObject({ code: 'correction-type-required', paths: ['$.options.type'] });
    expect(res.body.fields).toHaveProperty(['$.options.type']);
  });
});

describe('POST /silo/v1/gobl/sign', () => {
  it("builds and signs with the instance key: the signature verifies against the service's JWKS", async () => {
    const res = await t.call('POST', '/silo/v1/gobl/sign', { data: partialInvoice() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.sigs).toHaveLength(1);
    expect(res.body.data.doc.totals.payable).toBe('1318.90');
    const jwks = (await t.call('GET', '/sequence/v1/keys')).body;
    const report = verifyEnvelopeSigs(res.body.data, jwks);
    expect(report.valid, JSON.stringify(report)).toBe(true);

    // a changed document no longer verifies
    const tampered = structuredClone(res.body.data);
    tampered.doc.totals.payable = '1.00';
    expect(verifyEnvelopeSigs(tampered, jwks).valid).toBe(false);
  });

  it('refuses to sign an invoice without a code (GOBL-ENVELOPE-13)', async () => {
    const draft = partialInvoice();
    delete draft.code;
    const res = await t.call('POST', '/silo/v1/gobl/sign', { data: draft });
    expect(res.status).toBe(422);
    expect(res.body.faults.map((f: any) => f.code)).toContain('GOBL-ENVELOPE-13');
  });
});
