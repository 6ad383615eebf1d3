import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { patchEntry } from '../../../src-main/core/silo/patch.ts';
import { verifyEnvelopeSigs } from '../../../src-main/core/gobl/sign/index.ts';
import type { Envelope } from '../../../src-main/core/silo/document.ts';
import { documentCheck } from '../../../src-main/core/transform/providers/checked-document.ts';
import { siloClose } from '../../../src-main/core/transform/providers/silo-close.ts';
import { loadEnvelope } from '../../fixtures/gobl/load.ts';
import { openProviderTestBed, type ProviderTestBed } from './provider-test-context.ts';
import { documentText, type StoredDocument } from '../../../src-main/core/silo/packed-document.ts';

/**
 * A step's context signs with the instance key (seal), and takes back, without checking it
 * again, only what it sealed from the stored envelope as it handed it out, unsigned and
 * found clean by GOBL: as PATCH with `sign` takes its own signature. Anything else is
 * checked as any envelope a step stores: signatures verified, document checked.
 */

// GOBL's checks and signature verifications, counted where the service calls them.
const counts = vi.hoisted(() => ({ checks: 0, verifies: 0 }));
vi.mock('../../../src-main/core/gobl/engine/index.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src-main/core/gobl/engine/index.ts')>();
  return {
    ...real,
    checkDocument: (...args: Parameters<typeof real.checkDocument>) => {
      counts.checks++;
      return real.checkDocument(...args);
    },
  };
});
vi.mock('../../../src-main/core/gobl/sign/index.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src-main/core/gobl/sign/index.ts')>();
  return {
    ...real,
    verifyEnvelopeSigs: (...args: Parameters<typeof real.verifyEnvelopeSigs>) => {
      counts.verifies++;
      return real.verifyEnvelopeSigs(...args);
    },
  };
});

let bed: ProviderTestBed;
beforeAll(async () => {
  bed = await openProviderTestBed();
});
afterAll(() => bed.close());

const stored = (id: string) => {
  const row = bed.service.db.sqlite!.prepare('SELECT id, data, faults, invalid, signed, digest_val FROM entries WHERE id = ?').get(id) as {
    id: string;
    data: StoredDocument;
    faults: string;
    invalid: number;
    signed: number;
    digest_val: string;
  };
  return { ...row, data: documentText(row.data, row.id) };
};

/** Counts what `fn` costs in checks and verifications. */
async function counted(fn: () => Promise<void> | void): Promise<{ checks: number; verifies: number }> {
  counts.checks = 0;
  counts.verifies = 0;
  await fn();
  return { ...counts };
}

/** The stored envelope verifies against this instance's keys, its one signature included. */
const verifies = (data: string) => verifyEnvelopeSigs(JSON.parse(data), bed.service.keys.jwks()).valid;

describe('a step context sealing the entry', () => {
  it('stores what silo.close sealed from the envelope it checked as it was made: signed, verifiable, no faults', async () => {
    const id = await bed.entry(loadEnvelope('es-invoice-es-es.json'));
    const before = stored(id);
    const ctx = bed.stepContext(id);
    // gobl.validate's check, just before, on the envelope handed out
    expect(await documentCheck((await ctx.entry()).envelope)).toEqual([]);
    const result = await siloClose.run(ctx, {});
    expect(result.status).toBe('OK');
    expect(await counted(() => result.apply!())).toEqual({ checks: 0, verifies: 0 });
    const after = stored(id);
    expect(after).toMatchObject({ faults: '[]', invalid: 0, signed: 1, digest_val: before.digest_val });
    expect(JSON.parse(after.data).sigs).toHaveLength(1);
    expect(verifies(after.data)).toBe(true);
  });

  it('checks and verifies a sealed copy of the envelope, and stores it the same', async () => {
    const id = await bed.entry(loadEnvelope('es-invoice-es-es.json'));
    const ctx = bed.stepContext(id);
    const copy = structuredClone((await ctx.entry()).envelope);
    expect(await documentCheck(copy)).toEqual([]);
    const sealed = ctx.seal!(copy);
    expect(await counted(() => ctx.updateEntry({ envelope: sealed }))).toEqual({ checks: 1, verifies: 1 });
    expect(stored(id)).toMatchObject({ faults: '[]', invalid: 0, signed: 1 });
  });

  it('checks and verifies what was sealed from the entry before another write changed it', async () => {
    const id = await bed.entry(loadEnvelope('es-invoice-es-es.json'));
    const ctx = bed.stepContext(id);
    const { envelope } = await ctx.entry();
    expect(await documentCheck(envelope)).toEqual([]);
    const sealed = ctx.seal!(envelope);
    // Another write changes the document between the seal and its storing: the seal is not the stored envelope's any more.
    const changed = { ...envelope, doc: { ...envelope.doc, notes: [{ text: 'changed meanwhile' }] } };
    await patchEntry(bed.ctx, id, { content_type: 'application/json', data: changed as Record<string, unknown> });
    expect(await counted(() => ctx.updateEntry({ envelope: sealed }))).toEqual({ checks: 1, verifies: 1 });
    // As any step storing a whole envelope: the one it sealed, checked.
    const after = stored(id);
    expect(after).toMatchObject({ faults: '[]', signed: 1 });
    expect(JSON.parse(after.data).doc.notes).toBeUndefined();
    expect(verifies(after.data)).toBe(true);
  });

  it('checks and verifies a seal of a document GOBL found faults in, and stores it with its faults', async () => {
    const faulty = loadEnvelope('es-invoice-es-es.json');
    faulty.doc.totals.payable = '1.00';
    const id = await bed.entry(faulty);
    const ctx = bed.stepContext(id);
    const envelope: Envelope = (await ctx.entry()).envelope;
    expect((await documentCheck(envelope)).length).toBeGreaterThan(0);
    const sealed = ctx.seal!(envelope);
    expect(await counted(() => ctx.updateEntry({ envelope: sealed }))).toEqual({ checks: 1, verifies: 1 });
    const after = stored(id);
    expect(after.signed).toBe(1);
    expect(JSON.parse(after.faults)).toContainEqual(expect.objectContaining({ code: 'calculation', paths: ['$.doc.totals.payable'] }));
  });
});
