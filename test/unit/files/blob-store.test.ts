import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobStore } from '../../../src-main/core/files/blob-store.ts';
import { storeBlobs } from '../../../src-main/core/files/blob-writes.ts';
import { hashBytes } from '../../../src-main/core/files/hashed-bytes.ts';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let root: string;
let store: BlobStore;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'silodesk-blobs-'));
  store = new BlobStore(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('hashBytes', () => {
  it('pairs the bytes with their own SHA-256', () => {
    const bytes = randomBytes(1000);
    const content = hashBytes(bytes);
    expect(content.hash).toBe(sha256(bytes));
    expect(content.bytes).toBe(bytes);
  });
});

describe('storeBlobs', () => {
  it('files the bytes under their hash, whole, and leaves no temp file', async () => {
    const bytes = randomBytes(70_000);
    const content = hashBytes(bytes);
    await storeBlobs(store, [content]);
    expect(content.hash).toBe(sha256(bytes));
    const path = join(root, content.hash.slice(0, 2), content.hash);
    expect(store.pathOf(content.hash)).toBe(path);
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(statSync(path).size).toBe(bytes.byteLength);
    expect(await store.holds(content.hash)).toBe(true);
    expect(await store.sizeOf(content.hash)).toBe(bytes.byteLength);
    expect(await store.holds('0'.repeat(64))).toBe(false);
    expect(await store.sizeOf('0'.repeat(64))).toBeUndefined();
    expect(readdirSync(join(root, 'tmp'))).toEqual([]);
  });

  it('keeps a whole file it already holds, and replaces one cut short', async () => {
    const bytes = randomBytes(5_000);
    const { hash } = hashBytes(bytes);
    await storeBlobs(store, [hashBytes(bytes)]);
    const path = store.pathOf(hash);
    const firstWrite = statSync(path).ino;
    await storeBlobs(store, [hashBytes(bytes)]);
    expect(statSync(path).ino).toBe(firstWrite);

    writeFileSync(path, bytes.subarray(0, 100));
    await storeBlobs(store, [hashBytes(bytes)]);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });
});
