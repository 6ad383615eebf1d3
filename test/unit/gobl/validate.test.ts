import { describe, expect, it } from 'vitest';
import { docTypeOf, knownDocSchemas, validateEnvelope } from '../../../src-main/core/gobl/validate.ts';
import { wrapDocument } from '../../../src-main/core/gobl/wrap.ts';
import { loadEnvelope, loadEnvelopes } from '../../fixtures/gobl/load.ts';

const invoiceFile = 'es-invoice-es-es.json';

// Builds an invalid envelope from a fixture and returns its faults.
function faultsAfter(mutate: (envelope: any) => void, file = invoiceFile) {
  const envelope = loadEnvelope(file);
  mutate(envelope);
  return validateEnvelope(envelope);
}

describe('validateEnvelope on the GOBL fixtures', () => {
  it.each(loadEnvelopes().map((f) => [f.file, f.envelope] as const))('%s has no faults', (_file, envelope) => {
    expect(validateEnvelope(envelope)).toEqual([]);
  });
});

describe('validateEnvelope on broken invoices', () => {
  it('reports a missing supplier as required', () => {
    expect(faultsAfter((e) => delete e.doc.supplier)).toEqual([
      { code: 'required', message: 'is required', provider: 'silo', path: '$.doc.supplier' },
    ]);
  });

  it('treats a null required member as missing', () => {
    expect(faultsAfter((e) => (e.doc.totals = null))).toEqual([
      { code: 'required', message: 'is required', provider: 'silo', path: '$.doc.totals' },
    ]);
  });

  it('accepts null for optional members (the digest ignores them)', () => {
    expect(faultsAfter((e) => (e.doc.customer = null))).toEqual([]);
  });

  it('reports a date not written as YYYY-MM-DD', () => {
    const faults = faultsAfter((e) => (e.doc.issue_date = '01/02/2022'));
    expect(faults).toHaveLength(1);
    expect(faults[0]).toMatchObject({ code: 'invalid-format', path: '$.doc.issue_date', provider: 'silo' });
  });

  it('reports an impossible calendar date', () => {
    expect(faultsAfter((e) => (e.doc.issue_date = '2022-02-30'))[0]).toMatchObject({ code: 'invalid-format', path: '$.doc.issue_date' });
  });

  it('tells a malformed currency code from an unknown one', () => {
    expect(faultsAfter((e) => (e.doc.currency = 'eur'))).toMatchObject([{ code: 'invalid-format', path: '$.doc.currency' }]);
    expect(faultsAfter((e) => (e.doc.currency = 'EUX'))).toMatchObject([{ code: 'invalid-value', path: '$.doc.currency' }]);
  });

  it('reports an amount given as a JSON number instead of a decimal string', () => {
    expect(faultsAfter((e) => (e.doc.totals.payable = 1970.2))).toMatchObject([{ code: 'invalid-type', path: '$.doc.totals.payable' }]);
    expect(faultsAfter((e) => (e.doc.lines[0].quantity = 20))).toMatchObject([{ code: 'invalid-type', path: '$.doc.lines[0].quantity' }]);
  });

  it('reports a percentage without its % sign', () => {
    expect(faultsAfter((e) => (e.doc.lines[0].taxes[0].percent = '21'))).toMatchObject([
      { code: 'invalid-format', path: '$.doc.lines[0].taxes[0].percent' },
    ]);
  });

  it('reports lines that are not a list', () => {
    expect(faultsAfter((e) => (e.doc.lines = { i: 1 }))).toMatchObject([{ code: 'invalid-type', path: '$.doc.lines' }]);
  });

  it('reports a line missing its item, with the index in the path', () => {
    expect(faultsAfter((e) => delete e.doc.lines[1].item)).toMatchObject([{ code: 'required', path: '$.doc.lines[1].item' }]);
  });

  it('reports an invoice type outside the enumeration', () => {
    expect(faultsAfter((e) => (e.doc.type = 'invoice'))).toMatchObject([{ code: 'invalid-value', path: '$.doc.type' }]);
  });

  it('reports a country code that does not exist', () => {
    expect(faultsAfter((e) => (e.doc.supplier.addresses[0].country = 'XX'))).toMatchObject([
      { code: 'invalid-value', path: '$.doc.supplier.addresses[0].country' },
    ]);
  });

  it('reports an extension key that is not a GOBL key, quoting it in the path', () => {
    expect(faultsAfter((e) => (e.doc.tax.ext['Doc Type'] = 'FC'))).toMatchObject([
      { code: 'invalid-key', path: "$.doc.tax.ext['Doc Type']" },
    ]);
  });

  it('reports several faults at once, one per path', () => {
    const faults = faultsAfter((e) => {
      delete e.doc.supplier;
      e.doc.code = '';
      e.doc.currency = 5;
    });
    expect(faults.map((f) => `${f.code} ${f.path}`).sort()).toEqual([
      'invalid-type $.doc.currency',
      'required $.doc.supplier',
      'too-short $.doc.code',
    ]);
  });

  it('accepts properties it does not know (newer GOBL releases)', () => {
    expect(faultsAfter((e) => {
      e.doc.future_field = { anything: 1 };
      e.doc.supplier.future = 'x';
      e.head.future = true;
    })).toEqual([]);
  });

  it('caps the number of faults for a document broken everywhere', () => {
    const faults = faultsAfter((e) => {
      e.doc.lines = Array.from({ length: 300 }, () => ({ i: 'x' }));
    });
    expect(faults).toHaveLength(101);
    expect(faults.at(-1)).toMatchObject({ code: 'too-many-faults', path: '$' });
  });
});

