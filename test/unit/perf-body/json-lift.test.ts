import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerBytesPaths, bytesPaths, NOT_BASE64, receiveBytesMembers, sendBytesMembers } from '../../../src-main/core/api/bytes-members.ts';
import { operations } from '../../../src-main/core/api/contract/index.ts';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import type { OperationContract } from '../../../src-main/core/api/operation.ts';
import { hashBytes, type HashedBytes } from '../../../src-main/core/files/hashed-bytes.ts';
import { Base64Bytes, writeJson } from '../../../src-main/core/api/json-text.ts';
import { isHashedBytes } from '../../../src-main/core/files/hashed-bytes-mark.ts';
import { RawNumber } from '../../../src-main/core/gobl/shape/parse.ts';
import { LIFT_MIN_BYTES, parseJsonLifting } from '../../../src-main/core/api/json-lift.ts';
import { parseJsonBody } from '../../../src-main/http/json-body.ts';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const contract = (name: keyof typeof operations) => operations[name] as OperationContract;
const FILE = bytesPaths(contract('putAttachment'));
const BLOBS = bytesPaths(contract('putSyncBlobs'));
const body = (value: unknown) => Buffer.from(JSON.stringify(value));
/** As the HTTP adapter parses a request body. */
const lift = (bytes: Buffer, paths: typeof FILE) => parseJsonLifting(bytes, paths, parseJsonBody);

afterEach(() => vi.restoreAllMocks());

describe('bytesPaths', () => {
  it('finds where each body takes base64 bytes, from its schema', () => {
    expect(FILE).toEqual([['data']]);
    expect(bytesPaths(contract('createFile'))).toEqual([['data']]);
    expect(bytesPaths(contract('uploadFile'))).toEqual([['data']]);
    expect(BLOBS).toEqual([['blobs', '[]', 'data']]);
    // A GOBL document's own `data` members are text to keep, not bytes.
    expect(bytesPaths(contract('importEntries'))).toEqual([]);
    expect(bytesPaths(contract('createEntry'))).toEqual([]);
  });

  it('finds where an answer carries them, for sync’s client', () => {
    expect(answerBytesPaths(contract('readSyncBlobs'))).toEqual([['blobs', '[]', 'data']]);
    expect(answerBytesPaths(contract('listSyncChanges'))).toEqual([]);
    expect(answerBytesPaths(contract('getAttachment'))).toEqual([]);
  });
});

describe('sendBytesMembers', () => {
  it('writes the HashedBytes at a body’s bytes paths as base64 a part at a time, and leaves the rest', async () => {
    const file = randomBytes(1000);
    const sent = (await sendBytesMembers(contract('putSyncBlobs'), { blobs: [{ hash: sha256(file), data: hashBytes(file) }, { hash: 'x', data: 'QUJD' }] })) as {
      blobs: Array<{ data: unknown }>;
    };
    expect(sent.blobs[0].data).toBeInstanceOf(Base64Bytes);
    expect(sent.blobs[1].data).toBe('QUJD');
    expect(JSON.parse(writeJson(sent))).toEqual({ blobs: [{ hash: sha256(file), data: file.toString('base64') }, { hash: 'x', data: 'QUJD' }] });
    // Elsewhere in a body, bytes are not written as a file.
    const other = { note: hashBytes(file) };
    expect(await sendBytesMembers(contract('putSyncBlobs'), other)).toBe(other);
  });
});

