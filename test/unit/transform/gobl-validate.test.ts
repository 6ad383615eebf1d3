import { describe, expect, it } from 'vitest';
import type { StepContext, StepResult } from '../../../src-main/core/transform/provider.ts';
import { digestOf } from '../../../src-main/core/gobl/canonical.ts';
import { goblValidate } from '../../../src-main/core/transform/providers/gobl-validate.ts';
import { loadEnvelope } from '../../fixtures/gobl/load.ts';

// The provider only reads the entry's envelope.
function contextFor(envelope: unknown): StepContext {
  const entry = { envelope, state: 'draft', folder: 'invoices', tags: [], signed: false, version: 1 };
  return { entry: async () => entry } as unknown as StepContext;
}

/** Validates as the silo hands envelopes over: an unsigned one's head.dig always matches its document. */
async function validate(envelope: any, config: unknown = {}): Promise<StepResult> {
  envelope.head.dig = digestOf(envelope.doc);
  return goblValidate.run(contextFor(envelope), goblValidate.config.parse(config));
}

describe('gobl.validate', async () => {
  it('is OK (valid) for a document as GOBL builds it', async () => {
    expect(await validate(loadEnvelope('es-invoice-es-es-freelance.json'))).toEqual({ status: 'OK', code: 'valid', message: 'no faults' });
    expect((await validate(loadEnvelope('es-payment-with-tax.json'))).status).toBe('OK');
  });

  it('is KO (invalid) with each figure GOBL calculates differently, stated and calculated', async () => {
    const envelope = loadEnvelope('es-invoice-es-es-freelance.json');
    envelope.doc.lines[0].quantity = '21';
    const result = await validate(envelope);
    expect(result.status).toBe('KO');
    expect(result.code).toBe('invalid');
    expect(result.message).toMatch(/^17 faults; first at \$\.doc\.lines\[0\]\.sum: stated 1800\.00, calculated 1890\.00$/);
    expect(result.faults).toContainEqual(expect.objectContaining({
      code: 'calculation', provider: 'gobl.validate', paths: ['$.doc.lines[0].sum'], stated: '1800.00', calculated: '1890.00',
    }));
  });

  it("reports GOBL's schema and rule faults together with the figures", async () => {
    const envelope = loadEnvelope('es-invoice-es-es.json');
    delete envelope.doc.supplier;
    envelope.doc.totals.payable = '1.00';
    const result = await validate(envelope);
    expect(result.status).toBe('KO');
    const paths = result.faults!.flatMap((f) => f.paths);
    expect(paths).toContain('$.doc.totals.payable');
    expect(paths.some((p) => p.startsWith('$.doc.supplier'))).toBe(true);
    expect(result.faults!.every((f) => f.provider === 'gobl.validate')).toBe(true);
  });

  it('leaves the figures alone when arithmetic is turned off', async () => {
    const envelope = loadEnvelope('es-invoice-es-es.json');
    envelope.doc.totals.payable = '1.00';
    expect((await validate(envelope)).status).toBe('KO');
    expect((await validate(envelope, { arithmetic: false })).status).toBe('OK');
  });

  it('refuses unknown config keys', async () => {
    expect(goblValidate.config.safeParse({ strict: true }).success).toBe(false);
    expect(goblValidate.config.parse({})).toEqual({ arithmetic: true });
  });
});
