// GOBL's rule sets applied to broken copies of GOBL-built envelopes: the right assertion ids at
// the right JSON paths, regime and addon sets only where they belong, GOBL's fault merging.
import { describe, expect, it } from 'vitest';
import { MAX_FAULTS, TOO_MANY_FAULTS, validateDocument } from '../../../src-main/core/gobl/validate/index.ts';
import type { EngineFault } from '../../../src-main/core/gobl/engine/types.ts';
import { loadEnvelope } from '../../fixtures/gobl/load.ts';

const ES = 'es-invoice-es-es.json';

// The digest is trusted so that each test sees only the faults of its own mutation.
function faultsAfter(file: string, mutate: (envelope: any) => void): EngineFault[] {
  const envelope = loadEnvelope(file);
  mutate(envelope);
  return validateDocument(envelope, { trustDigest: true });
}

function find(faults: EngineFault[], code: string): EngineFault | undefined {
  return faults.find((f) => f.code === code);
}

describe('package rules (bill, tax, org…)', () => {
  it('a missing supplier name is GOBL-BILL-INVOICE-06 at the name', () => {
    const faults = faultsAfter(ES, (e) => delete e.doc.supplier.name);
    expect(find(faults, 'GOBL-BILL-INVOICE-06')).toEqual({
      code: 'GOBL-BILL-INVOICE-06',
      message: 'invoice supplier name is required',
      paths: ['$.doc.supplier.name'],
    });
  });

  it('lines without prices share one fault listing every path, as GOBL merges them', () => {
    const faults = faultsAfter(ES, (e) => e.doc.lines.forEach((l: any) => delete l.item.price));
    expect(find(faults, 'GOBL-BILL-INVOICE-08')?.paths).toEqual(['$.doc.lines[0].item.price', '$.doc.lines[1].item.price']);
  });

  it('a percent on an exempt VAT key is GOBL-TAX-COMBO-04 on the combo', () => {
    const faults = faultsAfter(ES, (e) => (e.doc.lines[0].taxes[0] = { cat: 'VAT', key: 'exempt', percent: '21%' }));
    expect(find(faults, 'GOBL-TAX-COMBO-04')?.paths).toEqual(['$.doc.lines[0].taxes[0]']);
  });

  it('an unknown tax category for the regime is GOBL-TAX-COMBO-01', () => {
    const faults = faultsAfter(ES, (e) => (e.doc.lines[0].taxes[0].cat = 'NOPE'));
    expect(find(faults, 'GOBL-TAX-COMBO-01')?.paths).toEqual(['$.doc.lines[0].taxes[0]']);
  });

  it('an invalid invoice type fails the list test, and an absent one both tests', () => {
    expect(find(faultsAfter(ES, (e) => (e.doc.type = 'bogus')), 'GOBL-BILL-INVOICE-02')?.paths).toEqual(['$.doc.type']);
    const absent = faultsAfter(ES, (e) => delete e.doc.type).map((f) => f.code);
    expect(absent).toEqual(expect.arrayContaining(['GOBL-BILL-INVOICE-01', 'GOBL-BILL-INVOICE-02']));
  });

  it('a key with capitals fails cbc.Key rules wherever a key is, even as a map key', () => {
    const faults = faultsAfter(ES, (e) => (e.doc.lines[0].taxes[0].ext = { 'Bad-Key': 'x' }));
    expect(find(faults, 'GOBL-CBC-KEY-02')?.paths).toEqual(["$.doc.lines[0].taxes[0].ext['Bad-Key']"]);
    expect(find(faults, 'GOBL-TAX-COMBO-06')?.paths).toEqual(['$.doc.lines[0].taxes[0]']);
  });

  it('a wrong digest is GOBL-ENVELOPE-11 unless the caller vouches for it', () => {
    const envelope = loadEnvelope(ES);
    envelope.doc.code = 'CHANGED';
    expect(find(validateDocument(envelope), 'GOBL-ENVELOPE-11')?.paths).toEqual(['$']);
    expect(find(validateDocument(envelope, { trustDigest: true }), 'GOBL-ENVELOPE-11')).toBeUndefined();
  });

  it('codes listed in head.ignore are not reported', () => {
    const faults = faultsAfter(ES, (e) => {
      delete e.doc.supplier.name;
      e.head.ignore = ['GOBL-BILL-INVOICE-06'];
    });
    expect(find(faults, 'GOBL-BILL-INVOICE-06')).toBeUndefined();
  });
});

