// Preparing an entry works its document's digest out once, with the request hash: what it stores
// must be what it stored before, whichever document comes in, and nothing carries over.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { canonicalJson, digestOf } from '../../../src-main/core/gobl/canonical.ts';
import { prepareNewEntry } from '../../../src-main/core/silo/entries.ts';
import { loadEnvelope } from '../../fixtures/gobl/load.ts';
import { withFreshService } from '../../support/fresh-service.ts';

const requestHash = (request: unknown) => createHash('sha256').update(canonicalJson(request)).digest().subarray(0, 8).toString('base64url');

describe('prepareNewEntry digests', () => {
  it('digests each document as it is, the same input object changed between two entries', async () => {
    await withFreshService(async (ctx) => {
      const envelope = loadEnvelope('es-invoice-es-es.json');
      delete envelope.head.dig;
      const input = { data: envelope };
      const first = await prepareNewEntry(ctx, envelope.head.uuid, input);
      expect(first.doc.digest).toEqual(digestOf(envelope.doc));
      expect(first.requestHash).toBe(requestHash({ data: envelope }));

      envelope.head.uuid = '0190a0a0-0000-7000-8000-000000000001';
      envelope.doc.code = 'OTHER-1';
      envelope.doc.lines[0].quantity = '11';
      const second = await prepareNewEntry(ctx, envelope.head.uuid, { ...input, allow_invalid: true });
      expect(second.doc.digest).toEqual(digestOf(envelope.doc));
      expect(second.doc.digest).not.toEqual(first.doc.digest);
      expect(second.doc.faults.map((f) => f.code)).toContain('calculation');
      expect(second.requestHash).toBe(requestHash({ data: envelope }));
    });
  });

  it('digests a bare document and a partial one as before', async () => {
    await withFreshService(async (ctx) => {
      const doc = loadEnvelope('es-invoice-es-es.json').doc;
      const bare = await prepareNewEntry(ctx, '0190a0a0-0000-7000-8000-000000000002', { data: doc });
      expect(bare.doc.digest).toEqual(digestOf(doc));
      expect(bare.doc.envelope.head.dig).toEqual(digestOf(doc));
      const partial = structuredClone(doc);
      delete partial.totals;
      partial.uuid = '0190a0a0-0000-7000-8000-0000000000aa';
      const built = await prepareNewEntry(ctx, '0190a0a0-0000-7000-8000-000000000003', { data: partial });
      expect(built.doc.digest).toEqual(digestOf(built.doc.envelope.doc));
      expect(built.doc.digest).not.toEqual(digestOf(partial));
      expect(built.requestHash).toBe(requestHash({ data: partial }));
    });
  });
});