describe('validateEnvelope on the envelope itself', () => {
  it('reports a document without $schema', () => {
    expect(faultsAfter((e) => delete e.doc.$schema)).toEqual([
      { code: 'required', message: 'is required', provider: 'silo', path: '$.doc.$schema' },
    ]);
  });

  it('reports a missing header uuid and digest', () => {
    expect(faultsAfter((e) => {
      delete e.head.uuid;
      delete e.head.dig.val;
    })).toMatchObject([
      { code: 'required', path: '$.head.uuid' },
      { code: 'required', path: '$.head.dig.val' },
    ]);
  });

  it('reports a header uuid that is not a UUID', () => {
    expect(faultsAfter((e) => (e.head.uuid = 'abc'))).toMatchObject([{ code: 'invalid-format', path: '$.head.uuid' }]);
  });

  it('checks that signatures are compact JWS strings', () => {
    expect(faultsAfter((e) => (e.sigs = ['eyJhbGciOiJFUzI1NiJ9.eyJ1dWlkIjoiIn0.c2ln']))).toEqual([]);
    expect(faultsAfter((e) => (e.sigs = ['not a jws']))).toMatchObject([{ code: 'invalid-format', path: '$.sigs[0]' }]);
    expect(faultsAfter((e) => (e.sigs = 'x'))).toMatchObject([{ code: 'invalid-type', path: '$.sigs' }]);
  });

  it('rejects anything that is not an envelope', () => {
    expect(validateEnvelope('text')).toMatchObject([{ code: 'invalid-type', path: '$' }]);
    expect(validateEnvelope(null)).toMatchObject([{ code: 'invalid-type', path: '$' }]);
    expect(validateEnvelope({ $schema: 'https://gobl.org/draft-0/bill/invoice' })).toMatchObject([
      { code: 'invalid-value', path: '$.$schema' },
      { code: 'required', path: '$.head' },
      { code: 'required', path: '$.doc' },
    ]);
  });

  it('checks only the envelope of document types it does not know', () => {
    expect(faultsAfter((e) => delete e.doc.supplier, 'es-order.json')).toEqual([]);
    expect(faultsAfter((e) => {
      e.doc.$schema = 'https://example.com/custom/thing';
      e.doc.anything = 1;
    })).toEqual([]);
    expect(faultsAfter((e) => delete e.head.dig, 'es-status-update.json')).toMatchObject([{ code: 'required', path: '$.head.dig' }]);
  });
});

describe('validateEnvelope on payments, parties and messages', () => {
  it('reports a payment without methods', () => {
    expect(faultsAfter((e) => delete e.doc.methods, 'es-payment-with-tax.json')).toMatchObject([
      { code: 'required', path: '$.doc.methods' },
    ]);
  });

  it('reports a payment line amount given as a number', () => {
    expect(faultsAfter((e) => (e.doc.lines[0].amount = 1972.3), 'es-payment-with-tax.json')).toMatchObject([
      { code: 'invalid-type', path: '$.doc.lines[0].amount' },
    ]);
  });

  it('validates a party document built from an invoice supplier', () => {
    const supplier = loadEnvelope(invoiceFile).doc.supplier;
    const party = { $schema: 'https://gobl.org/draft-0/org/party', ...supplier };
    expect(validateEnvelope(wrapDocument(party, '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b'))).toEqual([]);
    party.tax_id = { code: 'B98602642' };
    expect(validateEnvelope(wrapDocument(party, '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b'))).toMatchObject([
      { code: 'required', path: '$.doc.tax_id.country' },
    ]);
  });

  it('validates a message document', () => {
    const uuid = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
    const message = { $schema: 'https://gobl.org/draft-0/note/message', title: 'Hello', content: 'Please pay.' };
    expect(validateEnvelope(wrapDocument(message, uuid))).toEqual([]);
    expect(validateEnvelope(wrapDocument({ $schema: message.$schema, title: 'Hello' }, uuid))).toMatchObject([
      { code: 'required', path: '$.doc.content' },
    ]);
  });
});

describe('document types', () => {
  it('lists the schemas whose documents are validated', () => {
    expect([...knownDocSchemas].sort()).toEqual([
      'https://gobl.org/draft-0/bill/invoice',
      'https://gobl.org/draft-0/bill/payment',
      'https://gobl.org/draft-0/note/message',
      'https://gobl.org/draft-0/org/party',
    ]);
  });

  it('names a document type from its schema URI', () => {
    expect(docTypeOf('https://gobl.org/draft-0/bill/invoice')).toBe('bill/invoice');
    expect(docTypeOf('https://gobl.org/draft-0/bill/delivery')).toBe('bill/delivery');
    expect(docTypeOf('https://example.com/bill/invoice')).toBeUndefined();
    expect(docTypeOf(undefined)).toBeUndefined();
  });
});
