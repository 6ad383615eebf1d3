import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { correctInvoice, correctionOptionsSchema } from '../../../src-main/core/gobl/correct/index.ts';
import { BuildError } from '../../../src-main/core/gobl/engine/types.ts';
import type { Node } from '../../../src-main/core/gobl/engine/types.ts';

const example = (name: string): Node =>
  JSON.parse(readFileSync(new URL(`../../fixtures/gobl/examples/out/${name}.json`, import.meta.url), 'utf8'));

const NOW = new Date('2026-07-10T23:30:00Z');

function faultsOf(run: () => unknown): Array<{ code: string; paths: string[]; message: string }> {
  try {
    run();
  } catch (error) {
    if (error instanceof BuildError) return error.faults;
    throw error;
  }
  throw new Error('expected a BuildError');
}

describe('correctInvoice', () => {
  it('turns a stored ES invoice into a credit note that points back at it', () => {
    const env = example('es-invoice-es-de-tbai-reverse-charge');
    const original = env.doc;
    const note = correctInvoice(env, { type: 'credit-note', reason: 'Returned goods', ext: { 'es-tbai-correction': 'R1' } }, NOW);

    expect(note.type).toBe('credit-note');
    expect(note.preceding).toEqual([{
      uuid: original.uuid,
      type: 'standard',
      issue_date: original.issue_date,
      series: 'RC',
      code: '0001',
      reason: 'Returned goods',
      ext: { 'es-tbai-correction': 'R1' },
    }]);
    // A new identity, today's date (UTC), no code yet; GOBL keeps the series unless told otherwise.
    expect(note.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(note.uuid).not.toBe(original.uuid);
    expect(note.issue_date).toBe('2026-07-10');
    expect(note.code).toBeUndefined();
    expect(note.series).toBe('RC');
    // Positive amounts kept; totals left for the build to recalculate.
    expect(note.lines).toEqual(original.lines);
    expect(note.totals).toBeUndefined();
    // The stored envelope is not touched.
    expect(env.doc.type).toBe('standard');
    expect(env.doc.preceding).toBeUndefined();
  });

  it('refuses a TicketBAI correction without es-tbai-correction, with GOBL\'s rule code, and accepts it with one', () => {
    const env = example('es-invoice-es-de-tbai-reverse-charge');
    const faults = faultsOf(() => correctInvoice(env, { type: 'credit-note' }, NOW));
    expect(faults).toEqual([expect.objectContaining({
      code: 'GOBL-ES-TBAI-BILL-INVOICE-06',
      paths: ['$.options.ext.es-tbai-correction'],
    })]);
    expect(correctInvoice(env, { type: 'credit-note', ext: { 'es-tbai-correction': 'R4' } }, NOW).preceding[0].ext)
      .toEqual({ 'es-tbai-correction': 'R4' });
  });

  it('requires the FacturaE correction code only through the addon that asks for it', () => {
    const facturae = example('es-invoice-es-es');
    expect(faultsOf(() => correctInvoice(facturae, { type: 'corrective' }, NOW))[0].code).toBe('GOBL-ES-FACTURAE-BILL-INVOICE-06');
    const note = correctInvoice(facturae, { type: 'corrective', ext: { 'es-facturae-correction': '01' } }, NOW);
    expect(note.preceding[0]).toMatchObject({ code: 'SAMPLE-001', issue_date: '2022-02-01', ext: { 'es-facturae-correction': '01' } });
    expect(note.preceding[0].series).toBeUndefined();
  });

  it('refuses a type the regime does not allow', () => {
    const faults = faultsOf(() => correctInvoice(example('de-invoice-de-de-stnr'), { type: 'debit-note' }, NOW));
    expect(faults).toEqual([expect.objectContaining({ code: 'correction-type-not-allowed', paths: ['$.options.type'] })]);
    expect(faults[0].message).toContain('credit-note');
    expect(correctInvoice(example('de-invoice-de-de-stnr'), { type: 'credit-note' }, NOW).type).toBe('credit-note');
  });

  it('refuses a missing type, a document without a code and documents that are not invoices', () => {
    const env = example('de-invoice-de-de-stnr');
    expect(faultsOf(() => correctInvoice(env, {}, NOW))[0].code).toBe('correction-type-required');
    const noCode = structuredClone(env);
    delete noCode.doc.code;
    expect(faultsOf(() => correctInvoice(noCode, { type: 'credit-note' }, NOW))[0].code).toBe('correction-code-required');
    expect(faultsOf(() => correctInvoice(example('es-order'), { type: 'credit-note' }, NOW))[0].code).toBe('not-correctable');
    expect(faultsOf(() => correctInvoice(env, { type: 'credit-note', issue_date: '2026-02-30' }, NOW))[0].paths).toEqual(['$.options.issue_date']);
  });

  it('reads the legacy credit/debit flags the Invopop API still documents', () => {
    expect(correctInvoice(example('de-invoice-de-de-stnr'), { credit: true }, NOW).type).toBe('credit-note');
    expect(faultsOf(() => correctInvoice(example('de-invoice-de-de-stnr'), { debit: true }, NOW))[0].code).toBe('correction-type-not-allowed');
  });

  it('takes the issue date and series from the options', () => {
    const note = correctInvoice(example('de-invoice-de-de-stnr'), { type: 'credit-note', issue_date: '2026-01-31', series: 'CN' }, NOW);
    expect(note.issue_date).toBe('2026-01-31');
    expect(note.series).toBe('CN');
    expect(note.preceding[0].series).toBe('SAMPLE');
  });

  it('requires the IT ticket stamp and copies it from the original envelope head', () => {
    const env = example('it-b2c-ticket');
    const faults = faultsOf(() => correctInvoice(env, { type: 'corrective' }, NOW));
    expect(faults).toEqual([expect.objectContaining({ code: 'correction-stamp-required', message: 'missing stamp: ade-ref' })]);

    const stamped = { ...env, head: { ...env.head, stamps: [{ prv: 'other', val: 'x' }, { prv: 'ade-ref', val: 'DCW2024/1234-5678' }] } };
    const note = correctInvoice(stamped, { type: 'corrective' }, NOW);
    expect(note.preceding[0].stamps).toEqual([{ prv: 'ade-ref', val: 'DCW2024/1234-5678' }]);
    // Stamps in the options replace the head's, as GOBL's JSON decoding does.
    expect(faultsOf(() => correctInvoice(stamped, { type: 'corrective', stamps: [{ prv: 'other', val: 'y' }] }, NOW))[0].code)
      .toBe('correction-stamp-required');
  });

  it('routes the VeriFactu doc type to the invoice and copies the tax totals when asked', () => {
    const env = example('es-invoice-es-es-verifactu');
    const note = correctInvoice(env, { type: 'credit-note', copy_tax: true, ext: { 'es-verifactu-doc-type': 'R2' } }, NOW);
    expect(note.tax.ext['es-verifactu-doc-type']).toBe('R2');
    expect(note.preceding[0].ext).toBeUndefined();
    expect(note.preceding[0].tax).toEqual(env.doc.totals.taxes);
    expect(correctInvoice(env, { type: 'credit-note' }, NOW).preceding[0].tax).toBeUndefined();
  });

  it('keeps the original ARCA tax extensions on the reference and sets the new doc type', () => {
    const env = example('ar-invoice-ar-arca-services');
    const note = correctInvoice(env, { type: 'credit-note', ext: { 'ar-arca-doc-type': '3' } }, NOW);
    expect(note.preceding[0].ext).toEqual({ 'ar-arca-concept': '2', 'ar-arca-doc-type': '1' });
    expect(note.tax.ext['ar-arca-doc-type']).toBe('3');
  });

  it('requires a reason where an addon says so (CO DIAN)', () => {
    const env = example('co-simplified-id');
    const codes = faultsOf(() => correctInvoice(env, { type: 'credit-note' }, NOW)).map((f) => f.code);
    expect(codes).toContain('correction-reason-required');
    expect(codes).toContain('correction-stamp-required');
  });
});

describe('correctionOptionsSchema', () => {
  const optionsOf = (schema: Node | null): Node => schema!.$defs['bill.CorrectionOptions'];

  it('lists the regime\'s types, defaults to the first and to the invoice\'s series', () => {
    const schema = correctionOptionsSchema(example('es-invoice-es-de-tbai-reverse-charge'))!;
    expect(schema.$id).toBe('https://gobl.org/draft-0/bill/correction-options?tax_regime=es');
    expect(schema.$comment).toBe('Generated dynamically for es');
    const opts = optionsOf(schema);
    expect(opts.properties.type.oneOf.map((c: Node) => c.const)).toEqual(['credit-note', 'corrective', 'debit-note']);
    expect(opts.properties.type.oneOf[0].title).toBe('Credit Note');
    expect(opts.properties.type.default).toBe('credit-note');
    expect(opts.properties.series.default).toBe('RC');
    expect(opts.required).toEqual(['type']);
    expect(opts.recommended).toEqual(['series', 'ext']);
  });

  it('describes the addon extensions with their allowed codes', () => {
    const ext = optionsOf(correctionOptionsSchema(example('es-invoice-es-de-tbai-reverse-charge'))).properties.ext;
    expect(ext.type).toBe('object');
    expect(ext.$ref).toBeUndefined();
    expect(ext.recommended).toEqual(['es-tbai-correction']);
    expect(ext.properties['es-tbai-correction'].title).toBe('TicketBAI Rectification Type Code');
    expect(ext.properties['es-tbai-correction'].oneOf.map((c: Node) => c.const)).toEqual(['R1', 'R2', 'R3', 'R4', 'R5']);
  });

  it('merges addon types, requirements and copy_tax', () => {
    const it = optionsOf(correctionOptionsSchema(example('it-b2c-ticket')));
    expect(it.properties.type.oneOf.map((c: Node) => c.const)).toEqual(['credit-note', 'debit-note', 'corrective']);
    expect(it.properties.ext).toBeUndefined();
    const co = optionsOf(correctionOptionsSchema(example('co-simplified-id')));
    expect(co.required).toEqual(['type', 'reason']);
    const vf = optionsOf(correctionOptionsSchema(example('es-invoice-es-es-verifactu')));
    expect(vf.recommended).toEqual(['series', 'ext', 'copy_tax']);
  });

  it('answers nothing for documents GOBL cannot correct', () => {
    expect(correctionOptionsSchema(example('es-order'))).toBeNull();
  });
});
