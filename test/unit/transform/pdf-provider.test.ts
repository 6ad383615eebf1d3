import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfProvider } from '../../../src-main/core/transform/providers/pdf.ts';
import { loadEnvelope } from '../../fixtures/gobl/load.ts';
import { pdfPageTexts } from '../pdf/pdf-text.ts';
import { openProviderTestBed, type ProviderTestBed } from './provider-test-context.ts';

let bed: ProviderTestBed;

beforeAll(async () => {
  bed = await openProviderTestBed();
});

afterAll(async () => {
  await bed.close();
});

function attachmentsOf(entryId: string) {
  const { db } = bed.service;
  return db.all(db.q.selectFrom('attachments').selectAll().where('entry_id', '=', entryId));
}

describe('pdf provider', () => {
  it('renders the invoice and attaches it as "pdf" only when apply runs', async () => {
    const entryId = await bed.entry(loadEnvelope('es-invoice-es-es.json'));
    const ctx = bed.stepContext(entryId);
    const result = await pdfProvider.run(ctx, pdfProvider.config.parse({}));

    expect(result.status).toBe('OK');
    expect(await attachmentsOf(entryId)).toHaveLength(0);
    await result.apply!();

    const [row] = await attachmentsOf(entryId);
    expect(row).toMatchObject({ id: 'pdf', name: 'SAMPLE-001.pdf', mime: 'application/pdf', desc: 'Invoice PDF' });
    const bytes = new Uint8Array(readFileSync(bed.service.blobs.pathOf(row.hash)));
    const text = (await pdfPageTexts(bytes)).join(' ');
    expect(text).toContain('Provide One S.L.');
    expect(text).toContain('Payable 1970,20 EUR');
  });

  it('is repeatable: a second run attaches the same bytes, a no-op', async () => {
    const entryId = await bed.entry(loadEnvelope('gr-invoice-fee.json'));
    const first = await pdfProvider.run(bed.stepContext(entryId), {});
    await first.apply!();
    const second = await pdfProvider.run(bed.stepContext(entryId), {});
    expect(second.status).toBe('OK');
    await second.apply!();
    const rows = await attachmentsOf(entryId);
    expect(rows).toHaveLength(1);
    expect(rows[0].name).toBe('SAMPLE-001.pdf');
  });

  it('uses the configured locale', async () => {
    const entryId = await bed.entry(loadEnvelope('es-invoice-es-es.json'));
    const result = await pdfProvider.run(bed.stepContext(entryId), pdfProvider.config.parse({ locale: 'en-US' }));
    await result.apply!();
    const bytes = new Uint8Array(readFileSync(bed.service.blobs.pathOf((await attachmentsOf(entryId))[0].hash)));
    expect((await pdfPageTexts(bytes)).join(' ')).toContain('Payable 1,970.20 EUR');
  });

  it('is KO when the entry already has another "pdf" (the document changed since)', async () => {
    const entryId = await bed.entry(loadEnvelope('es-invoice-es-es.json'));
    const ctx = bed.stepContext(entryId);
    await (await pdfProvider.run(ctx, {})).apply!();

    const changed = (await ctx.entry()).envelope;
    (changed.doc.lines as Array<{ item: { name: string } }>)[0].item.name = 'Consulting';
    await ctx.updateEntry({ envelope: changed });

    const result = await pdfProvider.run(ctx, {});
    expect(result).toMatchObject({ status: 'KO', code: 'pdf-exists' });
    expect(result.apply).toBeUndefined();
  });

  it.each(['es-payment-old.json', 'es-order.json', 'es-status-update.json'])('is KO not-invoice for %s', async (file) => {
    const entryId = await bed.entry(loadEnvelope(file));
    const result = await pdfProvider.run(bed.stepContext(entryId), {});
    expect(result).toMatchObject({ status: 'KO', code: 'not-invoice' });
    expect(result.apply).toBeUndefined();
  });

  it('names the file after the envelope uuid when the number cannot be a file name', async () => {
    const envelope = loadEnvelope('es-invoice-es-es.json');
    envelope.doc.code = 'A/2024:7';
    const entryId = await bed.entry(envelope);
    await (await pdfProvider.run(bed.stepContext(entryId), {})).apply!();
    expect((await attachmentsOf(entryId))[0].name).toBe('A_2024_7.pdf');

    const blank = loadEnvelope('es-invoice-es-es.json');
    blank.doc.code = '...';
    const blankId = await bed.entry(blank);
    await (await pdfProvider.run(bed.stepContext(blankId), {})).apply!();
    expect((await attachmentsOf(blankId))[0].name).toBe(`${blankId}.pdf`);
  });

  it('validates its config', () => {
    const parse = (config: unknown) => pdfProvider.config.safeParse(config).success;
    expect(parse({})).toBe(true);
    expect(parse({ locale: 'el-GR' })).toBe(true);
    expect(parse({ locale: 'en' })).toBe(true);
    expect(parse({ locale: 'de-CH-1996' })).toBe(true);
    expect(parse({ locale: 'x' })).toBe(false);
    expect(parse({ locale: 'en_US' })).toBe(false);
    expect(parse({ locale: '' })).toBe(false);
    expect(parse({ locale: 'en', other: true })).toBe(false);
    expect(pdfProvider.timeoutMs).toBe(60_000);
  });
});
