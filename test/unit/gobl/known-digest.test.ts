// A digest a caller has worked out stands for its document only while the caller's work runs,
// only for that very object, and a build that leaves a document unchanged takes its digest.
import { describe, expect, it } from 'vitest';
import { canonicalSha256Parts } from '../../../src-main/core/gobl/canonical-bytes.ts';
import { digestOf } from '../../../src-main/core/gobl/canonical.ts';
import { buildEnvelope } from '../../../src-main/core/gobl/engine/build.ts';
import { withKnownDigest } from '../../../src-main/core/gobl/known-digest.ts';
import { loadEnvelope, loadEnvelopes } from '../../fixtures/gobl/load.ts';

// A digest no document has, to see where the known one is used.
const MARKER = { alg: 'sha256' as const, val: 'f'.repeat(64) };

describe('withKnownDigest', () => {
  it('answers digestOf for that very document while the work runs, and forgets it after', async () => {
    const doc = loadEnvelope('es-invoice-es-es.json').doc;
    const computed = digestOf(doc);
    const inside = await withKnownDigest(doc, MARKER, async () => {
      await Promise.resolve();
      return { same: digestOf(doc), copy: digestOf(structuredClone(doc)), other: digestOf({ a: 1 }) };
    });
    expect(inside.same).toEqual(MARKER);
    expect(inside.copy).toEqual(computed);
    expect(inside.other).toEqual(digestOf({ a: 1 }));
    expect(digestOf(doc)).toEqual(computed);
  });

  it('forgets it when the work fails, and hands out copies', async () => {
    const doc = { a: 1 };
    await expect(withKnownDigest(doc, MARKER, async () => {
      const first = digestOf(doc);
      first.val = 'changed';
      expect(digestOf(doc)).toEqual(MARKER);
      throw new Error('refused');
    })).rejects.toThrow('refused');
    expect(digestOf(doc).val).not.toBe(MARKER.val);
  });

  it('keeps two documents known at once apart', async () => {
    const a = { a: 1 };
    const b = { b: 2 };
    const other = { alg: 'sha256' as const, val: 'e'.repeat(64) };
    await withKnownDigest(a, MARKER, () => withKnownDigest(b, other, async () => {
      expect(digestOf(a)).toEqual(MARKER);
      expect(digestOf(b)).toEqual(other);
    }));
    expect(digestOf(a).val).not.toBe(MARKER.val);
    expect(digestOf(b).val).not.toBe(other.val);
  });
});

describe('canonicalSha256Parts', () => {
  it('gives the digest of the document inside a request, as digestOf does', () => {
    for (const { envelope } of loadEnvelopes()) {
      const request = { key: 'k', data: { ...envelope, head: { ...envelope.head, dig: undefined } } };
      const { part } = canonicalSha256Parts(request, envelope.doc);
      expect(part).toBe(envelope.head.dig.val);
      expect(canonicalSha256Parts({ data: envelope.doc }, envelope.doc).part).toBe(envelope.head.dig.val);
    }
  });

  it('has no part when the request does not hold the document', () => {
    const doc = { a: 1 };
    expect(canonicalSha256Parts({ data: { doc: structuredClone(doc) } }, doc).part).toBeUndefined();
    expect(canonicalSha256Parts({ data: { doc: null } }, doc).part).toBeUndefined();
    // and the next one is not confused by the last
    expect(canonicalSha256Parts({ data: doc }, doc).part).toBe(digestOf(doc).val);
  });
});

describe('buildEnvelope with the document as given', () => {
  const now = new Date('2026-01-01T00:00:00Z');

  it('finds a document GOBL built unchanged, and takes its known digest as the build\'s', async () => {
    const envelope = loadEnvelope('es-invoice-es-es.json');
    const built = buildEnvelope(envelope, { now }, envelope.doc);
    expect(built.unchanged).toBe(true);
    expect(built.envelope.head.dig).toEqual(envelope.head.dig);
    const known = await withKnownDigest(envelope.doc, MARKER, async () => buildEnvelope(envelope, { now }, envelope.doc));
    expect(known.envelope.head.dig).toEqual(MARKER);
  });

  it('digests the build itself when it changed the document, known digest or not', async () => {
    const envelope = loadEnvelope('es-invoice-es-es.json');
    envelope.doc.supplier.name = ' Provide One S.L. ';
    const built = await withKnownDigest(envelope.doc, MARKER, async () => buildEnvelope(envelope, { now }, envelope.doc));
    expect(built.unchanged).toBe(false);
    expect(built.envelope.head.dig).toEqual(digestOf(built.envelope.doc));
    expect(built.envelope.head.dig.val).not.toBe(MARKER.val);
  });
});
