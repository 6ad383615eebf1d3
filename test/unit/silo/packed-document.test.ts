import { createHash } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_DICTIONARY_1 } from '../../../src-main/core/silo/document-dictionary.ts';
import { documentText, packDocument, packedTextBytes, sameStored } from '../../../src-main/core/silo/packed-document.ts';
import { loadEnvelopes } from '../../fixtures/gobl/load.ts';

const texts = loadEnvelopes().map(({ envelope }) => JSON.stringify(envelope));

describe('a stored document packed', () => {
  it('reads back as the very text for every fixture, at about a third of its size', () => {
    let text = 0;
    let packed = 0;
    for (const t of texts) {
      const stored = packDocument('sqlite', t);
      expect(stored).toBeInstanceOf(Uint8Array);
      expect(documentText(Buffer.from(stored as Uint8Array))).toBe(t);
      text += Buffer.byteLength(t);
      packed += (stored as Uint8Array).length;
    }
    expect(packed / text).toBeLessThan(0.45);
  });

  it('keeps text beyond one byte a character, and a document past 64 KiB', () => {
    const wide = JSON.stringify({ doc: { notes: [{ text: 'Zürich – 東京 – 🧾'.repeat(5000) }] } });
    expect(Buffer.byteLength(wide)).toBeGreaterThan(65536);
    expect(documentText(packDocument('sqlite', wide))).toBe(wide);
  });

  it('is the text itself on PostgreSQL, which compresses long values on its own', () => {
    expect(packDocument('postgres', texts[0])).toBe(texts[0]);
    expect(documentText(texts[0])).toBe(texts[0]);
  });

  it('packs the same text to the same bytes, so an unchanged document is not written again', () => {
    const a = packDocument('sqlite', texts[3]);
    const b = packDocument('sqlite', texts[3]);
    expect(a).not.toBe(b);
    expect(sameStored(a, b)).toBe(true);
    expect(sameStored(a, packDocument('sqlite', texts[4]))).toBe(false);
    expect(sameStored(texts[3], texts[3])).toBe(true);
    expect(sameStored(texts[3], a)).toBe(false);
    expect(sameStored(undefined, a)).toBe(false);
  });

  it('packs to the bytes deflate makes with its default output chunks, whatever the size (the output buffer is smaller: 2 KiB)', () => {
    const dictionary = Buffer.from(DOCUMENT_DICTIONARY_1, 'utf8');
    const big = JSON.stringify({ doc: { notes: Array.from({ length: 400 }, (_, i) => ({ text: createHash('sha256').update(String(i)).digest('hex') })) } });
    for (const t of [...texts, big, '{}']) {
      const bytes = Buffer.from(t, 'utf8');
      const packed = deflateRawSync(bytes, { dictionary, windowBits: 13, memLevel: 5 });
      const header = Buffer.alloc(5);
      header[0] = 1;
      header.writeUInt32BE(bytes.length, 1);
      expect(Buffer.from(packDocument('sqlite', t) as Uint8Array).equals(Buffer.concat([header, packed]))).toBe(true);
    }
    // Past one chunk: random hex packs to far more than 2 KiB.
    expect((packDocument('sqlite', big) as Uint8Array).length).toBeGreaterThan(4096);
  });

  it('refuses bytes it did not make: another format, a cut-off stream, a length that lies', () => {
    const stored = Buffer.from(packDocument('sqlite', texts[1]) as Uint8Array);
    const other = Buffer.from(stored);
    other[0] = 2;
    expect(() => documentText(other)).toThrow(/unknown format 2/);
    expect(() => documentText(stored.subarray(0, 3))).toThrow(/unknown format/);
    expect(() => documentText(stored.subarray(0, stored.length - 20))).toThrow();
    const shorter = Buffer.from(stored);
    shorter.writeUInt32BE(stored.readUInt32BE(1) - 1, 1);
    expect(() => documentText(shorter)).toThrow();
    const longer = Buffer.from(stored);
    longer.writeUInt32BE(stored.readUInt32BE(1) + 1, 1);
    expect(() => documentText(longer)).toThrow(/not the/);
  });

  it('is read with the dictionary it was made with: format 1 never changes', () => {
    // Every document stored as format 1 needs these exact bytes; a new dictionary is a new format.
    expect(createHash('sha256').update(DOCUMENT_DICTIONARY_1).digest('hex')).toBe('0d6ac621643a43adcb5b3e930da738f3a05ed493f40118f9813571086b6ab897');
  });

  it('reads format 1 as any deflate against the whole dictionary made it, as rows packed with the full window were', () => {
    const text = JSON.stringify(loadEnvelopes()[3].envelope);
    const bytes = Buffer.from(text);
    const header = Buffer.from([1, 0, 0, 0, 0]);
    header.writeUInt32BE(bytes.length, 1);
    const fullWindow = Buffer.concat([header, deflateRawSync(bytes, { dictionary: Buffer.from(DOCUMENT_DICTIONARY_1) })]);
    // Not the bytes packDocument makes now (it looks back 8 KiB), and read the same.
    expect(sameStored(fullWindow, packDocument('sqlite', text))).toBe(false);
    expect(documentText(Buffer.from(fullWindow))).toBe(text);
  });

  it('tells SQL the text length of a packed or plain document without unpacking it', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE d (data ANY) STRICT');
    const wide = JSON.stringify({ doc: { notes: [{ text: 'ü€🧾'.repeat(30000) }] } });
    const samples = [texts[0], texts[7], wide, '{}'];
    const insert = db.prepare('INSERT INTO d (data) VALUES (?)');
    for (const t of samples) {
      insert.run(packDocument('sqlite', t));
      insert.run(t);
    }
    const sizes = db.prepare(`SELECT ${packedTextBytes('data')} AS n FROM d`).pluck().all();
    expect(sizes).toEqual(samples.flatMap((t) => [Buffer.byteLength(t), Buffer.byteLength(t)]));
    db.close();
  });
});
