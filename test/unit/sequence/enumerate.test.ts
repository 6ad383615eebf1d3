import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v1 as uuidv1, v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDefaultCompany } from '../../../src-main/core/access/bootstrap.ts';
import type { Ctx } from '../../../src-main/core/api/handler.ts';
import { digestOf } from '../../../src-main/core/gobl/index.ts';
import { issueEntry } from '../../../src-main/core/sequence/issue.ts';
import { getSeries, putSeries } from '../../../src-main/core/sequence/series.ts';
import { verifySeries } from '../../../src-main/core/sequence/verify.ts';
import { openService, type Service } from '../../../src-main/core/service.ts';
import type { Envelope } from '../../../src-main/core/silo/document.ts';
import { createEntry, getEntry } from '../../../src-main/core/silo/entries.ts';
import { patchEntry } from '../../../src-main/core/silo/patch.ts';
import type { StepContext, StepResult } from '../../../src-main/core/transform/provider.ts';
import { documentSeriesAndCode, enumerationEntryId, sequenceEnumerate } from '../../../src-main/core/transform/providers/sequence-enumerate.ts';
import { loadEnvelope } from '../../fixtures/gobl/load.ts';

let dataDir: string;
let service: Service;
let ctx: Ctx;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'silodesk-enum-'));
  service = await openService(dataDir);
  const company = await ensureDefaultCompany(service.db);
  ctx = { service, caller: { companyKey: company.key, companyId: company.id, kind: 'owner' } };
});
afterAll(async () => {
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A StepContext over the real silo: reads the entry, writes through the silo's own PATCH. */
function stepContext(siloEntryId: string, jobId = uuidv1(), stepId = uuidv4()): StepContext {
  return {
    service,
    owner: ctx.caller,
    job: { id: jobId, key: null, args: {}, tags: [], silo_entry_id: siloEntryId, workflow_id: uuidv4() },
    step: { id: stepId, name: 'number it' },
    attempt: 1,
    signal: new AbortController().signal,
    async entry() {
      const view = await getEntry(ctx, siloEntryId);
      return { envelope: view.data as Envelope, state: view.state, folder: view.folder, tags: view.tags, signed: view.signed, version: Number(view.version) };
    },
    async updateEntry(changes) {
      await patchEntry(ctx, siloEntryId, { content_type: 'application/json', data: changes.envelope, state: changes.state, folder: changes.folder, tags: changes.tags });
    },
    attach() {
      throw new Error('sequence.enumerate attaches nothing');
    },
  };
}

async function newInvoice(mutate?: (envelope: any) => void): Promise<string> {
  const envelope = loadEnvelope('es-invoice-es-es.json');
  envelope.head.uuid = uuidv7();
  delete envelope.doc.series;
  envelope.doc.code = 'DRAFT';
  mutate?.(envelope);
  return (await createEntry(ctx, envelope.head.uuid, { data: envelope })).id;
}

const newSeries = (fields: Record<string, unknown> = {}) =>
  putSeries(ctx, uuidv4(), { name: 'Invoices', description: '', code: 'INV', prefix: 'F-', padding: 4, suffix: '', start: 1, ...fields });

/** What the engine does: run, then apply inside the transaction that records the outcome. */
async function runStep(step: StepContext, seriesId: string): Promise<StepResult> {
  const config = sequenceEnumerate.config.parse({ series_id: seriesId });
  const result = await sequenceEnumerate.run(step, config);
  if (result.apply) await service.db.tx(async () => result.apply!(), { origin: 'local' });
  return result;
}

const docOf = async (siloEntryId: string) => ((await getEntry(ctx, siloEntryId)).data as any).doc;

describe('sequence.enumerate', () => {
  it('numbers the document from the real series: series code, entry code, linked back to the job', async () => {
    const series = await newSeries();
    const siloId = await newInvoice();
    const step = stepContext(siloId);
    const result = await runStep(step, series.id);
    expect(result.status).toBe('OK');

    const doc = await docOf(siloId);
    expect(doc.series).toBe('INV');
    expect(doc.code).toBe('F-0001');
    expect((await getEntry(ctx, siloId)).invalid).toBe(false);

    const head = await getSeries(ctx, series.id);
    expect(head.last_index).toBe(1);
    expect(head.last_entry_id).toBe(enumerationEntryId(step.job.id, step.step.id, series.id));
    const row = (await service.db.sqlFirst<{ meta: string }>('SELECT meta FROM series_entries WHERE id = ?', [head.last_entry_id]))!;
    expect(JSON.parse(row.meta)).toEqual({ silo_entry_id: siloId, job_id: step.job.id, step_id: step.step.id });
  });

  it('gives the number the series previews when its prefix starts with its code: FV-2026-00001, never FV-FV-…', async () => {
    const series = await newSeries({ code: 'FV', prefix: 'FV-2026-', padding: 5 });
    const siloId = await newInvoice();
    expect((await runStep(stepContext(siloId), series.id)).status).toBe('OK');
    const doc = await docOf(siloId);
    // GOBL presents series and code joined by a dash: FV + 2026-00001 reads FV-2026-00001, the issued code.
    expect({ series: doc.series, code: doc.code }).toEqual({ series: 'FV', code: '2026-00001' });
    expect((await getEntry(ctx, siloId)).snippet.title).toMatch(/^Invoice FV-2026-00001 /);
    expect(await service.db.sqlFirst('SELECT code FROM series_entries WHERE id = ?', [(await getSeries(ctx, series.id)).last_entry_id])).toEqual({ code: 'FV-2026-00001' });
    // Run again, the document is recognised as numbered by this series: no second number.
    expect(await runStep(stepContext(siloId), series.id)).toMatchObject({ status: 'OK', code: 'already' });
    expect((await getSeries(ctx, series.id)).last_index).toBe(1);
  });

  it('splits an issued code into GOBL series and code only at the series code and a dash', () => {
    expect(documentSeriesAndCode('FV', 'FV-2026-00001')).toEqual({ series: 'FV', code: '2026-00001' });
    expect(documentSeriesAndCode('INV', 'F-0001')).toEqual({ series: 'INV', code: 'F-0001' });
    expect(documentSeriesAndCode('FV', 'FV2026')).toEqual({ series: 'FV', code: 'FV2026' });
    expect(documentSeriesAndCode('FV', 'FV-')).toEqual({ series: 'FV', code: 'FV-' });
    expect(documentSeriesAndCode('', 'M7')).toEqual({ code: 'M7' });
  });

  it('answers `already` when run again on a document it numbered, taking no second number', async () => {
    const series = await newSeries();
    const siloId = await newInvoice();
    await runStep(stepContext(siloId), series.id);
    const again = await runStep(stepContext(siloId), series.id);
    expect(again).toMatchObject({ status: 'OK', code: 'already' });
    expect(again.apply).toBeUndefined();
    expect((await getSeries(ctx, series.id)).last_index).toBe(1);
    expect((await docOf(siloId)).code).toBe('F-0001');
  });

  it('takes the same number when apply runs again after its transaction was lost', async () => {
    const series = await newSeries();
    const siloId = await newInvoice();
    const step = stepContext(siloId);
    const result = await sequenceEnumerate.run(step, { series_id: series.id });
    // The engine's transaction rolls back after apply (a crash before the outcome is recorded)...
    await expect(
      service.db.tx(async () => {
        await result.apply!();
        throw new Error('crash');
      }, { origin: 'local' }),
    ).rejects.toThrow('crash');
    expect((await getSeries(ctx, series.id)).last_index).toBe(0);
    expect((await docOf(siloId)).code).toBe('DRAFT');
    // ...then the step is retried, and its apply runs once, twice: one number.
    const retried = await sequenceEnumerate.run(step, { series_id: series.id });
    await service.db.tx(async () => retried.apply!(), { origin: 'local' });
    await service.db.tx(async () => retried.apply!(), { origin: 'local' });
    expect((await getSeries(ctx, series.id)).last_index).toBe(1);
    expect((await docOf(siloId)).code).toBe('F-0001');
  });

  it('gives a copy of a numbered document its own number', async () => {
    const series = await newSeries();
    const original = await newInvoice();
    await runStep(stepContext(original), series.id);
    const copy = await newInvoice((e) => Object.assign(e.doc, { series: 'INV', code: 'F-0001' }));
    const result = await runStep(stepContext(copy), series.id);
    expect(result.code).not.toBe('already');
    expect((await docOf(copy)).code).toBe('F-0002');
  });

  it('shares one gapless chain with entries issued through the API', async () => {
    const series = await newSeries({ code: '', prefix: 'M', padding: 0 });
    const siloIds = [await newInvoice(), await newInvoice(), await newInvoice()];
    await issueEntry(ctx, series.id, uuidv4(), {});
    for (const id of siloIds) {
      await runStep(stepContext(id), series.id);
      await issueEntry(ctx, series.id, uuidv4(), { meta: { from: 'api' } });
    }
    const docs = [];
    for (const id of siloIds) docs.push(await docOf(id));
    expect(docs.map((doc) => doc.code)).toEqual(['M2', 'M4', 'M6']);
    // A series without a code leaves no stale `series` on the document.
    expect(docs.map((doc) => doc.series)).toEqual([undefined, undefined, undefined]);
    expect(await verifySeries(ctx, series.id)).toEqual({ valid: true, count: 7 });
  });

  it('refuses a signed envelope, a series it does not issue, and a missing series (KO, nothing taken)', async () => {
    const series = await newSeries();
    const signed = await newInvoice((e) => {
      e.head.dig = digestOf(e.doc);
      e.sigs = [service.keys.sign({ uuid: e.head.uuid, dig: e.head.dig })];
    });
    expect((await getEntry(ctx, signed)).signed).toBe(true);
    expect(await runStep(stepContext(signed), series.id)).toMatchObject({ status: 'KO', code: 'signed' });

    const copy = await newSeries();
    await service.db.tx(() => service.db.sqlRun('UPDATE series SET issuer = ? WHERE id = ?', [uuidv7(), copy.id]), { origin: 'local' });
    expect(await runStep(stepContext(await newInvoice()), copy.id)).toMatchObject({ status: 'KO', code: 'not-issuer' });

    expect(await runStep(stepContext(await newInvoice()), uuidv4())).toMatchObject({ status: 'KO', code: 'series-not-found' });
    expect((await getSeries(ctx, series.id)).last_index).toBe(0);
    expect((await getSeries(ctx, copy.id)).last_index).toBe(0);
  });

  it('accepts only a series_id as config', () => {
    expect(sequenceEnumerate.config.safeParse({ series_id: uuidv4() }).success).toBe(true);
    expect(sequenceEnumerate.config.safeParse({}).success).toBe(false);
    expect(sequenceEnumerate.config.safeParse({ series_id: 'x' }).success).toBe(false);
    expect(sequenceEnumerate.config.safeParse({ series_id: uuidv4(), extra: 1 }).success).toBe(false);
  });
});
