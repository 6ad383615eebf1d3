import { describe, expect, it } from 'vitest';
import { mentionsOf } from '../../../src-main/core/gobl/mentions.ts';
import { loadEnvelope, loadEnvelopes } from '../../fixtures/gobl/load.ts';

describe('mentionsOf', () => {
  it('finds the preceding invoice of a credit note', () => {
    expect(mentionsOf(loadEnvelope('gr-credit-note.json').doc)).toEqual([
      { uuid: '01909263-09c2-7000-8ac8-a83478ac96f5', context: 'preceding' },
    ]);
  });

  it('finds the invoice a payment pays, under lines.document', () => {
    expect(mentionsOf(loadEnvelope('es-payment-with-tax.json').doc)).toEqual([
      { uuid: '3aea7b56-59d8-4beb-90bd-f8f280d852a0', context: 'lines.document' },
    ]);
  });

  it('does not report the document\'s own uuid', () => {
    const doc = loadEnvelope('es-invoice-es-es.json').doc;
    expect(doc.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(mentionsOf(doc)).toEqual([]);
  });

  it('drops array indices and a final uuid key, lowercases and deduplicates', () => {
    const doc = loadEnvelope('es-invoice-es-es.json').doc;
    const a = '0190A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B';
    const b = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';
    doc.preceding = [{ uuid: a, code: 'X-1' }, { uuid: a.toLowerCase(), code: 'X-1' }];
    doc.lines[1].item.uuid = b;
    doc.lines.push({ ...doc.lines[1], i: 3 });
    doc.documents = [{ uuid: b }];
    doc.meta = { 'source-id': a };
    // In document order: `lines` exists already, the other members are appended.
    expect(mentionsOf(doc)).toEqual([
      { uuid: b, context: 'lines.item' },
      { uuid: a.toLowerCase(), context: 'preceding' },
      { uuid: b, context: 'documents' },
      { uuid: a.toLowerCase(), context: 'meta.source-id' },
    ]);
  });

  it('ignores strings that only look like part of a UUID', () => {
    expect(mentionsOf({ code: '0190a1b2-c3d4-7e5f-8a9b', note: 'ref 0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b' })).toEqual([]);
  });

  it('finds nothing in the fixtures besides the two known references', () => {
    const withMentions = loadEnvelopes().filter((f) => mentionsOf(f.envelope.doc).length > 0).map((f) => f.file);
    expect(withMentions).toEqual(['es-payment-with-tax.json', 'gr-credit-note.json']);
  });
});
