import { describe, expect, it } from 'vitest';
import { SEARCH_TEXT_MAX_BYTES, searchTextOf } from '../../../src-main/core/gobl/search-text.ts';
import { loadEnvelope, loadEnvelopes } from '../../fixtures/gobl/load.ts';

describe('searchTextOf', () => {
  const doc = loadEnvelope('es-invoice-es-es.json').doc;

  it('contains the names, codes, tax ids, addresses and amounts people search for', () => {
    const text = searchTextOf(doc);
    for (const word of ['Provide One S.L.', 'Sample Consumer', 'SAMPLE-001', 'B98602642', '54387763P', 'Calle Pradillo', 'billing@example.com', 'Development services', '1970.20']) {
      expect(text).toContain(word);
    }
  });

  it('leaves out the schema URI and UUIDs', () => {
    const text = searchTextOf(doc);
    expect(text).not.toContain('gobl.org');
    expect(text).not.toContain(doc.uuid);
  });

  it('is the same for the same document and collapses whitespace', () => {
    expect(searchTextOf(structuredClone(doc))).toBe(searchTextOf(doc));
    expect(searchTextOf({ notes: [{ text: '  Pay\n\nwithin   30 days ' }] })).toBe('Pay within 30 days');
  });

  it('lists each distinct value once', () => {
    expect(searchTextOf({ a: 'Madrid', b: { c: 'Madrid', d: 'Spain' } })).toBe('Madrid Spain');
  });

  it('skips digests and embedded binary', () => {
    const text = searchTextOf({ name: 'Logo', data: 'A'.repeat(5000), digest: { alg: 'sha256', val: 'ab'.repeat(32) } });
    expect(text).toBe('Logo sha256');
  });

  it('caps the text at 32 KB of UTF-8', () => {
    const huge = { lines: Array.from({ length: 5000 }, (_, i) => ({ item: { name: `Servicio número ${i} — ñandú` } })) };
    const text = searchTextOf(huge);
    expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(SEARCH_TEXT_MAX_BYTES);
    expect(Buffer.byteLength(text, 'utf8')).toBeGreaterThan(SEARCH_TEXT_MAX_BYTES - 100);
    expect(text.startsWith('Servicio número 0 — ñandú')).toBe(true);
  });

  it('gives every fixture some text containing its supplier name', () => {
    for (const { file, envelope } of loadEnvelopes()) {
      const name = envelope.doc.supplier?.name;
      if (name) expect(searchTextOf(envelope.doc), file).toContain(name);
    }
  });
});