describe('regime rules', () => {
  it('a malformed Spanish tax code is GOBL-ES-TAX-IDENTITY-01', () => {
    const faults = faultsAfter(ES, (e) => (e.doc.supplier.tax_id.code = 'B98602643'));
    expect(find(faults, 'GOBL-ES-TAX-IDENTITY-01')).toEqual({
      code: 'GOBL-ES-TAX-IDENTITY-01',
      message: 'invalid Spanish VAT identity code format or checksum',
      paths: ['$.doc.supplier.tax_id.code'],
    });
  });

  it('a tax identity is checked by its country, whatever the document regime', () => {
    const faults = faultsAfter('fr-invoice-fr-fr.json', (e) => (e.doc.customer.tax_id = { country: 'ES', code: 'X1234567A' }));
    expect(find(faults, 'GOBL-ES-TAX-IDENTITY-01')?.paths).toEqual(['$.doc.customer.tax_id.code']);
  });

  it('regime sets apply only under their regime', () => {
    const es = faultsAfter(ES, (e) => delete e.doc.supplier.tax_id.code).map((f) => f.code);
    expect(es).toContain('GOBL-ES-BILL-INVOICE-03');
    const fr = faultsAfter('fr-invoice-fr-fr.json', (e) => delete e.doc.supplier.tax_id.code).map((f) => f.code);
    expect(fr).not.toContain('GOBL-ES-BILL-INVOICE-03');
    expect(fr).toContain('GOBL-FR-BILL-INVOICE-01');
  });
});

describe('addon rules', () => {
  it("a missing ext an addon requires is its 'ext require' fault on the ext map", () => {
    const faults = faultsAfter('es-invoice-es-es-verifactu.json', (e) => delete e.doc.tax.ext['es-verifactu-doc-type']);
    expect(find(faults, 'GOBL-ES-VERIFACTU-BILL-INVOICE-10')?.paths).toEqual(['$.doc.tax.ext']);
  });

  it('addon sets apply only to documents listing the addon', () => {
    const faults = faultsAfter(ES, (e) => (e.doc.tax = { ext: {} })).map((f) => f.code);
    expect(faults.some((c) => c.startsWith('GOBL-ES-VERIFACTU'))).toBe(false);
  });

  it('XRechnung asks for a supplier telephone and first-address locality', () => {
    const faults = faultsAfter('de-invoice-de-es-xr.json', (e) => {
      delete e.doc.supplier.telephones;
      e.doc.supplier.addresses[0].locality = '';
    });
    expect(find(faults, 'GOBL-DE-XRECHNUNG-BILL-INVOICE-09')?.paths).toEqual(['$.doc.supplier']);
    expect(find(faults, 'GOBL-DE-XRECHNUNG-BILL-INVOICE-06')?.paths).toEqual(['$.doc.supplier.addresses']);
  });

  it('an Italian receipt accepts only the VAT percents the receipts system knows', () => {
    const faults = faultsAfter('it-b2c-ticket.json', (e) => {
      e.doc.lines[0].taxes[0] = { cat: 'VAT', key: 'standard', percent: '23%' };
    });
    expect(find(faults, 'GOBL-IT-TICKET-TAX-COMBO-02')?.paths).toEqual(['$.doc.lines[0].taxes[0].percent']);
  });
});

describe('envelope and document level', () => {
  it('an unknown document $schema is reported by the schema check and by GOBL-ENVELOPE-04', () => {
    const faults = faultsAfter(ES, (e) => (e.doc.$schema = 'https://gobl.org/draft-0/bill/unknown'));
    expect(find(faults, 'schema-unknown')?.paths).toEqual(['$.doc.$schema']);
    expect(find(faults, 'GOBL-ENVELOPE-04')?.paths).toEqual(['$.doc']);
  });

  it('a bare document has paths from its own root', () => {
    const doc = loadEnvelope(ES).doc;
    delete doc.supplier.name;
    expect(find(validateDocument(doc), 'GOBL-BILL-INVOICE-06')?.paths).toEqual(['$.supplier.name']);
    expect(validateDocument(doc, { docPath: '$.doc' })).toEqual([
      { code: 'GOBL-BILL-INVOICE-06', message: 'invoice supplier name is required', paths: ['$.doc.supplier.name'] },
    ]);
  });

  it(`stops at ${MAX_FAULTS} faults with a final too-many-faults`, () => {
    const faults = faultsAfter(ES, (e) => {
      // schema faults are one per path (rule faults with one code would merge into one)
      const line = e.doc.lines[0];
      e.doc.lines = Array.from({ length: 150 }, () => ({ ...line, quantity: 1 }));
    });
    expect(faults).toHaveLength(MAX_FAULTS + 1);
    expect(faults[MAX_FAULTS].code).toBe(TOO_MANY_FAULTS);
  });
});
