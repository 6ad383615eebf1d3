import { createHash } from 'node:crypto';
import { crc32, deflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_DICTIONARY_1 } from '../../../src-main/core/silo/document-dictionary.ts';
import { DOCUMENT_DICTIONARY_2_TAIL } from '../../../src-main/core/silo/document-dictionary-2.ts';
import { documentText, packDocument, packDocumentOffLoop, packedTextBytes, readableAs, sameStored } from '../../../src-main/core/silo/packed-document.ts';
import { loadEnvelopes } from '../../fixtures/gobl/load.ts';

const envelopes = loadEnvelopes().map(({ envelope }) => envelope as { head?: { uuid?: string } });
const texts = envelopes.map((envelope) => JSON.stringify(envelope));
/** The id of the entry a fixture is stored as: its head's uuid, as the service gives it. */
const ids = envelopes.map((envelope, i) => envelope.head?.uuid ?? `0190c2a1-0000-7000-8000-${String(i).padStart(12, '0')}`);
const ID = '01a20da9-01f0-71a7-b074-4cd5918d1f0f';

/** Format 1 as rows written before format 2 hold it: the header and the text deflated against dictionary 1. */
function format1(text: string, windowBits = 13): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const header = Buffer.alloc(5);
  header[0] = 1;
  header.writeUInt32BE(bytes.length, 1);
  return Buffer.concat([header, deflateRawSync(bytes, { dictionary: Buffer.from(DOCUMENT_DICTIONARY_1, 'utf8'), windowBits, memLevel: 5 })]);
}

