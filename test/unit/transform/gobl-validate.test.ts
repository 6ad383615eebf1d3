import { describe, expect, it } from 'vitest';
import type { StepContext, StepResult } from '../../../src-main/core/transform/provider.ts';
import { goblValidate } from '../../../src-main/core/transform/providers/gobl-validate.ts';
import { loadEnvelope } from '../../fixtures/gobl/load.ts';

// The provider only reads the entry's envelope.
function contextFor(envelope: unknown): StepContext {
  const entry = { envelope, state: 'draft', folder: 'invoices', tags: [], signed: false, version: 1 };
  return { entry: () => entry } as unknown as StepContext;
}

async function validate(envelope: unknown, config: unknown = {}): Promise<StepResult> {
  return goblValidate.run(contextFor(envelope), goblValidate.config.parse(config));
}

describe('gobl.validate', async () => {
  it('is OK (valid) for a correct invoice', async () => {
    expect(await validate(loadEnvelope('es-invoice-es-es-freelance.json'))).toEqual({ status: 'OK', code: 'valid', message: 'no faults' });
  });

  it('is KO (invalid) with the arithmetic faults of an invoice', async () => {
    const envelope = loadEnvelope('es-invoice-es-es-freelance.json');
    envelope.doc.lines[0].quantity = '21';
    const result = await validate(envelope);
    expect(result).toEqual({
      status: 'KO',
      code: 'invalid',
      message: '1 fault; first at $.doc.lines[0].sum: lines[0].sum is 1800.00 but quantity 21 × price 90.00 = 1890.00',
      faults: [{
        code: 'line-sum', provider: 'gobl.validate', path: '$.doc.lines[0].sum',
        message: 'lines[0].sum is 1800.00 but quantity 21 × price 90.00 = 1890.00',
      }],
    });
  });

  it('reports shape faults and arithmetic faults together, shape first', async () => {
    const envelope = loadEnvelope('es-invoice-es-es.json');
    delete envelope.doc.supplier;
    envelope.doc.totals.payable = '1.00';
    const result = await validate(envelope);
    expect(result.status).toBe('KO');
    expect(result.message).toMatch(/^2 faults; first at \$\.doc\.supplier: /);
    expect(result.faults?.map((f) => [f.provider, f.code, f.path])).toEqual([
      ['silo', 'required', '$.doc.supplier'],
      ['gobl.validate', 'payable', '$.doc.totals.payable'],
    ]);
  });

  it('checks only the shape when arithmetic is turned off', async () => {
    const envelope = loadEnvelope('es-invoice-es-es.json');
    envelope.doc.totals.payable = '1.00';
    expect((await validate(envelope, { arithmetic: false })).status).toBe('OK');
  });

  it('checks only the shape of documents that are not invoices', async () => {
    expect((await validate(loadEnvelope('es-payment-with-tax.json'))).status).toBe('OK');
    const payment = loadEnvelope('es-payment-with-tax.json');
    delete payment.doc.supplier;
    const result = await validate(payment);
    expect(result.status).toBe('KO');
    expect(result.faults?.every((f) => f.provider === 'silo')).toBe(true);
  });

  it('refuses unknown config keys', async () => {
    expect(goblValidate.config.safeParse({ strict: true }).success).toBe(false);
    expect(goblValidate.config.parse({})).toEqual({ arithmetic: true });
  });
});
