// Validation against GOBL's JSON Schemas, and the Go → JavaScript pattern translation they need.
import { describe, expect, it } from 'vitest';
import { goRegExp, translateGoPattern } from '../../../src-main/core/gobl/validate/go-regexp.ts';
import { isKnownSchema, schemaFaults } from '../../../src-main/core/gobl/validate/schema.ts';
import { loadEnvelope } from '../../fixtures/gobl/load.ts';

function faultsAfter(mutate: (envelope: any) => void) {
  const envelope = loadEnvelope('es-invoice-es-es.json');
  mutate(envelope);
  return schemaFaults(envelope);
}

describe('Go patterns', () => {
  it('translates what JavaScript reads differently', () => {
    expect(translateGoPattern('(?P<n>\\d+)').source).toBe('(?<n>\\d+)');
    expect(translateGoPattern('^[A-Z\\&]+$').source).toBe('^[A-Z&]+$');
    expect(translateGoPattern('(?i)^abc$')).toEqual({ source: '^abc$', flags: 'ui' });
  });

  it('keeps \\s ASCII-only, as in Go', () => {
    expect(goRegExp('^\\s$').test('\u00a0')).toBe(false);
    expect(goRegExp('^\\s$').test('\t')).toBe(true);
  });

  it('compiles the Unicode classes GOBL uses', () => {
    expect(goRegExp('^(?:\\p{L}\\p{M}*)+$').test('Ñandú')).toBe(true);
  });
});

describe('schemaFaults', () => {
  it('knows every GOBL document schema', () => {
    expect(isKnownSchema('https://gobl.org/draft-0/bill/invoice')).toBe(true);
    expect(isKnownSchema('https://gobl.org/draft-0/bill/nope')).toBe(false);
  });

  it('reports a wrong type at its JSON path from the envelope root', () => {
    expect(faultsAfter((e) => (e.doc.lines[0].quantity = 12))).toEqual([
      { code: 'schema', message: 'must be string', paths: ['$.doc.lines[0].quantity'] },
    ]);
  });

  it('reports a missing required property at the property', () => {
    expect(faultsAfter((e) => delete e.doc.supplier)).toEqual([
      { code: 'schema', message: 'supplier is required', paths: ['$.doc.supplier'] },
    ]);
  });

  it('accepts only the listed constants (currency codes) and says so once', () => {
    expect(faultsAfter((e) => (e.doc.currency = 'XYZ'))).toEqual([
      { code: 'schema', message: 'is not one of the allowed values', paths: ['$.doc.currency'] },
    ]);
  });

  it('checks civil dates, accepting the zero date GOBL reads as unset', () => {
    expect(faultsAfter((e) => (e.doc.issue_date = '2023-02-30'))[0].paths).toEqual(['$.doc.issue_date']);
    expect(faultsAfter((e) => (e.doc.issue_date = '0000-00-00'))).toEqual([]);
  });

  it('validates the envelope itself and reports an unknown document schema', () => {
    expect(faultsAfter((e) => delete e.head)).toEqual([{ code: 'schema', message: 'head is required', paths: ['$.head'] }]);
    expect(faultsAfter((e) => (e.doc.$schema = 'https://example.com/x'))).toEqual([
      { code: 'schema-unknown', message: 'unknown schema https://example.com/x', paths: ['$.doc.$schema'] },
    ]);
  });

  it('validates a bare document from its own root', () => {
    const doc = loadEnvelope('es-invoice-es-es.json').doc;
    doc.lines[0].quantity = 12;
    expect(schemaFaults(doc)).toEqual([{ code: 'schema', message: 'must be string', paths: ['$.lines[0].quantity'] }]);
    expect(schemaFaults({})).toEqual([{ code: 'schema-unknown', message: 'the document has no $schema', paths: ['$.$schema'] }]);
  });
});