describe('a stored document packed', () => {
  it('packs the same bytes off the event loop as on it, many at once, each with its own entry id', async () => {
    const large = JSON.stringify({ ...envelopes[0], notes: Array.from({ length: 20_000 }, (_, i) => `line ${i} ${ID}`) });
    const cases: Array<[string, string]> = [...texts.map((t, i): [string, string] => [t, ids[i]]), [large, ID], [large, ids[0]]];
    // All under way together: none may take another's dictionary (each holds its entry's id).
    const offLoop = await Promise.all(cases.map(([t, id]) => packDocumentOffLoop('sqlite', t, id)));
    cases.forEach(([t, id], i) => {
      expect(Buffer.from(offLoop[i] as Uint8Array).equals(Buffer.from(packDocument('sqlite', t, id) as Uint8Array))).toBe(true);
      expect(documentText(Buffer.from(offLoop[i] as Uint8Array), id)).toBe(t);
    });
    expect(await packDocumentOffLoop('postgres', large, ID)).toBe(large);
  });

  it('reads back as the very text for every fixture, at about a third of its size, and smaller than format 1 made it', () => {
    let text = 0;
    let packed = 0;
    let before = 0;
    for (const [i, t] of texts.entries()) {
      const stored = packDocument('sqlite', t, ids[i]);
      expect(stored).toBeInstanceOf(Uint8Array);
      expect((stored as Uint8Array)[0]).toBe(2);
      expect(documentText(Buffer.from(stored as Uint8Array), ids[i])).toBe(t);
      text += Buffer.byteLength(t);
      packed += (stored as Uint8Array).length;
      before += format1(t).length;
    }
    expect(packed / text).toBeLessThan(0.45);
    // The names in GOBL's order and the entry's own id (its head repeats it) save a tenth and more.
    expect(packed / before).toBeLessThan(0.9);
  });

  it("is read only as its own entry's document: another id is refused, not unpacked into another head", () => {
    const stored = Buffer.from(packDocument('sqlite', texts[2], ids[2]) as Uint8Array);
    expect(() => documentText(stored, ID)).toThrow(/another entry/);
    expect(documentText(stored, ids[2])).toBe(texts[2]);
    expect(readableAs(stored, ids[2])).toBe(true);
    expect(readableAs(stored, ID)).toBe(false);
    // Text and format 1 belong to no entry in particular: any row can keep them.
    expect(readableAs(texts[2], ID)).toBe(true);
    expect(readableAs(format1(texts[2]), ID)).toBe(true);
  });

  it('reads format 1 as rows written before format 2 hold it, whatever entry reads it', () => {
    for (const t of texts.slice(0, 10)) expect(documentText(format1(t), ID)).toBe(t);
  });

  it('packs an id longer than the room kept for one, and two entries of one text to different bytes', () => {
    const long = 'k'.repeat(300);
    expect(documentText(packDocument('sqlite', texts[5], long), long)).toBe(texts[5]);
    expect(sameStored(packDocument('sqlite', texts[5], ids[5]), packDocument('sqlite', texts[5], ID))).toBe(false);
    // After a long id, a short one is packed against itself only (nothing of the long one left in the dictionary).
    const short = packDocument('sqlite', texts[5], ID);
    expect(documentText(Buffer.from(short as Uint8Array), ID)).toBe(texts[5]);
  });

  it('keeps text beyond one byte a character, and a document past 64 KiB', () => {
    const wide = JSON.stringify({ doc: { notes: [{ text: 'Zürich – 東京 – 🧾'.repeat(5000) }] } });
    expect(Buffer.byteLength(wide)).toBeGreaterThan(65536);
    expect(documentText(packDocument('sqlite', wide, ID), ID)).toBe(wide);
  });

  it('reads back every length around the edges of its output chunk (the stated length, one byte over) and of node\'s 16 KiB', () => {
    for (const size of [2, 3, 62, 63, 64, 65, 2047, 2048, 2049, 16_383, 16_384, 16_385, 40_000]) {
      // hashes of hashes: text deflate cannot shorten much, of exactly `size` bytes
      let text = '';
      for (let i = 0; text.length < size; i++) text += createHash('sha512').update(`${size}:${i}`).digest('base64');
      text = text.slice(0, size);
      expect(documentText(packDocument('sqlite', text, ID), ID)).toBe(text);
    }
  });

  it('is the text itself on PostgreSQL, which compresses long values on its own', () => {
    expect(packDocument('postgres', texts[0], ID)).toBe(texts[0]);
    expect(documentText(texts[0], ID)).toBe(texts[0]);
  });

  it('packs the same text to the same bytes, so an unchanged document is not written again', () => {
    const a = packDocument('sqlite', texts[3], ID);
    const b = packDocument('sqlite', texts[3], ID);
    expect(a).not.toBe(b);
    expect(sameStored(a, b)).toBe(true);
    expect(sameStored(a, packDocument('sqlite', texts[4], ID))).toBe(false);
    expect(sameStored(texts[3], texts[3])).toBe(true);
    expect(sameStored(texts[3], a)).toBe(false);
    expect(sameStored(undefined, a)).toBe(false);
  });

  it('packs to the bytes deflate makes with its default output chunks, whatever the size (the output buffer is smaller: 2 KiB)', () => {
    const dictionary = Buffer.from(DOCUMENT_DICTIONARY_1 + DOCUMENT_DICTIONARY_2_TAIL + ID, 'utf8');
    const big = JSON.stringify({ doc: { notes: Array.from({ length: 400 }, (_, i) => ({ text: createHash('sha256').update(String(i)).digest('hex') })) } });
    for (const t of [...texts, big, '{}']) {
      const bytes = Buffer.from(t, 'utf8');
      const packed = deflateRawSync(bytes, { dictionary, windowBits: 13, memLevel: 5 });
      const header = Buffer.alloc(7);
      header[0] = 2;
      header.writeUInt32BE(bytes.length, 1);
      header.writeUInt16BE(crc32(ID) & 0xffff, 5);
      expect(Buffer.from(packDocument('sqlite', t, ID) as Uint8Array).equals(Buffer.concat([header, packed]))).toBe(true);
    }
    // Past one chunk: random hex packs to far more than 2 KiB.
    expect((packDocument('sqlite', big, ID) as Uint8Array).length).toBeGreaterThan(4096);
  });

  it('refuses bytes it did not make: another format, a cut-off stream, a length that lies', () => {
    for (const stored of [Buffer.from(packDocument('sqlite', texts[1], ID) as Uint8Array), format1(texts[1])]) {
      const other = Buffer.from(stored);
      other[0] = 3;
      expect(() => documentText(other, ID)).toThrow(/unknown format 3/);
      expect(() => documentText(stored.subarray(0, 3), ID)).toThrow(/unknown format/);
      expect(() => documentText(stored.subarray(0, stored.length - 20), ID)).toThrow();
      const shorter = Buffer.from(stored);
      shorter.writeUInt32BE(stored.readUInt32BE(1) - 1, 1);
      expect(() => documentText(shorter, ID)).toThrow();
      const longer = Buffer.from(stored);
      longer.writeUInt32BE(stored.readUInt32BE(1) + 1, 1);
      expect(() => documentText(longer, ID)).toThrow(/not the/);
    }
    expect(() => documentText(Buffer.from([2, 0, 0, 0, 9, 0]), ID)).toThrow(/unknown format 2/);
  });

  it('is read with the dictionary it was made with: formats 1 and 2 never change', () => {
    // Every document stored as format 1 or 2 needs these exact bytes; a new dictionary is a new format.
    expect(createHash('sha256').update(DOCUMENT_DICTIONARY_1).digest('hex')).toBe('0d6ac621643a43adcb5b3e930da738f3a05ed493f40118f9813571086b6ab897');
    expect(createHash('sha256').update(DOCUMENT_DICTIONARY_2_TAIL).digest('hex')).toBe('0f99fa15d8014600f0989266f176a32380a446b37c030d1bdc7b8ec6c307361c');
  });

  it('reads format 1 as any deflate against the whole dictionary made it, as rows packed with the full window were', () => {
    const text = JSON.stringify(loadEnvelopes()[3].envelope);
    const bytes = Buffer.from(text);
    const header = Buffer.from([1, 0, 0, 0, 0]);
    header.writeUInt32BE(bytes.length, 1);
    const fullWindow = Buffer.concat([header, deflateRawSync(bytes, { dictionary: Buffer.from(DOCUMENT_DICTIONARY_1) })]);
    // Not the bytes format 1 was packed to later (looking back 8 KiB), and read the same.
    expect(sameStored(fullWindow, format1(text))).toBe(false);
    expect(documentText(Buffer.from(fullWindow), ID)).toBe(text);
  });

  it('tells SQL the text length of a packed or plain document without unpacking it', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE d (data ANY) STRICT');
    const wide = JSON.stringify({ doc: { notes: [{ text: 'ü€🧾'.repeat(30000) }] } });
    const samples = [texts[0], texts[7], wide, '{}'];
    const insert = db.prepare('INSERT INTO d (data) VALUES (?)');
    for (const t of samples) {
      insert.run(packDocument('sqlite', t, ID));
      insert.run(format1(t));
      insert.run(t);
    }
    const sizes = db.prepare(`SELECT ${packedTextBytes('data')} AS n FROM d`).pluck().all();
    expect(sizes).toEqual(samples.flatMap((t) => [Buffer.byteLength(t), Buffer.byteLength(t), Buffer.byteLength(t)]));
    db.close();
  });
});