describe('parseJsonLifting', () => {
  it('takes a file out of the bytes decoded, and parses the rest as any body', async () => {
    const file = randomBytes(100_000);
    const parse = vi.spyOn(JSON, 'parse');
    const value = (await lift(Buffer.from(`{"name":"a.pdf","size":100000,"desc":"x","data":"${file.toString('base64')}"}`), FILE)) as Record<string, unknown>;
    const data = value.data as HashedBytes;
    expect(isHashedBytes(data)).toBe(true);
    expect(Buffer.from(data.bytes)).toEqual(file);
    expect(data.hash).toBe(sha256(file));
    expect(value).toMatchObject({ name: 'a.pdf', size: 100000, desc: 'x' });
    // Never the whole body as one text: only what is left once the file is out.
    expect(Math.max(...parse.mock.calls.map(([t]) => String(t).length))).toBeLessThan(200);
  });

  it('decodes every file of a sync push, and keeps numbers as written', async () => {
    const files = [randomBytes(5000), randomBytes(10), randomBytes(9000)];
    const text = `{"blobs":[${files.map((f) => `{"hash":"${sha256(f)}","data":"${f.toString('base64')}"}`).join(',')}],"n":10.50}`;
    const value = (await lift(Buffer.from(text), BLOBS)) as { blobs: Array<{ hash: string; data: unknown }>; n: unknown };
    value.blobs.forEach((b, i) => {
      // The short one is left for the schema and the handler, as text.
      if (files[i].length < LIFT_MIN_BYTES) expect(b.data).toBe(files[i].toString('base64'));
      else expect(Buffer.from((b.data as HashedBytes).bytes)).toEqual(files[i]);
    });
    expect(value.n).toBeInstanceOf(RawNumber);
  });

  it('puts a long string elsewhere back as the text it was: descriptions, member names, strings with escapes', async () => {
    const long = 'Factura ñ € 𝄞 '.repeat(1000);
    const escaped = `quote " and \\ and \n ${'x'.repeat(LIFT_MIN_BYTES)}`;
    const key = 'k'.repeat(LIFT_MIN_BYTES + 10);
    const value = { desc: long, meta: { note: long, [key]: escaped }, list: [long, 1], __proto__x: long };
    expect(await lift(body(value), FILE)).toEqual(value);
    // An escaped quote is inside its string: read as a closing one, the numbers after it would look like a long string.
    const numbers = { a: 'one " quote', b: Array(3000).fill(70), c: 'd' };
    expect(await lift(body(numbers), FILE)).toEqual(numbers);
  });

  it('keeps JSON.parse’s answer when a member comes twice: the last one', async () => {
    const a = randomBytes(6000).toString('base64');
    const b = randomBytes(6000).toString('base64');
    const first = (await lift(Buffer.from(`{"data":"${a}","data":"${b}"}`), FILE)) as { data: HashedBytes };
    expect(first.data.hash).toBe(sha256(Buffer.from(b, 'base64')));
    const text = (await lift(Buffer.from(`{"data":"${a}","data":"short"}`), FILE)) as { data: unknown };
    expect(text.data).toBe('short');
  });

  it('a member named __proto__ stays a member and changes no prototype', async () => {
    const long = 'p'.repeat(LIFT_MIN_BYTES * 2);
    const value = (await lift(Buffer.from(`{"__proto__":"${long}","data":"${'QUJD'.repeat(2000)}"}`), FILE)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toBe(long);
  });

  it('marks a long file that is not base64 for the schema to refuse, and refuses what JSON would', async () => {
    const notBase64 = (await lift(Buffer.from(`{"data":"${'QUJD'.repeat(2000)}-"}`), FILE)) as { data: unknown };
    expect(notBase64.data).toBe(NOT_BASE64);
    expect(contract('putAttachment').body!.safeParse({ name: 'a', data: NOT_BASE64 }).error?.issues[0]).toMatchObject({ path: ['data'], message: 'must be base64' });

    const control = lift(Buffer.from(`{"desc":"${'a'.repeat(LIFT_MIN_BYTES)}\u0001","data":"QUJD"}`), FILE);
    await expect(control).rejects.toMatchObject({ key: 'bad-request' });
    await expect(lift(Buffer.from(`{"data":"${'QUJD'.repeat(2000)}",}`), FILE)).rejects.toBeInstanceOf(ApiError);
    await expect(lift(Buffer.from(`{"data":"${'QUJD'.repeat(2000)}`), FILE)).rejects.toBeInstanceOf(ApiError);
  });

  it('a client’s text that looks like a lifted one stays text', async () => {
    const look = '\u0000silodesk-lift:00:0';
    const value = (await lift(body({ desc: look, data: 'QUJD'.repeat(2000) }), FILE)) as { desc: unknown };
    expect(value.desc).toBe(look);
  });

  it('reads any body as JSON.parse does, wherever its long strings fall', async () => {
    const long = fc.constantFrom('QUJD'.repeat(1100), 'é'.repeat(LIFT_MIN_BYTES), randomBytes(3500).toString('base64'));
    const leaf = fc.oneof(fc.integer(), fc.boolean(), fc.string({ maxLength: 5 }), fc.constantFrom('"', '\\', '\\"'), long, fc.constant(Array(2100).fill(7)));
    const tree = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'data', 'desc', '__proto__'), tie('node'), { maxKeys: 3 })),
    })).node;
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom('name', 'desc', 'meta', 'list'), tree, { maxKeys: 4 }), async (value) => {
        const text = JSON.stringify(value);
        expect(await lift(Buffer.from(text), FILE)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });
});

describe('receiveBytesMembers', () => {
  it('decodes the base64 texts at the body’s bytes paths, marks the ones that are not, and changes nothing given', async () => {
    const file = randomBytes(70_000);
    const given = { blobs: [{ hash: 'h', data: file.toString('base64') }, { hash: 'g', data: 'not base64!' }], other: 'QUJD' };
    const copy = structuredClone(given);
    const out = (await receiveBytesMembers(contract('putSyncBlobs'), given)) as typeof given;
    expect(given).toEqual(copy);
    expect(Buffer.from((out.blobs[0].data as unknown as HashedBytes).bytes)).toEqual(file);
    expect(out.blobs[1].data).toBe(NOT_BASE64);
    expect(out.other).toBe('QUJD');
    // A body without bytes members is the same object.
    const doc = { entries: [{ data: { a: 'QUJD' } }] };
    expect(await receiveBytesMembers(contract('importEntries'), doc)).toBe(doc);
  });
});
