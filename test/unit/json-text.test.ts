import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { turnsDuring } from '../support/event-loop-turns.ts';
import { Base64Bytes, BASE64_BYTES_PER_PART, JsonText, TEXT_IN_PARTS_FROM, writeJsonBody, writeJson } from '../../src-main/core/api/json-text.ts';

describe('JsonText and writeJson', () => {
  it('puts each text into the answer byte for byte, where it stands', () => {
    // 1.10 and a 25-digit number are texts a parse would change: written unchanged, they were not parsed
    const page = { changes: [{ seq: 1, record: { data: new JsonText('{"n":1.10,"big":1234567890123456789012345}') } }, { seq: 2, record: { data: new JsonText('[]') } }], more: false };
    expect(writeJson(page)).toBe('{"changes":[{"seq":1,"record":{"data":{"n":1.10,"big":1234567890123456789012345}}},{"seq":2,"record":{"data":[]}}],"more":false}');
  });

  it('writes what JSON.stringify writes when there is nothing to splice, strings with NULs included', () => {
    const value = { a: 'x\u0000y', b: [1, null, { c: '\u0000' }] };
    expect(writeJson(value)).toBe(JSON.stringify(value));
  });

  it('is the parsed value to any other writer, so an answer can never come out wrong', () => {
    const value = { data: new JsonText('{"n":1.5,"s":"é"}') };
    expect(JSON.parse(JSON.stringify(value))).toEqual({ data: { n: 1.5, s: 'é' } });
    // and after writeJson (which leaves no splicing switched on)
    writeJson({ other: new JsonText('1') });
    expect(JSON.stringify(value)).toBe('{"data":{"n":1.5,"s":"é"}}');
  });

  it('leaves nothing switched on when a value refuses to be written', () => {
    const cyclic: Record<string, unknown> = { data: new JsonText('{}') };
    cyclic.self = cyclic;
    expect(() => writeJson(cyclic)).toThrow(TypeError);
    expect(JSON.stringify({ data: new JsonText('{"a":1}') })).toBe('{"data":{"a":1}}');
  });
});

describe('Base64Bytes and writeJsonBody', () => {
  const read = async (answer: ReturnType<typeof writeJsonBody>) => {
    if (typeof answer === 'string') throw new Error('expected an answer in parts');
    const chunks: Uint8Array[] = [];
    for await (const chunk of answer.chunks()) chunks.push(chunk);
    const bytes = Buffer.concat(chunks);
    expect(bytes.byteLength).toBe(answer.length);
    return { text: bytes.toString('utf8'), parts: chunks.length };
  };

  it('writes each file’s base64 a part at a time, the rest as writeJson does, and says its length first', async () => {
    const files = [randomBytes(BASE64_BYTES_PER_PART * 2 + 5), randomBytes(0), randomBytes(7)];
    const value = { blobs: files.map((f, i) => ({ hash: `h${i}`, data: new Base64Bytes(f) })), doc: new JsonText('{"n":1.10}'), note: 'ñ €', missing: [] };
    const { text, parts } = await read(writeJsonBody(value));
    const expected = `{"blobs":[${files.map((f, i) => `{"hash":"h${i}","data":"${f.toString('base64')}"}`).join(',')}],"doc":{"n":1.10},"note":"ñ €","missing":[]}`;
    expect(text).toBe(expected);
    // The first file in three parts, each in a turn of its own.
    expect(parts).toBeGreaterThanOrEqual(3 + 2 * files.length);
    // Anything else that writes one gets the same text in one piece.
    expect(writeJson(value)).toBe(expected);
    expect(JSON.parse(JSON.stringify(value)).blobs[2].data).toBe(files[2].toString('base64'));
  });

  it('lets others in between the parts of a file', async () => {
    const answer = writeJsonBody({ data: new Base64Bytes(randomBytes(BASE64_BYTES_PER_PART * 4)) });
    if (typeof answer === 'string') throw new Error('expected an answer in parts');
    const { turns } = await turnsDuring(async () => {
      for await (const chunk of answer.chunks()) expect(chunk.byteLength).toBeGreaterThan(0);
    });
    expect(turns).toBeGreaterThanOrEqual(4);
  });

  it('writes a large text a part at a time, others let in between, never splitting a character', async () => {
    // Pairs (😀) and three-byte characters across every part boundary.
    const note = 'a€😀'.repeat(300_000);
    const value = { id: 'x', data: new JsonText(JSON.stringify({ note })) };
    const answer = writeJsonBody(value);
    const { result, turns } = await turnsDuring(() => read(answer));
    expect(result.text).toBe(writeJson(value));
    expect(JSON.parse(result.text).data.note).toBe(note);
    expect(result.parts).toBeGreaterThanOrEqual(4);
    expect(turns).toBeGreaterThanOrEqual(4);
    // Under TEXT_IN_PARTS_FROM, one string as before.
    expect(typeof writeJsonBody({ note: 'x'.repeat(TEXT_IN_PARTS_FROM - 20) })).toBe('string');
  });

  it('is plain writeJson text without files, written once', () => {
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      expect(writeJsonBody({ a: new JsonText('[1.0]') })).toBe('{"a":[1.0]}');
      expect(writeJsonBody({ page: [{ id: 1 }, { id: 2 }] })).toBe('{"page":[{"id":1},{"id":2}]}');
      // Every JSON answer comes through writeJsonBody: one JSON.stringify each, not one to look and one to write.
      expect(stringify).toHaveBeenCalledTimes(2);
    } finally {
      stringify.mockRestore();
    }
  });
});
